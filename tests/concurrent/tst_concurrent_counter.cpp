// The thread-safe counters (core/concurrent/): single-threaded agreement with the exact ring,
// then stress runs of T writer threads x N hits that check the exact total and the exact
// window count, with a reader that must never see a half-reset slot. Run under TSan by the
// test command (label "concurrency").
#include <QTest>

#include <atomic>
#include <barrier>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "core/concurrent/locked_counter.h"
#include "core/concurrent/striped_atomic_counter.h"
#include "core/counters/ring_counter.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
std::unique_ptr<ConcurrentCounter> counterFor(const QString& policy, std::chrono::seconds w) {
    if (policy == "locked") {
        return std::make_unique<LockedCounter>(w);
    }
    // Fewer stripes than writer threads, so that stripes are shared and slots contended too.
    return std::make_unique<StripedAtomicCounter>(w, policy == "striped-2" ? 2 : 0);
}

constexpr int kThreads = 4;
}  // namespace

class ConcurrentCounterTest : public QObject {
    Q_OBJECT

private:
    static void policiesTable() {
        QTest::addColumn<QString>("policy");
        QTest::newRow("locked") << QString("locked");
        QTest::newRow("striped") << QString("striped");
        QTest::newRow("striped-2") << QString("striped-2");
    }

private Q_SLOTS:
    void leetCodeExample_data() { policiesTable(); }
    void leetCodeExample() {
        QFETCH(QString, policy);
        auto c = counterFor(policy, 300s);
        c->hit(1);
        c->hit(2);
        c->hit(3);
        QCOMPARE(c->count(4), Count{3});
        c->hit(300);
        QCOMPARE(c->count(300), Count{4});
        QCOMPARE(c->count(301), Count{3});
        QCOMPARE(c->total(), Count{4});
    }

    void oneThreadAgreesWithTheRing_data() { policiesTable(); }
    void oneThreadAgreesWithTheRing() {
        QFETCH(QString, policy);
        auto c = counterFor(policy, 50s);
        RingCounter ring(50s);
        std::mt19937_64 random(7);
        Timestamp now = 1000;
        Count sent = 0;
        for (int i = 0; i < 20'000; ++i) {
            const auto roll = random() % 100;
            if (roll < 60) {
                now += static_cast<Timestamp>(random() % 3);
                const Count n = random() % 4;
                c->hit(now, n);
                ring.hit(now, n);
                sent += n;
            } else if (roll < 90) {
                const Timestamp t = now - static_cast<Timestamp>(random() % 70);  // some too late
                const Count n = 1 + random() % 5;
                c->hit(t, n);
                ring.hit(t, n);
                sent += n;
            } else {
                now += static_cast<Timestamp>(random() % 120);  // sometimes a whole window
                QCOMPARE(c->count(now), ring.count(now));
                const Timestamp past = now - static_cast<Timestamp>(random() % 60);
                QCOMPARE(c->count(past), ring.count(past));
            }
        }
        QVERIFY(ring.droppedLate() > 0);
        QCOMPARE(c->total(), sent - ring.droppedLate());
        QCOMPARE(c->droppedLate(), ring.droppedLate());
    }

    void totalPlusDroppedIsEveryHitSent_data() { policiesTable(); }
    void totalPlusDroppedIsEveryHitSent() {
        QFETCH(QString, policy);
        auto c = counterFor(policy, 10s);
        c->hit(100, 5);
        c->hit(95, 2);   // late, inside (90, 100]
        c->hit(90, 7);   // too late
        c->hit(120, 1);  // whole window passes
        QCOMPARE(c->total(), Count{8});
        QCOMPARE(c->droppedLate(), Count{7});
        QCOMPARE(c->count(120), Count{1});
    }

