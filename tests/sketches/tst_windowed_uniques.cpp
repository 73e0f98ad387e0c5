// WindowedUniques (core/sketches/windowed_uniques.h): exact window edges, late seconds,
// retention, and the error bounds of the merged per-second sketches.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>

#include "core/sketches/windowed_uniques.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
std::uint64_t h(const std::string& visitor) {
    return HyperLogLog::hashOf(visitor);
}
}  // namespace

class WindowedUniquesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void windowEdgesAreExact() {
        WindowedUniques u(300s);
        u.add(10, h("a"));
        u.add(11, h("b"));
        u.add(11, h("a"));
        QCOMPARE(u.estimate(9, 11), std::uint64_t{2});
        QCOMPARE(u.estimate(10, 11), std::uint64_t{2});
        QCOMPARE(u.estimate(10, 10), std::uint64_t{0});
        QCOMPARE(u.estimate(9, 10), std::uint64_t{1});
    }

    void lateSecondInsideRetentionIsCountedAndOlderIsRefused() {
        WindowedUniques u(10s);
        QVERIFY(u.add(100, h("a")));
        QVERIFY(u.add(95, h("b")));
        QVERIFY(u.add(97, h("c")));
        QVERIFY(!u.add(90, h("d")));
        QCOMPARE(u.estimate(90, 100), std::uint64_t{3});
        QCOMPARE(u.estimate(95, 100), std::uint64_t{2});
    }

    void secondsLeavingTheRetentionAreForgotten() {
        WindowedUniques u(10s);
        for (Timestamp t = 0; t < 10; ++t) {
            u.add(t, h("v" + std::to_string(t)));
        }
        const std::size_t full = u.memoryBytes();
        u.advance(1000);
        QVERIFY(u.empty());
        QVERIFY(u.memoryBytes() < full);
        QCOMPARE(u.estimate(0, 1000), std::uint64_t{0});
    }

    // The ready-made union (a front suffix plus the back sketch) must be the very sketch that
    // merging the window's seconds gives: equal estimates for windows ending now and in the
    // past, across late seconds, quiet gaps, the back becoming the front, and dense seconds.
    void everyWindowEqualsTheUnionOfItsSeconds() {
        constexpr std::int64_t kRetention = 20;
        WindowedUniques u(std::chrono::seconds{kRetention});
        std::map<Timestamp, HyperLogLog> seconds;
        std::mt19937_64 random(9);
        int compared = 0;
        for (Timestamp now = 0; now < 200; ++now) {
            if (random() % 7 == 0) {
                continue;  // a quiet second
            }
            u.advance(now);
            const int visits = now % 50 == 10 ? 3000 : static_cast<int>(random() % 40);
            for (int i = 0; i < visits; ++i) {
                const bool late = random() % 5 == 0;
                const Timestamp t =
                    late ? now - static_cast<Timestamp>(random() % (kRetention + 3)) : now;
                const std::uint64_t hash = h("v" + std::to_string(random() % 5000));
                if (u.add(t, hash)) {
                    seconds[t].add(hash);
                } else {
                    QVERIFY(t <= now - kRetention);
                }
            }
            if (now < 100 && now % 4 != 0) {
                continue;  // seconds leave unqueried: the unions are rebuilt at the next query
            }
            for (std::int64_t back :
                 {kRetention, kRetention / 2, std::int64_t{3}, std::int64_t{1}}) {
                for (Timestamp to : {now, now - 4}) {
                    const Timestamp from = to - back;
                    HyperLogLog expected;
                    for (const auto& [second, sketch] : seconds) {
                        if (second > from && second <= to && second > now - kRetention) {
                            expected.merge(sketch);
                        }
                    }
                    QCOMPARE(u.estimate(from, to), expected.estimate());
                    ++compared;
                }
            }
        }
        QVERIFY(compared > 600);
    }

    // A sliding stream of visitors: at several query times the merged estimate is compared with
    // the exact distinct count of the window. 100-visitor windows within 2, large within 2 %.
    void slidingWindowMeetsTheErrorBounds_data() {
        QTest::addColumn<int>("visitorsPerSecond");
        QTest::addColumn<int>("population");
        QTest::newRow("about 100 distinct") << 1 << 1'000'000;
        QTest::newRow("repeat visitors") << 40 << 2'000;
        QTest::newRow("1M distinct") << 3'500 << 100'000'000;
    }
    void slidingWindowMeetsTheErrorBounds() {
        QFETCH(int, visitorsPerSecond);
        QFETCH(int, population);
        constexpr std::int64_t kWindow = 300;
        WindowedUniques u(std::chrono::seconds{kWindow});
        std::mt19937_64 random(42);
        std::vector<std::vector<std::uint64_t>> bySecond;
        int queries = 0;
        for (Timestamp now = 0; now < 400; ++now) {
            bySecond.emplace_back();
            const int visits =
                now < 300 && visitorsPerSecond == 1 ? (now % 3 == 0 ? 1 : 0) : visitorsPerSecond;
            for (int i = 0; i < visits; ++i) {
                const std::uint64_t visitor = random() % static_cast<std::uint64_t>(population);
                bySecond.back().push_back(visitor);
                u.add(now, h("v" + std::to_string(visitor)));
            }
            if (now != 299 && now != 350 && now != 399) {
                continue;
            }
            std::vector<std::uint64_t> exact;
            for (Timestamp t = now - kWindow + 1; t <= now; ++t) {
                exact.insert(exact.end(), bySecond[static_cast<std::size_t>(t)].begin(),
                             bySecond[static_cast<std::size_t>(t)].end());
            }
            std::sort(exact.begin(), exact.end());
            exact.erase(std::unique(exact.begin(), exact.end()), exact.end());
            const auto estimate = static_cast<double>(u.estimate(now - kWindow, now));
            const double truth = static_cast<double>(exact.size());
            const double allowed = truth <= 1000 ? 2.0 : 0.02 * truth;
            QVERIFY2(std::abs(estimate - truth) <= allowed,
                     (std::to_string(estimate) + " vs " + std::to_string(truth)).c_str());
            ++queries;
        }
        QCOMPARE(queries, 3);
    }

    // A shorter retention set in place answers like a sketch that had it all along (unions
    // rebuilt, late adds refused at the new bound); a longer one keeps what it has.
    void setRetentionShorterEqualsAFreshSketchAndLongerKeeps() {
        WindowedUniques changed(300s);
        WindowedUniques fresh(60s);
        std::mt19937_64 random(3);
        for (Timestamp t = 0; t < 1000; ++t) {
            for (int i = 0; i < 5; ++i) {
                const std::uint64_t hash = h("v" + std::to_string(random() % 2000));
                changed.add(t, hash);
                fresh.add(t, hash);
            }
            if (t == 500) {
                QCOMPARE(changed.estimate(t - 60, t), fresh.estimate(t - 60, t));  // unions built
            }
        }
        changed.setRetention(60s);
        QCOMPARE(changed.retention(), 60s);
        for (Timestamp from : {939, 950, 998}) {
            QCOMPARE(changed.estimate(from, 999), fresh.estimate(from, 999));
        }
        QCOMPARE(changed.estimate(0, 999), fresh.estimate(0, 999));  // nothing before 940 left
        QVERIFY(!changed.add(939, h("late")));
        QVERIFY(changed.add(940, h("late")));
        fresh.add(940, h("late"));
        QCOMPARE(changed.estimate(939, 999), fresh.estimate(939, 999));
        changed.setRetention(600s);
        QCOMPARE(changed.estimate(0, 999), fresh.estimate(939, 999));  // kept, nothing more
        QVERIFY(changed.add(500, h("older")));                         // inside 600 s now
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, changed.setRetention(0s));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(WindowedUniquesTest)
#include "tst_windowed_uniques.moc"
