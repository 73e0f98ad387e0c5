// EstimateCounter: the sliding-window-counter approximation. Time is cut into fixed windows
// of W seconds; only the current and the previous fixed window's counts are kept, and the
// previous one is weighted by how much of it the sliding window still overlaps.
//
// Not thread-safe; owned by one thread.
//
// Contract: see window_counter.h, except that count(t) is an estimate:
//   with p = t mod W, f = (W - p - 1) / W (the previous fixed window's share of (t - W, t]),
//   count(t) = current + round(f * previous).
// Error bound, for t >= head: |count(t) - exact(t)| <= max(f, 1 - f) * previous + 0.5,
//   where previous is the number of hits in the previous fixed window. It is exact when the
//   previous window's hits were spread evenly. A query into the past is estimated from the
//   current fixed windows.
// Cost: O(1) time and memory (two counters).
//
// Example, W = 300: 300 hits at 250 (fixed window [0, 300)), then count(400):
//   p = 100, f = 199/300, estimate = 0 + round(199) = 199; exact is 300 (all at 250 > 100).
#pragma once

#include "core/base/saturating.h"
#include "core/counters/window_counter.h"
#include "core/counters/window_head.h"

namespace hitcounter {

class EstimateCounter final : public CopyableCounter<EstimateCounter> {
public:
    explicit EstimateCounter(std::chrono::seconds window = kDefaultWindow);

    void hit(Timestamp t, Count n = 1) override;
    Count count(Timestamp t) override;

    std::chrono::seconds window() const override {
        return std::chrono::seconds{m_head.windowSeconds()};
    }
    std::size_t memoryBytes() const override { return sizeof(*this); }
    bool isExact() const override { return false; }
    std::string_view name() const override { return "estimate"; }
    Count droppedLate() const override { return m_head.droppedLate(); }

private:
    void rollTo(std::int64_t fixedWindow);

    WindowHead m_head;
    std::int64_t m_currentIndex = INT64_MIN;  // floor(t / W) of the current fixed window
    Count m_current = 0;
    Count m_previous = 0;
};

}  // namespace hitcounter
