// MultiLevelCounter (core/multilevel/multi_level_counter.h): the levels and any-w windows
// against a brute-force list of hits, late hits, gaps and saturation.
#include <QTest>

#include <limits>
#include <map>
#include <random>

#include "core/multilevel/multi_level_counter.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

class MultiLevelCounterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerExample() {
        MultiLevelCounter c;
        QCOMPARE(c.span(), 3600s);
        c.hit(100);
        c.hit(3000);
        c.hit(3550, 2);
        QCOMPARE(c.countLast(3600, 60s), Count{2});
        QCOMPARE(c.countLast(3600, 51s), Count{2});
        QCOMPARE(c.countLast(3600, 50s), Count{0});
        const std::vector<LevelCount> expected{{60s, 2}, {300s, 2}, {3600s, 4}};
        QCOMPARE(c.levels(3600), expected);
        QCOMPARE(c.allTime(), Count{4});
        QCOMPARE(c.countLast(3700, 3600s), Count{3});
    }

    void invalidLevelsAndWindowsAreRejected() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 MultiLevelCounter(std::vector<std::chrono::seconds>{}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, MultiLevelCounter({60s, 0s}));
        MultiLevelCounter c({10s});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.countLast(0, 11s));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.countLast(0, 0s));
    }

    void anyWindowMatchesBruteForce() {
        constexpr std::int64_t kSpan = 600;
        MultiLevelCounter c({60s, 300s, std::chrono::seconds{kSpan}});
        std::map<Timestamp, Count> hits;
        std::mt19937_64 random(9);
        Timestamp now = 0;
        Count dropped = 0;
        for (int i = 0; i < 20'000; ++i) {
            const auto roll = random() % 1000;
            now += roll == 0 ? 2000 : static_cast<Timestamp>(random() % 3);  // rare long gap
            const Timestamp t = roll % 5 == 0 ? now - Timestamp(random() % 700) : now;
            const Count n = 1 + random() % 4;
            c.advance(now);
            c.hit(t, n);
            if (t <= now - kSpan) {
                dropped += n;
            } else {
                hits[t] += n;
            }
            if (i % 7 == 0) {
                const Timestamp at = now - static_cast<Timestamp>(random() % 50);
                const auto w = static_cast<std::int64_t>(1 + random() % kSpan);
                Count expected = 0;
                const Timestamp oldest = std::max(at - w, now - kSpan);
                for (auto it = hits.upper_bound(oldest); it != hits.end() && it->first <= at;
                     ++it) {
                    expected += it->second;
                }
                QCOMPARE(c.countLast(at, std::chrono::seconds{w}), expected);
            }
        }
        QCOMPARE(c.droppedLate(), dropped);
        Count all = 0;
        for (const auto& [t, n] : hits) {
            all += n;
        }
        QCOMPARE(c.allTime(), all);
    }

    void memoryIsFixed() {
        MultiLevelCounter c;
        const std::size_t before = c.memoryBytes();
        QVERIFY(before >= 3600 * 24);
        for (Timestamp t = 0; t < 100'000; t += 7) {
            c.hit(t);
        }
        QCOMPARE(c.memoryBytes(), before);
    }

    void countsSaturateAndRecover() {
        MultiLevelCounter c({10s});
        const Count max = std::numeric_limits<Count>::max();
        c.hit(1, max);
        c.hit(2, max);
        QCOMPARE(c.countLast(2, 10s), max);
        QCOMPARE(c.allTime(), max);
        c.hit(11, 5);
        QCOMPARE(c.countLast(11, 10s), max);  // second 2 is still in (1, 11]
        QCOMPARE(c.countLast(12, 10s), Count{5});
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(MultiLevelCounterTest)
#include "tst_multi_level_counter.moc"
