#include "core/engine/bucket_view.h"

#include <algorithm>

#include "core/base/saturating.h"

namespace hitcounter {

std::vector<BucketSlot> groupSlots(std::span<const RingCounter::Slot> slots,
                                   std::int64_t bucketSeconds, Timestamp head) {
    const std::int64_t b = std::max<std::int64_t>(bucketSeconds, 1);
    const auto w = static_cast<std::int64_t>(slots.size());
    const std::int64_t n = b == 1 ? w : (w + b - 1) / b + 1;
    std::vector<BucketSlot> out(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
    const std::int64_t headBucket = floorDiv(head, b);
    for (const RingCounter::Slot& s : slots) {
        // A never-written slot reads (0, 0, stale): nothing to draw.
        if (s.count == 0 && !s.inWindow) {
            continue;
        }
        const std::int64_t bucket = floorDiv(s.second, b);
        BucketSlot& slot = out[static_cast<std::size_t>(floorMod(bucket, n))];
        if (slot.written && bucket < slot.bucket) {
            continue;
        }
        if (!slot.written || bucket > slot.bucket) {
            slot = BucketSlot{bucket, 0, true, false, false};
        }
        slot.count = saturatingAdd(slot.count, s.count);
        slot.inWindow = slot.inWindow || s.inWindow;
        slot.isHead = bucket == headBucket && slot.inWindow;
    }
    return out;
}

}  // namespace hitcounter
