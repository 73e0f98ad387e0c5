// groupSlots: the ring's slots regrouped into B-second buckets.
#include <QTest>

#include "core/counters/ring_counter.h"
#include "core/engine/bucket_view.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {
std::vector<RingCounter::Slot> slotsOf(RingCounter& ring) {
    std::vector<RingCounter::Slot> out;
    for (std::size_t i = 0; i < ring.slotCount(); ++i) {
        out.push_back(ring.slot(i));
    }
    return out;
}
}  // namespace

class TestBucketView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void oneSecondBucketsAreTheRingItself() {
        RingCounter ring(std::chrono::seconds(10));
        ring.hit(3);
        ring.hit(3);
        ring.hit(12);
        const auto slots = slotsOf(ring);
        const auto buckets = groupSlots(slots, 1, 12);
        QCOMPARE(buckets.size(), std::size_t{10});
        QCOMPARE(buckets[3].count, Count{2});
        QVERIFY(buckets[3].inWindow);
        QCOMPARE(buckets[2].count, Count{1});
        QVERIFY(buckets[2].isHead);
        QVERIFY(!buckets[5].written);
    }

    void wideBucketsSumTheirSecondsAsTheHeaderExampleSays() {
        RingCounter ring(std::chrono::seconds(10));
        ring.hit(11, 2);
        ring.hit(13, 1);
        const auto buckets = groupSlots(slotsOf(ring), 5, 13);
        QCOMPARE(buckets.size(), std::size_t{3});  // ceil(10 / 5) + 1
        QCOMPARE(buckets[2].bucket, std::int64_t{2});
        QCOMPARE(buckets[2].count, Count{3});
        QVERIFY(buckets[2].isHead);
        QVERIFY(!buckets[0].written);
    }

    void staleSecondsMakeAStaleBucketAndTheNewerBucketWinsASlot() {
        RingCounter ring(std::chrono::seconds(10));
        ring.hit(0, 4);   // bucket 0 -> slot 0, stale by second 14
        ring.hit(14, 1);  // bucket 2 -> slot 2
        ring.count(14);
        const auto buckets = groupSlots(slotsOf(ring), 5, 14);
        QCOMPARE(buckets[0].count, Count{4});
        QVERIFY(buckets[0].written);
        QVERIFY(!buckets[0].inWindow);
        QCOMPARE(buckets[2].count, Count{1});
        ring.hit(15, 7);  // bucket 3 -> slot 0 again: replaces the stale bucket 0
        const auto after = groupSlots(slotsOf(ring), 5, 15);
        QCOMPARE(after[0].bucket, std::int64_t{3});
        QCOMPARE(after[0].count, Count{7});
        QVERIFY(after[0].isHead);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestBucketView)
#include "tst_bucket_view.moc"
