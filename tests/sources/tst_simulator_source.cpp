// SimulatorSource on a manual base clock: pacing by the clock, speed, live rate changes,
// pause, as fast as possible without drops, drops when the queue is full, late hits, stop.
#include <QTest>

#include "core/sources/simulator_source.h"
#include "core/time/manual_clock.h"
#include "core/time/wall_clock.h"
#include "tests/sources/batch_collector.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
SimulatorOptions steady(double rate, Timestamp start, std::optional<std::chrono::seconds> duration,
                        double speed = 1.0) {
    return SimulatorOptions{.traffic = {.pattern = TrafficPattern::Steady, .rate = rate},
                            .start = start,
                            .duration = duration,
                            .speed = speed};
}

}  // namespace

class SimulatorSourceTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sendsEachSecondWhenTheClockReachesIt() {
        ManualClock base(100s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        SimulatorSource sim(base, steady(10, 100, 5s));
        sim.start(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 10; }));
        QCOMPARE(collector.perSecond().rbegin()->first, Timestamp{100});
        for (Timestamp t = 101; t < 105; ++t) {
            base.advance(1s);
            QVERIFY(collector.collectUntil([&] { return collector.perSecond().count(t) == 1; }));
            // nothing from a second the clock has not reached
            QCOMPARE(collector.perSecond().rbegin()->first, t);
        }
        QVERIFY(test::waitUntil([&] { return !sim.running(); }));
        collector.drainNow();
        QCOMPARE(collector.hits(), Count{50});
        const SourceStats stats = sim.stats();
        QCOMPARE(stats.hits, std::uint64_t{50});
        QCOMPARE(stats.packets, std::uint64_t{5});
        QCOMPARE(stats.dropped, std::uint64_t{0});
        QCOMPARE(stats.lateHits, std::uint64_t{0});
        QCOMPARE(sim.position(), Timestamp{105});
    }

    void runsFasterAtHigherSpeed() {
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        SimulatorSource sim(base, steady(3, 1000, std::nullopt, 10.0));
        sim.start(queue);
        base.advance(2s);  // 20 simulated seconds: 1000..1020 are due
        QVERIFY(collector.collectUntil([&] { return collector.perSecond().count(1020) == 1; }));
        QCOMPARE(sim.now(), Timestamp{1020});
        sim.stop();
        collector.drainNow();
        QCOMPARE(collector.perSecond().size(), std::size_t{21});
        QCOMPARE(collector.perSecond().begin()->first, Timestamp{1000});
        QCOMPARE(collector.perSecond().rbegin()->first, Timestamp{1020});
    }

    void rateChangesApplyToLaterSeconds() {
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        SimulatorSource sim(base, steady(10, 0, std::nullopt));
        sim.start(queue);
        QVERIFY(collector.collectUntil([&] { return collector.perSecond().count(0) == 1; }));
        sim.setRate(1'000'000);
        QCOMPARE(sim.traffic().rate, 1e6);
        base.advance(1s);
        QVERIFY(collector.collectUntil([&] { return collector.perSecond().count(1) == 1; }));
        QCOMPARE(collector.perSecond().at(0), Count{10});
        QCOMPARE(collector.perSecond().at(1), Count{1'000'000});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sim.setRate(1e8));
    }

    void pauseHoldsTheSimulatedTime() {
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        SimulatorSource sim(base, steady(1, 50, std::nullopt));
        sim.start(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 1; }));
        sim.pause();
        QVERIFY(sim.paused());
        base.advance(1h);
        QCOMPARE(sim.now(), Timestamp{50});
        sim.resume();
        base.advance(2s);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 3; }));
        QCOMPARE(collector.perSecond().rbegin()->first, Timestamp{52});
    }

    void asFastAsPossibleWaitsForRoomAndDropsNothing() {
        ManualClock base(0s);  // never advanced: only the consumer sets the pace
        BatchQueue queue(2);
        test::BatchCollector collector(queue);
        SimulatorSource sim(base, steady(100, 0, 2000s, VirtualClock::kAsFastAsPossible));
        sim.start(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 200'000; }));
        QVERIFY(test::waitUntil([&] { return !sim.running(); }));
        QCOMPARE(sim.stats().dropped, std::uint64_t{0});
        QCOMPARE(queue.droppedHits(), Count{0});
        QCOMPARE(collector.perSecond().size(), std::size_t{2000});
    }

    // A warm-up from 600 s ago at 50 hits/s: the simulated time stops at the clock's now
    // instead of racing ahead (in the GUI it ran 43 minutes ahead when the switch was left to
    // the frame timer); then it runs at the speed set during the catch-up.
    void catchUpStopsAtTheClocksNowThenRunsAtTheSpeedAsked() {
        ManualClock base(1000s);
        BatchQueue queue(2);  // full until collected: the catch-up waits for room
        test::BatchCollector collector(queue);
        SimulatorOptions options = steady(50, 400, std::nullopt);
        options.catchUp = true;
        SimulatorSource sim(base, options);
        sim.start(queue);
        QVERIFY(sim.catchingUp());
        sim.setSpeed(10.0);  // asked while catching up: applies after it
        QVERIFY(collector.collectUntil([&] { return collector.perSecond().count(1000) == 1; }));
        QVERIFY(test::waitUntil([&] { return !sim.catchingUp(); }));
        QCOMPARE(sim.speed(), 10.0);
        // Nothing past the clock's now: the next second comes only when the clock gets there.
        QTest::qWait(50);
        collector.drainNow();
        QCOMPARE(collector.perSecond().rbegin()->first, Timestamp{1000});
        QCOMPARE(collector.perSecond().size(), std::size_t{601});
        QCOMPARE(sim.now(), Timestamp{1000});
        for (Timestamp t = 1001; t <= 1010; ++t) {
            base.advance(100ms);  // at 10x: one simulated second
            QVERIFY(collector.collectUntil([&] { return collector.perSecond().count(t) == 1; }));
            QCOMPARE(collector.perSecond().rbegin()->first, t);
        }
        QCOMPARE(collector.hits(), Count{611 * 50});
        QCOMPARE(sim.stats().dropped, std::uint64_t{0});
        sim.stop();
    }

    void fullQueueDropsAndCountsAtLiveSpeed() {
        ManualClock base(0s);
        BatchQueue queue(1);
        SimulatorSource sim(base, steady(7, 0, 100s, 1000.0));
        sim.start(queue);
        base.advance(1s);  // 1000 simulated seconds are due at once, only 100 are asked for
        QVERIFY(test::waitUntil([&] { return !sim.running(); }));
        const SourceStats stats = sim.stats();
        QCOMPARE(stats.hits + stats.dropped, std::uint64_t{700});
        QVERIFY(stats.dropped > 0);
        QCOMPARE(queue.droppedHits(), Count{stats.dropped});
        test::BatchCollector collector(queue);
        collector.drainNow();
        QCOMPARE(collector.hits(), Count{stats.hits});
    }

    void jitterIsReportedAsLateHits() {
        ManualClock base(0s);
        BatchQueue queue(100000);
        SimulatorOptions options{.traffic = {.pattern = TrafficPattern::Poisson,
                                             .rate = 200,
                                             .jitter = 3s,
                                             .jitterFraction = 0.5},
                                 .start = 10,
                                 .duration = 50s,
                                 .speed = VirtualClock::kAsFastAsPossible};
        SimulatorSource sim(base, options);
        sim.start(queue);
        QVERIFY(test::waitUntil([&] { return !sim.running(); }));
        test::BatchCollector collector(queue);
        collector.drainNow();
        Count late = 0;
        Timestamp newest = std::numeric_limits<Timestamp>::min();
        for (const HitEvent& e : collector.events()) {
            if (e.time < newest) {
                late += e.count;
            }
            newest = std::max(newest, e.time);
        }
        QVERIFY(late > 0);
        QCOMPARE(sim.stats().lateHits, std::uint64_t{late});
        QCOMPARE(sim.stats().hits, std::uint64_t{collector.hits()});
    }

    void stopEndsAWaitOnTheWallClockPromptly() {
        WallClock wall;
        BatchQueue queue;
        test::BatchCollector collector(queue);
        // At 0.1x the next simulated second is 10 s of wall time away.
        SimulatorSource sim(wall, steady(1, 5000, std::nullopt, 0.1));
        sim.start(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 1; }));
        QVERIFY(sim.running());
        const auto before = std::chrono::steady_clock::now();
        sim.stop();
        QVERIFY(std::chrono::steady_clock::now() - before < 2s);
        QVERIFY(!sim.running());
        QCOMPARE(sim.stats().hits, std::uint64_t{1});
    }

    void describeNamesPatternRateAndSpeed() {
        ManualClock base(0s);
        SimulatorSource sim(base, steady(250, 0, std::nullopt, 10.0));
        const QString text = QString::fromStdString(sim.describe());
        QVERIFY2(text.contains("steady") && text.contains("250") && text.contains("10x"),
                 qPrintable(text));
    }

    void describePrintsLargeRatesWithoutExponent() {
        ManualClock base(0s);
        SimulatorSource sim(base, steady(1e6, 0, std::nullopt, 1.0));
        const QString text = QString::fromStdString(sim.describe());
        QVERIFY2(text.contains("1000000 hits/s") && !text.contains("e+"), qPrintable(text));
        sim.setRate(1e7);
        const QString faster = QString::fromStdString(sim.describe());
        QVERIFY2(faster.contains("10000000 hits/s"), qPrintable(faster));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(SimulatorSourceTest)
#include "tst_simulator_source.moc"
