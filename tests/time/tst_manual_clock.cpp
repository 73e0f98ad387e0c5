// ManualClock: moves only when told, wakes sleepers whose deadline passed.
#include <QTest>

#include "core/time/manual_clock.h"
#include "tests/test_main.h"
#include "tests/time/sleeper.h"

using namespace hitcounter;
using namespace std::chrono_literals;

class ManualClockTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startsWhereToldAndTruncatesToWholeSeconds() {
        ManualClock clock(12'700ms);
        QCOMPARE(clock.time(), 12'700ms);
        QCOMPARE(clock.now(), Timestamp{12});
    }

    void negativeTimesFloorToTheEarlierSecond() {
        ManualClock clock(-500ms);
        QCOMPARE(clock.now(), Timestamp{-1});
    }

    void advanceAndSetMoveTheClock() {
        ManualClock clock(100s);
        clock.advance(1500ms);
        QCOMPARE(clock.now(), Timestamp{101});
        clock.set(50s);
        QCOMPARE(clock.now(), Timestamp{50});
    }

    void sleepUntilPastTimeReturnsAtOnce() {
        ManualClock clock(10s);
        QVERIFY(clock.sleepUntil(5s, std::stop_token{}));
    }

    void sleeperWakesWhenClockReachesDeadline() {
        ManualClock clock(0s);
        test::Sleeper sleeper(clock, 10s);
        clock.advance(4s);
        clock.advance(6s);
        const auto outcome = sleeper.result();
        QVERIFY(outcome.has_value());
        QVERIFY(outcome->reached);
        QVERIFY(outcome->timeAtWake >= 10s);
    }

    void stopRequestWakesSleeperWithoutReachingDeadline() {
        ManualClock clock(0s);
        test::Sleeper sleeper(clock, 10s);
        sleeper.stop();
        const auto outcome = sleeper.result();
        QVERIFY(outcome.has_value());
        QVERIFY(!outcome->reached);
        QCOMPARE(outcome->timeAtWake, 0s);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(ManualClockTest)
#include "tst_manual_clock.moc"
