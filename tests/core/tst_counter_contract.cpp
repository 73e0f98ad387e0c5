// The contract every counting policy keeps (core/counters/window_counter.h), run over each
// policy through a _data() table. Approximate policies are held to their stated bounds in
// tst_counter_properties.cpp; here they must agree wherever their bound is zero.
#include <QTest>

#include <limits>
#include <memory>
#include <string>

#include "core/counters/counter_factory.h"
#include "core/counters/ring_counter.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
std::unique_ptr<WindowCounter> counterFor(const QString& policy, std::chrono::seconds w = 300s) {
    auto counter = makeCounter(policy.toStdString(), CounterOptions{w, 60s});
    Q_ASSERT(counter);
    return counter;
}
}  // namespace

class CounterContractTest : public QObject {
    Q_OBJECT

private:
    static void policiesTable(bool exactOnly) {
        QTest::addColumn<QString>("policy");
        const auto names = exactOnly ? exactPolicyNames() : policyNames();
        for (std::string_view name : names) {
            QTest::newRow(std::string(name).c_str())
                << QString::fromLatin1(name.data(), name.size());
        }
    }

private Q_SLOTS:
    void factoryNamesEveryPolicy_data() { policiesTable(false); }
    void factoryNamesEveryPolicy() {
        QFETCH(QString, policy);
        auto counter = counterFor(policy, 120s);
        QCOMPARE(QString::fromLatin1(counter->name().data(), counter->name().size()), policy);
        QCOMPARE(counter->window(), 120s);
        QVERIFY(counter->memoryBytes() >= sizeof(WindowCounter));
        QCOMPARE(counter->count(0), Count{0});
    }

    void unknownPolicyIsRejected() { QVERIFY(makeCounter("bogus") == nullptr); }

