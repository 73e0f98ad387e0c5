// Lockstep (core/engine/lockstep.h): every policy fed the same hits, a stopped policy frozen,
// a clone that answers as the original, and the one definition of cost: thread CPU time, so a
// policy is charged its work and not its waits, and an untimed run measures nothing.
#include <QTest>
#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "core/counters/counter_factory.h"
#include "core/engine/lockstep.h"
#include "tests/core/slow_counter.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

std::vector<std::unique_ptr<WindowCounter>> policies(std::initializer_list<std::string_view> names,
                                                     std::chrono::seconds window = 300s) {
    std::vector<std::unique_ptr<WindowCounter>> made;
    for (const auto name : names) {
        made.push_back(makeCounter(name, {.window = window}));
    }
    return made;
}

std::vector<std::unique_ptr<WindowCounter>> one(std::unique_ptr<WindowCounter> policy) {
    std::vector<std::unique_ptr<WindowCounter>> made;
    made.push_back(std::move(policy));
    return made;
}

// `n` hits, one a second from `from`.
std::vector<SecondHits> secondsFrom(Timestamp from, std::size_t n) {
    std::vector<SecondHits> runs;
    for (std::size_t i = 0; i < n; ++i) {
        runs.push_back({from + static_cast<Timestamp>(i), 1});
    }
    return runs;
}

}  // namespace

class TestLockstep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyPolicyCountsTheSameHits() {
        Lockstep run(policies({"ring", "deque", "sorted", "naive", "scanring"}));
        const std::vector<SecondHits> hits = {{1, 1}, {2, 1}, {3, 1}, {2, 4}, {300, 1}};
        run.feed(hits);
        for (std::size_t p = 0; p < run.size(); ++p) {
            QCOMPARE(run.count(p, 300), Count{8});
            QCOMPARE(run.count(p, 301), Count{7});  // the hit at 1 has left
            QCOMPARE(run.runsFed(p), std::uint64_t{5});
            QCOMPARE(run.memoryBytes(p), run.policies()[p]->memoryBytes());
        }
    }

    void aStoppedPolicyIsNoLongerFedAndKeepsItsCountAndMemory() {
        Lockstep run(policies({"ring", "naive"}, 10s));
        run.feed(secondsFrom(1, 5));
        const std::size_t memory = run.memoryBytes(1);
        run.stop(1, 5);
        run.feed(secondsFrom(6, 100));
        QVERIFY(run.stopped(1));
        QVERIFY(!run.stopped(0));
        QCOMPARE(run.stoppedAt(1), Timestamp{5});
        QCOMPARE(run.count(1, 105), Count{5});  // frozen at its count at 5
        QCOMPARE(run.memoryBytes(1), memory);
        QCOMPARE(run.runsFed(1), std::uint64_t{5});
        QCOMPARE(run.count(0, 105), Count{10});
        QCOMPARE(run.runsFed(0), std::uint64_t{105});
    }

    void aCloneAnswersAsTheOriginalAndIsIndependent() {
        Lockstep run(policies({"ring", "deque"}, 10s));
        run.feed(secondsFrom(1, 8));
        run.stop(1, 8);
        std::optional<Lockstep> copy = run.clone();
        QVERIFY(copy);
        run.feed(secondsFrom(9, 3));
        QCOMPARE(copy->count(0, 8), Count{8});
        QCOMPARE(run.count(0, 11), Count{10});
        QVERIFY(copy->stopped(1));
        QCOMPARE(copy->count(1, 20), Count{8});
    }

    void anUntimedRunMeasuresNothing() {
        Lockstep run(one(std::make_unique<testing::SlowCounter>(10us)));
        run.feed(secondsFrom(1, 10));
        QCOMPARE(run.nsPerHit(0), 0.0);
    }

    // Thread CPU time: the policy's own work is charged in full (the spin burns CPU).
    void aTimedPolicyIsChargedItsWork() {
        Lockstep run(one(std::make_unique<testing::SlowCounter>(20us)), ThreadCpuTimer{});
        run.feed(secondsFrom(1, 50));
        QVERIFY2(run.nsPerHit(0) >= 20'000.0, QByteArray::number(run.nsPerHit(0)));
    }

    // ... and not the time it waits: a policy sleeping 10 ms a hit costs microseconds of CPU.
    // (Wall time would charge it at least 10 ms a hit.)
    void aSleepingPolicyIsNotChargedItsSleep() {
        Lockstep run(one(std::make_unique<testing::SleepingCounter>(10ms)), ThreadCpuTimer{});
        run.feed(secondsFrom(1, 5));
        QVERIFY2(run.nsPerHit(0) < 1'000'000.0, QByteArray::number(run.nsPerHit(0)));
    }

    void theClocksOwnCostIsKeptOut() {
        const ThreadCpuTimer timer;
        QVERIFY(timer.overhead() > 0ns);
        // Nothing between the reads: what is left is their jitter above their least cost, less
        // than the cost itself in most tries (without the subtraction, never).
        std::vector<std::chrono::nanoseconds> empty;
        for (int i = 0; i < 101; ++i) {
            const auto from = ThreadCpuTimer::now();
            empty.push_back(timer.since(from));
        }
        std::nth_element(empty.begin(), empty.begin() + 50, empty.end());
        QVERIFY2(empty[50] < timer.overhead(), QByteArray::number(qint64(empty[50].count())));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestLockstep)
#include "tst_lockstep.moc"
