#include "core/counters/coarse_counter.h"

#include <stdexcept>

namespace hitcounter {

CoarseCounter::CoarseCounter(std::chrono::seconds window, std::chrono::seconds bucket)
    : m_head(window), m_bucketWidth(bucket.count()) {
    if (m_bucketWidth < 1) {
        throw std::invalid_argument("bucket width must be at least 1 second");
    }
    const std::int64_t needed = (window.count() + m_bucketWidth - 1) / m_bucketWidth + 1;
    // Buckets start "unused": an index no real bucket has.
    m_buckets.assign(static_cast<std::size_t>(needed), Bucket{INT64_MIN, 0});
}

void CoarseCounter::hit(Timestamp t, Count n) {
    if (m_head.dropIfLate(t, n)) {
        return;
    }
    m_head.advance(t);
    const std::int64_t index = floorDiv(t, m_bucketWidth);
    Bucket& bucket = m_buckets[static_cast<std::size_t>(
        floorMod(index, static_cast<std::int64_t>(m_buckets.size())))];
    if (bucket.index != index) {
        bucket = Bucket{index, 0};
    }
    bucket.count = saturatingAdd(bucket.count, n);
}

Count CoarseCounter::count(Timestamp t) {
    m_head.advance(t);
    const Timestamp lower = m_head.lowerBound(t);
    if (t <= lower) {
        return 0;
    }
    const std::int64_t first = floorDiv(lower + 1, m_bucketWidth);
    const std::int64_t last = floorDiv(t, m_bucketWidth);
    Wide128 sum = 0;
    for (const Bucket& bucket : m_buckets) {
        if (bucket.index >= first && bucket.index <= last) {
            sum += bucket.count;
        }
    }
    return clampToCount(sum);
}

}  // namespace hitcounter