    void zeroWindowIsRejected() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeCounter("ring", CounterOptions{0s}));
    }

    void leetCodeExample_data() { policiesTable(true); }
    void leetCodeExample() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        c->hit(1);
        c->hit(2);
        c->hit(3);
        QCOMPARE(c->count(4), Count{3});
        c->hit(300);
        QCOMPARE(c->count(300), Count{4});
        QCOMPARE(c->count(301), Count{3});
    }

    void threeHundredHitsInOneSecond_data() { policiesTable(false); }
    void threeHundredHitsInOneSecond() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        for (int i = 0; i < 300; ++i) {
            c->hit(1000);
        }
        c->hit(1000, 700);
        QCOMPARE(c->count(1000), Count{1000});
        if (c->isExact()) {
            QCOMPARE(c->count(1299), Count{1000});
            QCOMPARE(c->count(1300), Count{0});
        }
    }

    void halfOpenBoundary_data() { policiesTable(true); }
    void halfOpenBoundary() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        c->hit(701);  // t - 299 at t = 1000: counted
        c->hit(700);  // exactly W before 1000: not counted at 1000
        // Queries move forward, so ask at 999 first: both hits are inside (699, 999].
        QCOMPARE(c->count(999), Count{2});
        QCOMPARE(c->count(1000), Count{1});
        QCOMPARE(c->count(1001), Count{0});
    }

    void gapsLongerThanWindowUpToTwoBillion_data() { policiesTable(true); }
    void gapsLongerThanWindowUpToTwoBillion() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        c->hit(5);
        c->hit(5 + 301);
        QCOMPARE(c->count(5 + 301), Count{1});
        c->hit(2'000'000'000);
        c->hit(2'000'000'000, 4);
        QCOMPARE(c->count(2'000'000'000), Count{5});
        c->hit(4'000'000'123);  // beyond 32 bits
        QCOMPARE(c->count(4'000'000'123), Count{1});
        QCOMPARE(c->count(4'000'000'422), Count{1});
        QCOMPARE(c->count(4'000'000'423), Count{0});
        QCOMPARE(c->droppedLate(), Count{0});
    }

    void lateHitInsideWindowIsCounted_data() { policiesTable(true); }
    void lateHitInsideWindowIsCounted() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        c->hit(500);
        c->hit(400);  // 100 s late, still inside (200, 500]
        c->hit(201);  // the oldest second still inside
        QCOMPARE(c->count(500), Count{3});
        QCOMPARE(c->count(501), Count{2});
        QCOMPARE(c->droppedLate(), Count{0});
    }

    void lateHitOutsideWindowIsDropped_data() { policiesTable(false); }
    void lateHitOutsideWindowIsDropped() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        c->hit(500);
        c->hit(200, 7);  // 500 - 300: older than the window
        c->hit(1, 2);
        QCOMPARE(c->count(500), Count{1});
        QCOMPARE(c->droppedLate(), Count{9});
    }

    void queryAlsoMovesTheHead_data() { policiesTable(true); }
    void queryAlsoMovesTheHead() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        QCOMPARE(c->count(1000), Count{0});
        c->hit(700);  // older than the window of the query at 1000
        c->hit(701);
        QCOMPARE(c->droppedLate(), Count{1});
        QCOMPARE(c->count(1000), Count{1});
    }

    void queryIntoThePastSeesRetainedSeconds_data() { policiesTable(true); }
    void queryIntoThePastSeesRetainedSeconds() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        c->hit(100);
        c->hit(350);
        c->hit(500);
        QCOMPARE(c->count(500), Count{2});  // (200, 500]
        // (150, 450] would hold 350 only; the hit at 100 is gone either way.
        QCOMPARE(c->count(450), Count{1});
        QCOMPARE(c->count(300), Count{0});
    }

    void countsSaturateInsteadOfWrapping_data() { policiesTable(false); }
    void countsSaturateInsteadOfWrapping() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        const Count max = std::numeric_limits<Count>::max();
        c->hit(10, max - 5);
        c->hit(10, 100);
        c->hit(11, max);
        QCOMPARE(c->count(11), max);
        if (c->isExact()) {
            // Once the saturated seconds leave the window the count is exact again.
            c->hit(400, 3);
            QCOMPARE(c->count(400), Count{3});
        }
    }

    void saturatedSecondsLeaveOneSecondAtATime_data() { policiesTable(true); }
    void saturatedSecondsLeaveOneSecondAtATime() {
        QFETCH(QString, policy);
        auto c = counterFor(policy);
        const Count max = std::numeric_limits<Count>::max();
        c->hit(10, max);
        c->hit(11, max);
        c->hit(12, 1);
        c->hit(12, 1);
        QCOMPARE(c->count(309), max);  // (9, 309]: all three seconds
        QCOMPARE(c->count(310), max);  // (10, 310]: 11 and 12
        QCOMPARE(c->count(311), Count{2});
        QCOMPARE(c->count(312), Count{0});
    }

    void ringSlotsShowTheHeadSecondBeforeAndAfterItMovesOn() {
        RingCounter ring(std::chrono::seconds{10});
        ring.hit(3, 2);
        ring.hit(3);
        QCOMPARE(ring.slot(3).second, Timestamp{3});
        QCOMPARE(ring.slot(3).count, Count{3});
        QVERIFY(ring.slot(3).inWindow);
        ring.hit(4);  // 3 is now an ordinary cell
        QCOMPARE(ring.slot(3).count, Count{3});
        QVERIFY(ring.slot(3).inWindow);
        QCOMPARE(ring.slot(4).count, Count{1});
        QCOMPARE(ring.count(13), Count{1});  // (3, 13]: 3 has left, its slot is stale
        QVERIFY(!ring.slot(3).inWindow);
        QCOMPARE(ring.slot(3).count, Count{3});
        QVERIFY(ring.slot(4).inWindow);
        ring.hit(13, 5);  // reuses the stale slot
        QCOMPARE(ring.slot(3).second, Timestamp{13});
        QCOMPARE(ring.slot(3).count, Count{5});
        QCOMPARE(ring.count(13), Count{6});
    }

    void memoryOfRingIsFixedAndNaiveGrows() {
        auto ring = counterFor("ring");
        auto naive = counterFor("naive");
        const std::size_t ringBefore = ring->memoryBytes();
        const std::size_t naiveBefore = naive->memoryBytes();
        for (Timestamp t = 1; t <= 10'000; ++t) {
            ring->hit(t);
            naive->hit(t);
        }
        QCOMPARE(ring->memoryBytes(), ringBefore);
        QVERIFY(naive->memoryBytes() >= naiveBefore + 10'000 * 16);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(CounterContractTest)
#include "tst_counter_contract.moc"