    // All threads hit the same few seconds: every hit lands in a contended slot.
    void manyThreadsOnTheSameSecondLoseNothing_data() { policiesTable(); }
    void manyThreadsOnTheSameSecondLoseNothing() {
        QFETCH(QString, policy);
        auto c = counterFor(policy, 300s);
        constexpr int kHits = 20'000;
        {
            std::vector<std::jthread> writers;
            for (int i = 0; i < kThreads; ++i) {
                writers.emplace_back([&c, i] {
                    for (int j = 0; j < kHits; ++j) {
                        c->hit(1000 + (j + i) % 3);
                    }
                });
            }
        }
        QCOMPARE(c->total(), Count{kThreads * kHits});
        QCOMPARE(c->count(1002), Count{kThreads * kHits});
        Count atLastSecond = 0;
        for (int i = 0; i < kThreads; ++i) {
            for (int j = 0; j < kHits; ++j) {
                atLastSecond += (j + i) % 3 == 2 ? 1 : 0;
            }
        }
        QCOMPARE(c->count(1301), atLastSecond);  // (1001, 1301]: only second 1002 is left
        QCOMPARE(c->droppedLate(), Count{0});
    }

    // Time moves on in lock step (a barrier per second) across many laps of a small ring, so
    // writers race to reset the same slots for the new second while a reader keeps counting.
    // The reader's answer must lie between what was complete before the second began and what
    // can be complete at its end: a half-reset slot would fall below the lower bound.
    void slotResetsUnderContentionAreExact_data() { policiesTable(); }
    void slotResetsUnderContentionAreExact() {
        QFETCH(QString, policy);
        constexpr std::int64_t kWindow = 16;
        constexpr Timestamp kSeconds = 120;
        constexpr int kPerSecond = 40;  // per thread: half at the new second, half 15 s late
        auto c = counterFor(policy, std::chrono::seconds{kWindow});
        std::atomic<Timestamp> current{0};
        std::atomic<bool> readerFailed{false};
        std::atomic<int> readerChecks{0};  // counts taken while their second was running
        std::barrier sync(kThreads);
        {
            std::jthread reader([&](std::stop_token stop) {
                while (!stop.stop_requested()) {
                    std::this_thread::yield();  // leave the cores to the writers and other tests
                    const Timestamp s = current.load();
                    if (s <= 2 * kWindow) {
                        continue;
                    }
                    // Window (s-16, s]: the finished seconds s-15 .. s-1 put half their hits
                    // there (the other half went 15 s back, out of it); second s, running now,
                    // adds at most its own half at s and its late half at s-15.
                    const Count half = Count{kThreads} * kPerSecond / 2;
                    const Count lower = (kWindow - 1) * half;
                    const Count upper = (kWindow + 1) * half;
                    const Count seen = c->count(s);
                    if (current.load() == s) {
                        ++readerChecks;
                        if (seen < lower || seen > upper) {
                            readerFailed = true;
                        }
                    }
                }
            });
            std::vector<std::jthread> writers;
            for (int i = 0; i < kThreads; ++i) {
                writers.emplace_back([&, i] {
                    for (Timestamp s = 1; s <= kSeconds; ++s) {
                        if (i == 0) {
                            current.store(s);
                            // Halfway, hold the writers until the reader has checked at least
                            // once (bounded), so the test cannot pass without a check.
                            if (s == kSeconds / 2) {
                                for (int wait = 0; wait < 5000 && readerChecks.load() == 0;
                                     ++wait) {
                                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                                }
                            }
                        }
                        sync.arrive_and_wait();
                        for (int j = 0; j < kPerSecond / 2; ++j) {
                            c->hit(s);
                            c->hit(std::max<Timestamp>(1, s - (kWindow - 1)));
                        }
                        sync.arrive_and_wait();
                    }
                });
            }
            writers.clear();
            reader.request_stop();
        }
        QVERIFY(readerChecks.load() > 0);
        QVERIFY(!readerFailed.load());
        const Count sent = Count{kThreads} * kPerSecond * kSeconds;
        QCOMPARE(c->total(), sent);
        QCOMPARE(c->droppedLate(), Count{0});
        // (104, 120]: the on-time halves of seconds 105..120 and the late half of second 120.
        const Count half = Count{kThreads} * kPerSecond / 2;
        QCOMPARE(c->count(kSeconds), (kWindow + 1) * half);
    }

