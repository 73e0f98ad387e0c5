// WindowedTopK (core/sketches/windowed_top_k.h): the stated error bound on Zipf traces with
// far more keys than counters, and the exact answer when every second fits in its counters.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/sketches/windowed_top_k.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
struct TraceHit {
    Timestamp t;
    std::string key;
};

std::vector<TraceHit> zipfTrace(std::uint64_t seed, int keys, int hitsPerSecond, int seconds) {
    std::mt19937_64 random(seed);
    std::vector<double> cdf;
    double sum = 0;
    for (int k = 1; k <= keys; ++k) {
        sum += 1.0 / k;
        cdf.push_back(sum);
    }
    std::uniform_real_distribution<double> uniform(0.0, sum);
    std::vector<TraceHit> trace;
    for (int t = 0; t < seconds; ++t) {
        for (int i = 0; i < hitsPerSecond; ++i) {
            const auto rank =
                std::lower_bound(cdf.begin(), cdf.end(), uniform(random)) - cdf.begin();
            trace.push_back({t, "item" + std::to_string(rank)});
        }
    }
    return trace;
}

std::map<std::string, Count> exactCounts(const std::vector<TraceHit>& trace, Timestamp from,
                                         Timestamp to) {
    std::map<std::string, Count> counts;
    for (const auto& hit : trace) {
        if (hit.t > from && hit.t <= to) {
            ++counts[hit.key];
        }
    }
    return counts;
}
}  // namespace

class WindowedTopKTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerExample() {
        WindowedTopK top(300s, 1);
        top.add(1, "a");
        top.add(1, "a");
        top.add(1, "b");
        top.add(2, "b");
        const auto result = top.top(1, 0, 2);
        QCOMPARE(result.epsilon, Count{4});
        QCOMPARE(result.hits, Count{4});
        QCOMPARE(result.top.size(), std::size_t{1});
        QCOMPARE(result.top[0].key, std::string("b"));
        QCOMPARE(result.top[0].estimate, Count{4});
        QCOMPARE(result.top[0].lower, Count{2});
    }

    void lateAndExpiredSeconds() {
        WindowedTopK top(10s, 4);
        QVERIFY(top.add(100, "a"));
        QVERIFY(top.add(95, "b", 3));
        QVERIFY(!top.add(90, "c"));
        auto result = top.top(5, 90, 100);
        QCOMPARE(result.top.size(), std::size_t{2});
        QCOMPARE(result.top[0].key, std::string("b"));
        QCOMPARE(result.epsilon, Count{0});
        top.advance(200);
        QCOMPARE(top.top(5, 190, 200).top.size(), std::size_t{0});
    }

    void errorBoundHoldsOnZipfTraces_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("capacity");
        QTest::newRow("seed 11, m=16") << quint64{11} << 16;
        QTest::newRow("seed 12, m=64") << quint64{12} << 64;
    }
    void errorBoundHoldsOnZipfTraces() {
        QFETCH(quint64, seed);
        QFETCH(int, capacity);
        constexpr std::int64_t kWindow = 60;
        const auto trace = zipfTrace(seed, 5000, 200, 180);
        WindowedTopK top(std::chrono::seconds{kWindow}, static_cast<std::size_t>(capacity));
        std::size_t next = 0;
        for (Timestamp now = 60; now < 180; now += 40) {
            while (next < trace.size() && trace[next].t <= now) {
                top.add(trace[next].t, trace[next].key);
                ++next;
            }
            const auto truth = exactCounts(trace, now - kWindow, now);
            const auto result = top.top(1'000'000, now - kWindow, now);
            QCOMPARE(result.hits, Count{kWindow * 200});
            QVERIFY(result.epsilon > 0);
            QVERIFY(result.epsilon <= result.hits / static_cast<Count>(capacity));
            std::map<std::string, bool> reported;
            for (const auto& e : result.top) {
                const auto it = truth.find(e.key);
                const Count real = it == truth.end() ? 0 : it->second;
                QVERIFY(e.lower <= real);
                QVERIFY(real <= e.estimate);
                QVERIFY(e.estimate - real <= result.epsilon);
                reported[e.key] = true;
            }
            int heavy = 0;  // the guarantee must be exercised, not vacuously true
            for (const auto& [key, count] : truth) {
                if (count > result.epsilon) {
                    QVERIFY2(reported[key], key.c_str());
                    ++heavy;
                }
            }
            QVERIFY(heavy >= 1);
            // The head of the ranking: the true top 3 are heavy enough to be certain.
            const auto top3 = top.top(3, now - kWindow, now).top;
            QCOMPARE(top3.size(), std::size_t{3});
            QCOMPARE(top3[0].key, std::string("item0"));
        }
    }

    void exactWhenEverySecondFits() {
        const auto trace = zipfTrace(5, 40, 100, 100);
        WindowedTopK top(60s, 64);
        for (const auto& hit : trace) {
            top.add(hit.t, hit.key);
        }
        const auto truth = exactCounts(trace, 39, 99);
        const auto result = top.top(10, 39, 99);
        QCOMPARE(result.epsilon, Count{0});
        std::vector<std::pair<Count, std::string>> expected;
        for (const auto& [key, count] : truth) {
            expected.emplace_back(count, key);
        }
        std::sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        for (std::size_t i = 0; i < 10; ++i) {
            QCOMPARE(result.top[i].key, expected[i].second);
            QCOMPARE(result.top[i].estimate, expected[i].first);
            QCOMPARE(result.top[i].lower, expected[i].first);
        }
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(WindowedTopKTest)
#include "tst_windowed_top_k.moc"
