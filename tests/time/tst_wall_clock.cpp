// WallClock: unix time that never steps back; sleeps end early on a stop request.
#include <QTest>

#include "core/time/wall_clock.h"
#include "tests/test_main.h"
#include "tests/time/sleeper.h"

using namespace hitcounter;
using namespace std::chrono_literals;

class WallClockTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void readsUnixTime() {
        WallClock clock;
        const auto system = std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::system_clock::now().time_since_epoch());
        QVERIFY(std::chrono::abs(clock.time() - system) < 1s);
        QCOMPARE(clock.now(), std::chrono::floor<std::chrono::seconds>(clock.time()).count());
    }

    void neverStepsBack() {
        WallClock clock;
        auto previous = clock.time();
        for (int i = 0; i < 10000; ++i) {
            const auto t = clock.time();
            QVERIFY(t >= previous);
            previous = t;
        }
    }

    void sleepUntilPastTimeReturnsAtOnce() {
        WallClock clock;
        QVERIFY(clock.sleepUntil(clock.time() - 1s, std::stop_token{}));
    }

    void stopRequestEndsALongSleep() {
        WallClock clock;
        test::Sleeper sleeper(clock, clock.time() + 1h);
        sleeper.stop();
        const auto outcome = sleeper.result();
        QVERIFY(outcome.has_value());
        QVERIFY(!outcome->reached);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(WallClockTest)
#include "tst_wall_clock.moc"
