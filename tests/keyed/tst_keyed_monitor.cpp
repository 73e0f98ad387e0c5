// KeyedMonitor (core/keyed/keyed_monitor.h): the façade's per-key and all-keys answers agree
// with its parts and with brute force; options are validated.
#include <QTest>

#include <map>
#include <random>
#include <set>

#include "core/keyed/keyed_monitor.h"
#include "tests/test_main.h"

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

    // setWindow keeps every key: a monitor whose W changes mid-stream answers like a fresh one
    // fed the same hits with the new W from the start (counts, levels, top-K exactly; uniques
    // exactly when W shrinks, never high when it grows, and exactly again once the new W has
    // passed).
    void setWindow_data() {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::newRow("shrink 300 -> 60") << 300 << 60;
        QTest::newRow("grow 60 -> 900") << 60 << 900;
        QTest::newRow("grow 300 -> 3600 (the largest level)") << 300 << 3600;
        QTest::newRow("shrink 3600 -> 1") << 3600 << 1;
    }
    void setWindow() {
        QFETCH(int, from);
        QFETCH(int, to);
        MonitorOptions changedOptions;
        changedOptions.window = std::chrono::seconds(from);
        changedOptions.approximateTopCapacity = 64;
        KeyedMonitor changed(changedOptions);
        MonitorOptions freshOptions = changedOptions;
        freshOptions.window = std::chrono::seconds(to);
        KeyedMonitor fresh(freshOptions);
        std::mt19937_64 random(11);
        // Returns the last second fed (hits come every other second, some of them late).
        const auto feed = [&](Timestamp begin, Timestamp end) {
            Timestamp last = begin;
            for (Timestamp t = begin; t < end; t += 2) {
                last = t;
                for (int i = 0; i < 3; ++i) {
                    // Skewed: low keys are hit far more often, so the ranking is not flat.
                    const std::uint64_t r = random() % 64;
                    const std::string key = "k" + std::to_string(r < 32 ? r % 4 : r % 40);
                    const HitEvent hit{t - (i == 2 ? Timestamp(random() % 5) : 0), key,
                                       "u" + std::to_string(random() % 3000), 1 + random() % 4};
                    changed.record(hit);
                    fresh.record(hit);
                }
            }
            return last;
        };
        std::set<std::string> keys;
        for (int k = 0; k < 40; ++k) {
            keys.insert("k" + std::to_string(k));
        }
        const auto compare = [&](Timestamp now, bool uniquesExact) {
            QCOMPARE(changed.window(), fresh.window());
            QCOMPARE(changed.top(40, now), fresh.top(40, now));
            QVERIFY(!fresh.top(40, now).empty());
            for (const std::string& key : keys) {
                const KeyStats a = changed.stats(key, now);
                const KeyStats b = fresh.stats(key, now);
                QCOMPARE(a.window, b.window);
                QCOMPARE(a.levels, b.levels);
                QCOMPARE(a.allTime, b.allTime);
                if (uniquesExact) {
                    QCOMPARE(a.uniques, b.uniques);
                } else {
                    QVERIFY(a.uniques <= b.uniques);
                }
            }
            const KeyStats a = changed.overall(now);
            const KeyStats b = fresh.overall(now);
            QCOMPARE(a.window, b.window);
            QCOMPARE(a.levels, b.levels);
            if (uniquesExact) {
                QCOMPARE(a.uniques, b.uniques);
                const auto approximateA = changed.approximateTop(10, now);
                const auto approximateB = fresh.approximateTop(10, now);
                QCOMPARE(approximateA->hits, approximateB->hits);
                QCOMPARE(approximateA->epsilon, approximateB->epsilon);
            } else {
                QVERIFY(a.uniques <= b.uniques);
            }
        };
        const Timestamp changedAt = feed(0, 5000);
        changed.setWindow(std::chrono::seconds(to));
        compare(changedAt, to <= from);
        if (to > from) {
            // The old W's seconds were all it had: fewer visitors than a full new window.
            QVERIFY(changed.overall(changedAt).uniques < fresh.overall(changedAt).uniques);
        }
        // The new W has passed: the visitor sketches agree again.
        compare(feed(5000, 5000 + to + 10), true);
        QCOMPARE(changed.droppedLate(), fresh.droppedLate());
    }

    void setWindowRejectsAWindowBeyondTheLargestLevel() {
        KeyedMonitor m;
        m.record(HitEvent{10, "home", "u1", 1});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.setWindow(std::chrono::seconds(3601)));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.setWindow(std::chrono::seconds(0)));
        QCOMPARE(m.window(), std::chrono::seconds(300));
        QCOMPARE(m.stats("home", 10).window, Count{1});
    }

    void setWindowHeaderExample() {
        KeyedMonitor m;
        m.record(HitBatch{{10, "home", "u1", 1}, {12, "home", "u2", 1}, {12, "about", "u1", 1}});
        m.setWindow(std::chrono::seconds(60));
        m.record(HitEvent{80, "about", "u3", 1});
        QCOMPARE(m.stats("home", 80).window, Count{0});
        QCOMPARE(m.top(1, 80), (std::vector<KeyCount>{{"about", 1}}));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(KeyedMonitorTest)
#include "tst_keyed_monitor.moc"
