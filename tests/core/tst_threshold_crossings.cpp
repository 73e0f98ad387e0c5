// ThresholdCrossings: exact crossings (no hysteresis) of known series, both directions.
#include <QTest>

#include "core/engine/threshold_crossings.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {
using Points = std::vector<std::pair<Timestamp, Count>>;
}

class TestThresholdCrossings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void headerExampleCrossesUpDownUp() {
        ThresholdCrossings c(10);
        const auto got =
            c.observeAll("total", Points{{1, 4}, {2, 10}, {3, 12}, {4, 9}, {5, 9}, {6, 11}});
        const std::vector<ThresholdCrossing> want = {{2, "total", CrossingDirection::Up, 10, 10},
                                                     {4, "total", CrossingDirection::Down, 9, 10},
                                                     {6, "total", CrossingDirection::Up, 11, 10}};
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            QVERIFY2(got[i] == want[i], qPrintable(QString::number(i)));
        }
        QVERIFY(c.above("total"));
    }

    void everyChangeOfSideIsOneCrossingWithoutHysteresis() {
        // Oscillating around the threshold by one: every step is a crossing.
        ThresholdCrossings c(5);
        const auto got = c.observeAll("k", Points{{0, 4}, {1, 5}, {2, 4}, {3, 5}, {4, 4}, {5, 5}});
        QCOMPARE(got.size(), std::size_t{5});
        for (std::size_t i = 0; i < got.size(); ++i) {
            QCOMPARE(got[i].second, Timestamp(i + 1));
            QCOMPARE(got[i].direction,
                     i % 2 == 0 ? CrossingDirection::Up : CrossingDirection::Down);
        }
    }

    void firstObservationAboveIsAnUpwardCrossing() {
        ThresholdCrossings c(3);
        const auto crossing = c.observe("k", 7, 3);
        QVERIFY(crossing.has_value());
        QCOMPARE(crossing->direction, CrossingDirection::Up);
        QCOMPARE(crossing->second, Timestamp{7});
        QVERIFY(!c.observe("k", 8, 100).has_value());
    }

    void seriesAreIndependent() {
        ThresholdCrossings c(10);
        QVERIFY(c.observe("a", 1, 20).has_value());
        QVERIFY(!c.observe("b", 1, 5).has_value());
        QVERIFY(c.observe("b", 2, 10).has_value());
        QVERIFY(c.observe("a", 2, 0).has_value());
    }

    void olderSecondsAreIgnoredButTheOpenHeadCounts() {
        ThresholdCrossings c(10);
        QVERIFY(!c.observe("t", 5, 9).has_value());
        QVERIFY(c.observe("t", 5, 10).has_value());  // the head second grew
        QVERIFY(!c.observe("t", 4, 0).has_value());  // older: ignored
        QVERIFY(c.above("t"));
    }

    void newThresholdAndResetForgetTheSide() {
        ThresholdCrossings c(10);
        QVERIFY(c.observe("t", 1, 50).has_value());
        c.setThreshold(100);
        QVERIFY(!c.observe("t", 2, 50).has_value());
        QVERIFY(c.observe("t", 3, 100).has_value());
        c.reset();
        QVERIFY(!c.above("t"));
        const auto again = c.observe("t", 1, 200);
        QVERIFY(again.has_value());
        QCOMPARE(again->threshold, Count{100});
        QCOMPARE(crossingDirectionName(CrossingDirection::Down), std::string_view("down"));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestThresholdCrossings)
#include "tst_threshold_crossings.moc"
