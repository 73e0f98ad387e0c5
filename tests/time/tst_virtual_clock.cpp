// VirtualClock over a manual base clock: speed, pause/resume, seek, as fast as possible, and
// sleepers that re-plan when any of these change.
#include <QTest>

#include "core/time/manual_clock.h"
#include "core/time/virtual_clock.h"
#include "tests/test_main.h"
#include "tests/time/sleeper.h"

using namespace hitcounter;
using namespace std::chrono_literals;

class VirtualClockTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void startsAtTheGivenTime() {
        ManualClock base(5s);
        VirtualClock clock(base, 1000s);
        QCOMPARE(clock.now(), Timestamp{1000});
    }

    void runsAtItsSpeedAgainstTheBase_data() {
        QTest::addColumn<double>("speed");
        QTest::addColumn<qint64>("baseMs");
        QTest::addColumn<qint64>("expectedVirtualMs");
        QTest::newRow("1x") << 1.0 << qint64(2000) << qint64(2000);
        QTest::newRow("10x") << 10.0 << qint64(2000) << qint64(20000);
        QTest::newRow("0.1x") << 0.1 << qint64(10000) << qint64(1000);
        QTest::newRow("1000x") << 1000.0 << qint64(1500) << qint64(1500000);
    }
    void runsAtItsSpeedAgainstTheBase() {
        QFETCH(double, speed);
        QFETCH(qint64, baseMs);
        QFETCH(qint64, expectedVirtualMs);
        ManualClock base(0s);
        VirtualClock clock(base, 1000s, speed);
        base.advance(std::chrono::milliseconds(baseMs));
        QCOMPARE(clock.time(), 1000s + std::chrono::milliseconds(expectedVirtualMs));
    }

    void speedsOutsideTheRangeAreClamped() {
        ManualClock base(0s);
        VirtualClock clock(base, 0s, 0.001);
        QCOMPARE(clock.speed(), VirtualClock::kMinSpeed);
        clock.setSpeed(1e6);
        QCOMPARE(clock.speed(), VirtualClock::kMaxSpeed);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, clock.setSpeed(std::nan("")));
    }

    void speedChangeKeepsTimeContinuous() {
        ManualClock base(0s);
        VirtualClock clock(base, 0s, 10.0);
        base.advance(2s);  // virtual 20 s
        clock.setSpeed(2.0);
        QCOMPARE(clock.time(), 20s);
        base.advance(3s);  // + 6 s
        QCOMPARE(clock.time(), 26s);
    }

    void pauseFreezesTimeAndResumeContinuesFromThere() {
        ManualClock base(0s);
        VirtualClock clock(base, 1000s, 10.0);
        base.advance(2s);
        clock.pause();
        QVERIFY(clock.paused());
        base.advance(5s);
        QCOMPARE(clock.now(), Timestamp{1020});
        clock.resume();
        clock.setSpeed(0.5);
        base.advance(2s);
        QCOMPARE(clock.now(), Timestamp{1021});
    }

    void seekMovesTimeAndKeepsSpeed() {
        ManualClock base(0s);
        VirtualClock clock(base, 1000s, 4.0);
        base.advance(1s);
        clock.seek(50s);
        QCOMPARE(clock.time(), 50s);
        base.advance(1s);
        QCOMPARE(clock.time(), 54s);
        clock.seek(10s);  // backwards too
        QCOMPARE(clock.time(), 10s);
    }

    void sleeperWakesWhenTheBaseReachesTheMappedDeadline() {
        ManualClock base(0s);
        VirtualClock clock(base, 1000s, 10.0);
        test::Sleeper sleeper(clock, 1010s);  // 1 s of base time
        base.advance(500ms);
        base.advance(500ms);
        const auto outcome = sleeper.result();
        QVERIFY(outcome.has_value());
        QVERIFY(outcome->reached);
        QVERIFY(outcome->timeAtWake >= 1010s);
    }

    void speedChangeMakesASleeperReplan() {
        ManualClock base(0s);
        VirtualClock clock(base, 0s, 1.0);
        test::Sleeper sleeper(clock, 100s);  // 100 s of base time at 1x
        clock.setSpeed(1000.0);              // now 0.1 s of base time
        base.advance(100ms);
        const auto outcome = sleeper.result();
        QVERIFY(outcome.has_value());
        QVERIFY(outcome->reached);
        QVERIFY(outcome->timeAtWake >= 100s);
    }

    void pausedSleeperWaitsForResume() {
        ManualClock base(0s);
        VirtualClock clock(base, 0s, 1.0);
        clock.pause();
        test::Sleeper sleeper(clock, 10s);
        base.advance(1h);
        QCOMPARE(clock.time(), 0s);
        clock.resume();
        base.advance(10s);
        const auto outcome = sleeper.result();
        QVERIFY(outcome.has_value());
        QVERIFY(outcome->reached);
        QCOMPARE(outcome->timeAtWake, 10s);
    }

    void seekPastTheDeadlineWakesASleeper() {
        ManualClock base(0s);
        VirtualClock clock(base, 0s, 1.0);
        test::Sleeper sleeper(clock, 1h);
        clock.seek(2h);
        const auto outcome = sleeper.result();
        QVERIFY(outcome.has_value());
        QVERIFY(outcome->reached);
        QCOMPARE(outcome->timeAtWake, 2h);
    }

    void stopRequestWakesAPausedSleeper() {
        ManualClock base(0s);
        VirtualClock clock(base, 0s, 1.0);
        clock.pause();
        test::Sleeper sleeper(clock, 10s);
        sleeper.stop();
        const auto outcome = sleeper.result();
        QVERIFY(outcome.has_value());
        QVERIFY(!outcome->reached);
    }

    void asFastAsPossibleJumpsToEachDeadline() {
        ManualClock base(0s);
        VirtualClock clock(base, 0s, VirtualClock::kAsFastAsPossible);
        QVERIFY(clock.asFastAsPossible());
        QVERIFY(clock.sleepUntil(5000s, std::stop_token{}));
        QCOMPARE(clock.time(), 5000s);
        base.advance(1h);  // the base does not move it
        QCOMPARE(clock.time(), 5000s);
        QVERIFY(clock.sleepUntil(10s, std::stop_token{}));  // already past: no jump back
        QCOMPARE(clock.time(), 5000s);
    }

    void leavingAsFastAsPossibleContinuesFromTheReachedTime() {
        ManualClock base(0s);
        VirtualClock clock(base, 0s, VirtualClock::kAsFastAsPossible);
        QVERIFY(clock.sleepUntil(100s, std::stop_token{}));
        base.advance(30s);
        clock.setSpeed(2.0);
        base.advance(1s);
        QCOMPARE(clock.time(), 102s);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(VirtualClockTest)
#include "tst_virtual_clock.moc"