    // Writers far apart in time: some hits become too late while in flight. None may vanish.
    void racingPastTheWindowCountsEveryHitOnce_data() { policiesTable(); }
    void racingPastTheWindowCountsEveryHitOnce() {
        QFETCH(QString, policy);
        auto c = counterFor(policy, 4s);
        constexpr int kHits = 20'000;
        {
            std::vector<std::jthread> writers;
            for (int i = 0; i < kThreads; ++i) {
                writers.emplace_back([&c, i] {
                    for (int j = 0; j < kHits; ++j) {
                        c->hit(j / (50 * (i + 1)), 2);
                    }
                });
            }
        }
        QCOMPARE(c->total() + c->droppedLate(), Count{2} * kThreads * kHits);
        QVERIFY(c->droppedLate() > 0);
    }

    // Eight writers on four stripes: three claim stripes of their own (plain stores), five
    // share stripe 0 (compare-and-swap), all over the same slots and their resets, while a
    // thread that wrote before keeps its stripe after writing another counter.
    void writersBeyondTheOwnStripesShareOneAndLoseNothing() {
        StripedAtomicCounter c(10s, 4);
        StripedAtomicCounter other(10s, 4);
        constexpr int kWriters = 8;
        constexpr int kHits = 30'000;
        std::barrier second(kWriters);  // the writers move on to the next second together
        {
            std::vector<std::jthread> writers;
            for (int i = 0; i < kWriters; ++i) {
                writers.emplace_back([&, i] {
                    for (int j = 0; j < kHits; ++j) {
                        c.hit(1000 + j / 1000, 1);  // 30 seconds: every slot reset twice
                        if (j % 997 == i) {
                            other.hit(5);
                        }
                        if (j % 1000 == 999) {
                            second.arrive_and_wait();
                        }
                    }
                });
            }
        }
        QCOMPARE(c.total(), Count{kWriters * kHits});
        QCOMPARE(c.droppedLate(), Count{0});
        // The window (1019, 1029] holds seconds 1020 .. 1029: 1000 hits each per writer.
        QCOMPARE(c.count(1029), Count{kWriters * 10 * 1000});
        QCOMPARE(other.total(), other.count(5));
    }

    void stripedSlotSaturatesButTotalStaysExact() {
        StripedAtomicCounter c(10s, 4);
        c.hit(5, StripedAtomicCounter::kMaxSlotCount - 1);
        c.hit(5, 10);
        QCOMPARE(c.count(5), StripedAtomicCounter::kMaxSlotCount);
        QCOMPARE(c.total(), StripedAtomicCounter::kMaxSlotCount + 9);
        c.hit(15, 3);  // the saturated slot is replaced whole by the next lap
        QCOMPARE(c.count(15), Count{3});
    }

    void stripedMemoryIsFixedAndCacheLineAligned() {
        StripedAtomicCounter c(300s, 4);
        QCOMPARE(c.stripeCount(), std::size_t{4});
        const std::size_t before = c.memoryBytes();
        QVERIFY(before >= 4 * 301 * 8);
        for (Timestamp t = 0; t < 10'000; ++t) {
            c.hit(t);
        }
        QCOMPARE(c.memoryBytes(), before);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, StripedAtomicCounter(0s));
    }

    void gapOfTwoBillionSecondsIsExact_data() { policiesTable(); }
    void gapOfTwoBillionSecondsIsExact() {
        QFETCH(QString, policy);
        auto c = counterFor(policy, 1s);
        c->hit(0, 3);
        const Timestamp later = 2'000'000'000;
        QCOMPARE(c->count(later), Count{0});
        c->hit(later, 2);
        QCOMPARE(c->count(later), Count{2});
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(ConcurrentCounterTest)
#include "tst_concurrent_counter.moc"
