// SpaceSaving (core/sketches/space_saving.h): the stated bounds on skewed random streams, and
// exactness while the keys fit in the counters.
#include <QTest>

#include <algorithm>
#include <map>
#include <random>
#include <string>

#include "core/sketches/space_saving.h"
#include "tests/test_main.h"

using namespace hitcounter;

class SpaceSavingTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerExample() {
        SpaceSaving s(2);
        for (const char* key : {"a", "a", "b", "c"}) {
            s.add(key);
        }
        QCOMPARE(s.minCount(), Count{2});
        std::map<std::string, std::pair<Count, Count>> counters;
        for (const auto& c : s.counters()) {
            counters[c.key] = {c.count, c.error};
        }
        QCOMPARE(counters.size(), std::size_t{2});
        QCOMPARE(counters["a"], (std::pair<Count, Count>{2, 0}));
        QCOMPARE(counters["c"], (std::pair<Count, Count>{2, 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SpaceSaving(0));
    }

    void exactWhileKeysFit() {
        SpaceSaving s(10);
        std::map<std::string, Count> truth;
        for (int i = 0; i < 100; ++i) {
            const std::string key = "k" + std::to_string(i % 10);
            s.add(key, static_cast<Count>(1 + i % 3));
            truth[key] += static_cast<Count>(1 + i % 3);
        }
        QCOMPARE(s.minCount(), std::min_element(truth.begin(), truth.end(), [](auto& a, auto& b) {
                                   return a.second < b.second;
                               })->second);
        QCOMPARE(s.counters().size(), truth.size());
        for (const auto& c : s.counters()) {
            QCOMPARE(c.error, Count{0});
            QCOMPARE(c.count, truth[c.key]);
        }
    }

    void boundsHoldOnSkewedStreams_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("capacity");
        QTest::newRow("seed 1, m=20") << quint64{1} << 20;
        QTest::newRow("seed 2, m=100") << quint64{2} << 100;
        QTest::newRow("seed 3, m=5") << quint64{3} << 5;
    }
    void boundsHoldOnSkewedStreams() {
        QFETCH(quint64, seed);
        QFETCH(int, capacity);
        std::mt19937_64 random(seed);
        std::geometric_distribution<int> skewed(0.05);
        SpaceSaving s(static_cast<std::size_t>(capacity));
        std::map<std::string, Count> truth;
        Count total = 0;
        for (int i = 0; i < 50'000; ++i) {
            // A third of the stream is one hot key, so that even with m = 5 some key is heavier
            // than the smallest counter and the "heavy keys are monitored" check below bites.
            const std::string key =
                i % 3 == 0 ? std::string("hot") : "key" + std::to_string(skewed(random));
            const Count n = 1 + random() % 3;
            s.add(key, n);
            truth[key] += n;
            total += n;
        }
        QCOMPARE(s.total(), total);
        const Count bound = total / static_cast<Count>(capacity);
        QVERIFY(s.minCount() <= bound);
        std::map<std::string, bool> monitored;
        for (const auto& c : s.counters()) {
            monitored[c.key] = true;
            QVERIFY(c.count - c.error <= truth[c.key]);
            QVERIFY(truth[c.key] <= c.count);
            QVERIFY(c.error <= s.minCount());
        }
        // The guarantee must be exercised: some keys are heavier than the smallest counter.
        int heavy = 0;
        for (const auto& [key, count] : truth) {
            if (count > s.minCount()) {
                QVERIFY2(monitored[key], key.c_str());
                ++heavy;
            }
        }
        QVERIFY(heavy >= 1);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(SpaceSavingTest)
#include "tst_space_saving.moc"
