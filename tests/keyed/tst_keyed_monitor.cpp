// KeyedMonitor (core/keyed/keyed_monitor.h): the façade's per-key and all-keys answers agree
// with its parts and with brute force; options are validated.
#include <QTest>

#include <map>
#include <random>
#include <set>

#include "core/keyed/keyed_monitor.h"

using namespace hitcounter;
using namespace std::chrono_literals;

class KeyedMonitorTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerExample() {
        KeyedMonitor m;
        m.record(HitBatch{{10, "home", "u1", 1}, {12, "home", "u2", 1}, {12, "about", "u1", 1}});
        const KeyStats home = m.stats("home", 12);
        QCOMPARE(home.window, Count{2});
        QCOMPARE(home.allTime, Count{2});
        QCOMPARE(home.uniques, std::uint64_t{2});
        QCOMPARE(home.allTimeUniques, std::uint64_t{2});
        const std::vector<LevelCount> levels{{60s, 2}, {300s, 2}, {3600s, 2}};
        QCOMPARE(home.levels, levels);
        const KeyStats all = m.overall(12);
        QCOMPARE(all.window, Count{3});
        QCOMPARE(all.uniques, std::uint64_t{2});
        QCOMPARE(m.top(1, 12), (std::vector<KeyCount>{{"home", 2}}));
        QVERIFY(!m.approximateTop(1, 12).has_value());
    }

    void invalidOptionsAreRejected() {
        MonitorOptions levelBelowWindow;
        levelBelowWindow.window = 7200s;
        levelBelowWindow.levels = {60s, 3600s};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, KeyedMonitor{levelBelowWindow});
        MonitorOptions noLevels;
        noLevels.window = 60s;
        noLevels.levels = {};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, KeyedMonitor{noLevels});
    }

    void eventsWithoutKeyOrVisitorCountOnlyWhereTheyCan() {
        KeyedMonitor m;
        m.record(HitEvent{100, "", "u1", 5});
        m.record(HitEvent{100, "page", "", 2});
        QCOMPARE(m.overall(100).window, Count{7});
        QCOMPARE(m.overall(100).uniques, std::uint64_t{1});
        QCOMPARE(m.stats("page", 100).window, Count{2});
        QCOMPARE(m.stats("page", 100).uniques, std::uint64_t{0});
        QCOMPARE(m.keys().liveKeys(), std::size_t{1});
    }

    // A random keyed stream over two hours: every view of every key matches a brute-force
    // count at several query times.
    void everyViewMatchesBruteForce() {
        KeyedMonitor m(MonitorOptions{120s, {60s, 300s, 3600s}, {}, 8, {}});
        std::mt19937_64 random(5);
        struct Hit {
            Timestamp t;
            std::string key;
            Count n;
        };
        std::vector<Hit> hits;
        for (Timestamp t = 0; t < 7200; t += 3) {
            for (int i = 0; i < 4; ++i) {
                const std::string key = "k" + std::to_string(random() % 12);
                const Count n = 1 + random() % 3;
                m.record(HitEvent{t, key, "v" + std::to_string(random() % 50), n});
                hits.push_back({t, key, n});
            }
            if (t % 900 != 0 || t == 0) {
                continue;
            }
            for (const std::string key : {"k0", "k7", "k11"}) {
                const KeyStats s = m.stats(key, t);
                for (const LevelCount& level : s.levels) {
                    Count expected = 0;
                    for (const Hit& h : hits) {
                        expected += h.key == key && h.t > t - level.window.count() ? h.n : 0;
                    }
                    QCOMPARE(level.count, expected);
                }
                Count all = 0;
                for (const Hit& h : hits) {
                    all += h.key == key ? h.n : 0;
                }
                QCOMPARE(s.allTime, all);
            }
            const auto exactTop = m.top(3, t);
            const auto approximate = m.approximateTop(3, t);
            QVERIFY(approximate.has_value());
            // At most 4 keys a second fit the 8 counters: the approximate list is exact.
            QCOMPARE(approximate->epsilon, Count{0});
            for (std::size_t i = 0; i < exactTop.size(); ++i) {
                QCOMPARE(approximate->top[i].key, exactTop[i].key);
                QCOMPARE(approximate->top[i].estimate, exactTop[i].count);
            }
        }
        const KeyStats all = m.overall(7199);
        Count lastHour = 0;
        Count total = 0;
        for (const Hit& h : hits) {
            lastHour += h.t > 7199 - 3600 ? h.n : 0;
            total += h.n;
        }
        QCOMPARE(all.levels.back().count, lastHour);
        QCOMPARE(all.allTime, total);
        QVERIFY(all.allTimeUniques >= 49 && all.allTimeUniques <= 51);
        QVERIFY(m.memoryBytes() > m.keys().memoryBytes());
    }
};

QTEST_APPLESS_MAIN(KeyedMonitorTest)
#include "tst_keyed_monitor.moc"
