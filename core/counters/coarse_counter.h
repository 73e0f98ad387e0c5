// CoarseCounter: hits grouped into buckets of B seconds (default 60); a query sums every
// bucket that overlaps the window. Approximate.
//
// Not thread-safe; owned by one thread.
//
// Contract: see window_counter.h, except that count(t) may over-count.
// Error bound, for t >= head: exact(t) <= count(t) <= exact(t) + hits in the B - 1 seconds
//   just before the window, [t - W - B + 2, t - W]: the oldest bucket counts whole. With
//   B = 1 it is exact. Late hits older than the window are dropped, as in the exact policies.
// Cost: hit() O(1); count() O(W / B).
// Memory: ceil(W / B) + 1 buckets of 16 bytes, fixed.
//
// Example, W = 300, B = 60: hit(50) hit(59) hit(400); count(400): the window (100, 400]
//   overlaps buckets [60, 120) .. [360, 420); [0, 60) does not, so count == 1 (exact 1).
//   count(359) would see bucket [0, 60) (window (59, 359]) and answer 3 where exact is 2.
#pragma once

#include <vector>

#include "core/base/saturating.h"
#include "core/counters/window_counter.h"
#include "core/counters/window_head.h"

namespace hitcounter {

class CoarseCounter final : public CopyableCounter<CoarseCounter> {
public:
    inline static constexpr std::chrono::seconds kDefaultBucket{60};

    // Throws std::invalid_argument if bucket < 1 s.
    explicit CoarseCounter(std::chrono::seconds window = kDefaultWindow,
                           std::chrono::seconds bucket = kDefaultBucket);

    void hit(Timestamp t, Count n = 1) override;
    Count count(Timestamp t) override;

    std::chrono::seconds bucketWidth() const { return std::chrono::seconds{m_bucketWidth}; }
    std::chrono::seconds window() const override {
        return std::chrono::seconds{m_head.windowSeconds()};
    }
    std::size_t memoryBytes() const override {
        return sizeof(*this) + m_buckets.capacity() * sizeof(Bucket);
    }
    bool isExact() const override { return m_bucketWidth == 1; }
    std::string_view name() const override { return "coarse"; }
    Count droppedLate() const override { return m_head.droppedLate(); }

private:
    struct Bucket {
        std::int64_t index = 0;  // floor(second / B)
        Count count = 0;
    };

    WindowHead m_head;
    std::int64_t m_bucketWidth;
    std::vector<Bucket> m_buckets;
};

}  // namespace hitcounter
