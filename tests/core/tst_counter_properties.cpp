// Property tests on random streams with fixed seeds: every exact policy gives the answer of a
// brute-force oracle; coarse and estimate stay within the error bounds their headers state.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/counters/counter_factory.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

// Every accepted hit, with the same head and late-hit rule as the contract.
class Oracle {
public:
    explicit Oracle(std::int64_t window) : m_window(window) {}

    void hit(Timestamp t, Count n) {
        if (m_hasHead && t <= m_head - m_window) {
            return;
        }
        advance(t);
        m_hits.push_back({t, n});
        if (m_hits.size() % 1024 == 0) {
            forgetOlderThan(m_head - 2 * m_window - 120);
        }
    }
    // Hits in (from, to].
    Count between(Timestamp from, Timestamp to) const {
        Count sum = 0;
        for (const auto& [t, n] : m_hits) {
            if (t > from && t <= to) {
                sum += n;
            }
        }
        return sum;
    }
    Count count(Timestamp t) {
        advance(t);
        return between(std::max(t, m_head) - m_window, t);
    }
    Timestamp head() const { return m_head; }

private:
    // No query looks further back than the previous fixed window or the coarse slack.
    void forgetOlderThan(Timestamp oldest) {
        std::erase_if(m_hits, [oldest](const auto& hit) { return hit.first < oldest; });
    }
    void advance(Timestamp t) {
        if (!m_hasHead || t > m_head) {
            m_head = t;
            m_hasHead = true;
        }
    }
    std::int64_t m_window;
    bool m_hasHead = false;
    Timestamp m_head = 0;
    std::vector<std::pair<Timestamp, Count>> m_hits;
};

struct Op {
    bool isHit;
    Timestamp t;
    Count n;
};

// A stream that mostly moves forward, with bursts, gaps, late hits and past queries.
std::vector<Op> randomStream(std::uint32_t seed, std::int64_t window, int length) {
    std::mt19937_64 rng(seed);
    std::vector<Op> ops;
    Timestamp now = std::uniform_int_distribution<Timestamp>(0, 3'000'000'000)(rng);
    for (int i = 0; i < length; ++i) {
        const int kind = std::uniform_int_distribution<int>(0, 99)(rng);
        if (kind < 50) {
            ops.push_back({true, now, std::uniform_int_distribution<Count>(1, 5)(rng)});
        } else if (kind < 60) {
            const Timestamp late =
                now - std::uniform_int_distribution<Timestamp>(0, window + 20)(rng);
            ops.push_back({true, late, 1});
        } else if (kind < 85) {
            ops.push_back({false, now, 0});
        } else if (kind < 88) {
            ops.push_back(
                {false, now - std::uniform_int_distribution<Timestamp>(0, window)(rng), 0});
        } else if (kind < 97) {
            now += std::uniform_int_distribution<Timestamp>(1, 5)(rng);
        } else {
            now += std::uniform_int_distribution<Timestamp>(window / 2, 3 * window)(rng);
        }
    }
    return ops;
}

}  // namespace

class CounterPropertiesTest : public QObject {
    Q_OBJECT

private:
    static void streamsTable() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<int>("window");
        QTest::addColumn<uint>("seed");
        for (std::string_view name : policyNames()) {
            for (int window : {1, 7, 64, 300, 1000}) {
                for (uint seed : {1u, 2u, 3u}) {
                    const std::string row = std::string(name) + "/W" + std::to_string(window) +
                                            "/seed" + std::to_string(seed);
                    QTest::newRow(row.c_str())
                        << QString::fromLatin1(name.data(), name.size()) << window << seed;
                }
            }
        }
    }

