// The bounded hand-over between a source and its consumer (core/sources/batch_queue.h).
#include <QTest>

#include <limits>
#include <thread>

#include "core/sources/batch_queue.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
HitBatch batchOf(std::size_t keyBytes, Count count = 1) {
    return {HitEvent{1, std::string(keyBytes, 'k'), {}, count}};
}
}  // namespace

class BatchQueueTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void boundedByBatches() {
        BatchQueue q(2);
        QVERIFY(q.tryPush(batchOf(1)));
        QVERIFY(q.tryPush(batchOf(1)));
        QVERIFY(!q.tryPush(batchOf(1, 7)));
        QCOMPARE(q.droppedHits(), Count{7});
    }

    void boundedByBytes() {
        const std::size_t one = BatchQueue::batchBytes(batchOf(1000));
        BatchQueue q(100, 2 * one + one / 2);
        QVERIFY(q.tryPush(batchOf(1000)));
        QVERIFY(q.tryPush(batchOf(1000)));
        QCOMPARE(q.queuedBytes(), 2 * one);
        QVERIFY(!q.tryPush(batchOf(1000, 3)));
        QCOMPARE(q.droppedHits(), Count{3});
        QVERIFY(q.tryPush(batchOf(10)));  // a small one still fits
        QVERIFY(q.popFor(0ms));
        QVERIFY(q.tryPush(batchOf(1000)));
        q.drain();
        QCOMPARE(q.queuedBytes(), std::size_t{0});
    }

    // A batch reserved for a flood holds its capacity however few events it has: the byte
    // bound counts it (it once counted the size: 4,096 such batches passed a 16 MiB bound
    // holding about 1.4 GiB).
    void aBatchIsCountedByItsCapacity() {
        const auto reserved = [] {
            HitBatch batch = batchOf(1);
            batch.reserve(10000);
            return batch;
        };
        QVERIFY(BatchQueue::batchBytes(reserved()) >= 10000 * sizeof(HitEvent));
        BatchQueue q(100, std::size_t{1} << 20);
        QVERIFY(q.tryPush(reserved()));
        QVERIFY(!q.tryPush(reserved()));
        QCOMPARE(q.droppedHits(), Count{1});
        QVERIFY(q.tryPush(batchOf(1)));  // a batch at its size still fits
    }

    void batchLargerThanTheByteCapFitsAnEmptyQueue() {
        BatchQueue q(10, 100);
        QVERIFY(q.tryPush(batchOf(1000)));
        QVERIFY(!q.tryPush(batchOf(1)));
        QVERIFY(q.popFor(0ms));
        HitBatch big = batchOf(1000);
        QVERIFY(q.pushFor(big, 0ms));
    }

    void droppedHitsSaturate() {
        BatchQueue q(1);
        constexpr Count kMax = std::numeric_limits<Count>::max();
        QVERIFY(q.tryPush(batchOf(1)));
        QVERIFY(!q.tryPush(batchOf(1, kMax)));
        QVERIFY(!q.tryPush(batchOf(1, 2)));
        QCOMPARE(q.droppedHits(), kMax);
    }

    void pushForKeepsTheBatchWhenThereIsNoRoom() {
        BatchQueue q(1);
        QVERIFY(q.tryPush(batchOf(1)));
        HitBatch waiting = batchOf(5, 4);
        QVERIFY(!q.pushFor(waiting, 10ms));
        QCOMPARE(waiting, batchOf(5, 4));
        QCOMPARE(q.droppedHits(), Count{0});
        std::jthread consumer([&] { q.popFor(1s); });
        QVERIFY(q.pushFor(waiting, 5s));
        QVERIFY(waiting.empty());
        consumer.join();
        QCOMPARE(q.popFor(0ms)->front().count, Count{4});
    }

    // The GUI thread's restart: a full queue (a consumer that has not drained yet) takes the
    // Reset marker at once, behind what is queued, and pushes still wait for room.
    void aMarkerIsQueuedAtOnceEvenWhenTheQueueIsFull() {
        BatchQueue q(1, BatchQueue::batchBytes(batchOf(10)));
        QVERIFY(q.tryPush(batchOf(10)));
        q.pushMarker(HitBatch::resetMarker(7));
        QCOMPARE(q.size(), std::size_t{2});
        QVERIFY(!q.tryPush(batchOf(1, 5)));
        QCOMPARE(q.droppedHits(), Count{5});
        QCOMPARE(q.popFor(0ms)->front().key, std::string(10, 'k'));
        const std::optional<HitBatch> marker = q.popFor(0ms);
        QVERIFY(marker && marker->kind == BatchKind::Reset);
        QCOMPARE(marker->epoch, std::uint64_t{7});
        QCOMPARE(q.queuedBytes(), std::size_t{0});
        QVERIFY(q.tryPush(batchOf(1)));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(BatchQueueTest)
#include "tst_batch_queue.moc"