private Q_SLOTS:
    void matchesOracleOrStaysWithinBound_data() { streamsTable(); }
    void matchesOracleOrStaysWithinBound() {
        QFETCH(QString, policy);
        QFETCH(int, window);
        QFETCH(uint, seed);
        auto counter =
            makeCounter(policy.toStdString(), CounterOptions{std::chrono::seconds{window}, 60s});
        Oracle oracle(window);
        const std::int64_t bucket = 60;
        int checked = 0;
        for (const Op& op : randomStream(seed, window, 20'000)) {
            if (op.isHit) {
                counter->hit(op.t, op.n);
                oracle.hit(op.t, op.n);
                continue;
            }
            const bool atHead = op.t >= oracle.head();
            const Count got = counter->count(op.t);
            const Count exact = oracle.count(op.t);
            if (counter->isExact()) {
                QCOMPARE(got, exact);
            } else if (policy == "coarse" && atHead) {
                // exact <= coarse <= exact + hits in [t - W - B + 2, t - W]
                const Count slack = oracle.between(op.t - window - bucket + 1, op.t - window);
                QVERIFY2(got >= exact && got <= exact + slack,
                         qPrintable(QStringLiteral("t=%1 got=%2 exact=%3 slack=%4")
                                        .arg(op.t)
                                        .arg(got)
                                        .arg(exact)
                                        .arg(slack)));
            } else if (policy == "estimate" && atHead) {
                const std::int64_t w = window;
                const std::int64_t fixedStart = (op.t / w) * w;
                const Count previous = oracle.between(fixedStart - w - 1, fixedStart - 1);
                const double f = double(w - (op.t % w) - 1) / double(w);
                const double bound = std::max(f, 1.0 - f) * double(previous) + 0.5;
                QVERIFY2(std::abs(double(got) - double(exact)) <= bound + 1e-9,
                         qPrintable(QStringLiteral("t=%1 got=%2 exact=%3 bound=%4")
                                        .arg(op.t)
                                        .arg(got)
                                        .arg(exact)
                                        .arg(bound)));
            }
            ++checked;
        }
        QVERIFY(checked > 1000);
    }

    // hitRuns() is one call for many hit(t, n): the hits between two queries go in as runs
    // (consecutive seconds, as a replay at speed delivers them, then late hits and jumps);
    // every answer and the drops equal those of one hit() per run.
    void hitRunsEqualsOneHitPerRun_data() { streamsTable(); }
    void hitRunsEqualsOneHitPerRun() {
        QFETCH(QString, policy);
        QFETCH(int, window);
        QFETCH(uint, seed);
        const CounterOptions options{std::chrono::seconds{window}, 60s};
        auto oneByOne = makeCounter(policy.toStdString(), options);
        auto byRuns = makeCounter(policy.toStdString(), options);
        std::mt19937_64 rng(seed);
        std::vector<Op> ops = randomStream(seed, window, 5'000);
        // Stretches of one hit per second (every hit opens a new second), some with a query.
        Timestamp now = ops.back().t + 1;
        for (int i = 0; i < 5'000; ++i) {
            now += rng() % 8 == 0 ? 0 : 1;
            ops.push_back({true, now, 1 + rng() % 3});
            if (rng() % 50 == 0) {
                ops.push_back({false, now, 0});
            }
        }
        ops.push_back({true, now + 1, std::numeric_limits<Count>::max()});  // saturates
        ops.push_back({true, now + 1, 5});
        ops.push_back({true, now + 2, std::numeric_limits<Count>::max()});
        ops.push_back({false, now + 2, 0});
        std::vector<SecondHits> runs;
        int queries = 0;
        for (const Op& op : ops) {
            if (op.isHit) {
                oneByOne->hit(op.t, op.n);
                runs.push_back({op.t, op.n});
                continue;
            }
            byRuns->hitRuns(runs);
            runs.clear();
            QCOMPARE(byRuns->count(op.t), oneByOne->count(op.t));
            ++queries;
        }
        QCOMPARE(byRuns->droppedLate(), oneByOne->droppedLate());
        QVERIFY(queries > 100);
    }

    void exactPoliciesAgreeWithSortedOnLongRandomStreams() {
        for (uint seed = 10; seed < 14; ++seed) {
            std::vector<std::unique_ptr<WindowCounter>> counters;
            for (std::string_view name : exactPolicyNames()) {
                counters.push_back(makeCounter(name, CounterOptions{300s}));
            }
            auto sorted = makeCounter("sorted", CounterOptions{300s});
            for (const Op& op : randomStream(seed, 300, 50'000)) {
                if (op.isHit) {
                    sorted->hit(op.t, op.n);
                    for (auto& c : counters)
                        c->hit(op.t, op.n);
                } else {
                    const Count expected = sorted->count(op.t);
                    for (auto& c : counters)
                        QCOMPARE(c->count(op.t), expected);
                }
            }
            for (auto& c : counters)
                QCOMPARE(c->droppedLate(), sorted->droppedLate());
        }
    }

    void coarseErrorBoundIsReachedButNotExceeded() {
        // All hits in the oldest second of the bucket that straddles the window's start.
        auto coarse = makeCounter("coarse", CounterOptions{300s, 60s});
        coarse->hit(60, 10);  // bucket [60, 120)
        coarse->hit(119, 1);
        // At t = 418 the window is (118, 418]: exact 1 (the hit at 119); the bound's slack is
        // the hits in [60, 118] = 10, and coarse counts bucket [60, 120) whole: 11.
        QCOMPARE(coarse->count(418), Count{11});
        QCOMPARE(coarse->count(419), Count{0});  // (119, 419] no longer overlaps [60, 120)
    }

    void estimateIsExactForEvenTraffic() {
        auto estimate = makeCounter("estimate", CounterOptions{300s});
        auto exact = makeCounter("ring", CounterOptions{300s});
        for (Timestamp t = 0; t < 1200; ++t) {
            estimate->hit(t, 3);
            exact->hit(t, 3);
            QCOMPARE(estimate->count(t), exact->count(t));
        }
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(CounterPropertiesTest)
#include "tst_counter_properties.moc"
