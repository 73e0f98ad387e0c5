// SortedCounter: distinct seconds in sorted order, each with the cumulative number of hits up
// to and including it; any window is two binary searches.
//
// Not thread-safe; owned by one thread.
//
// Contract: see window_counter.h. Exact. Besides count(t) over W it answers
// countLast(t, w) for any w up to its retention R (>= W, set at construction).
// Cost: hit() at the head O(1); a late hit O(distinct seconds after it) (cumulative sums
//       after it are updated). count() and countLast() O(log n), n = distinct seconds held.
// Memory: one (second, cumulative) pair of 24 bytes per distinct second in the retention.
//
// Example, W = 300, R = 3600: hit(10) hit(10) hit(400) -> [(10, 2), (400, 3)];
//     count(400) == 1 (the window (100, 400]); countLast(400, 3600) == 3.
#pragma once

#include "core/base/saturating.h"
#include "core/counters/compacting_queue.h"
#include "core/counters/window_counter.h"
#include "core/counters/window_head.h"

namespace hitcounter {

class SortedCounter final : public CopyableCounter<SortedCounter> {
public:
    // Throws std::invalid_argument if retention < window.
    explicit SortedCounter(std::chrono::seconds window = kDefaultWindow,
                           std::chrono::seconds retention = std::chrono::seconds{0});

    void hit(Timestamp t, Count n = 1) override;
    Count count(Timestamp t) override;

    // Hits in (t - w, t] for 0 < w <= retention(); seconds older than head - retention are
    // no longer held. Does not move the head.
    Count countLast(Timestamp t, std::chrono::seconds w) const;
    std::chrono::seconds retention() const { return std::chrono::seconds{m_retention}; }

    std::chrono::seconds window() const override {
        return std::chrono::seconds{m_head.windowSeconds()};
    }
    std::size_t memoryBytes() const override { return sizeof(*this) + m_entries.capacityBytes(); }
    bool isExact() const override { return true; }
    std::string_view name() const override { return "sorted"; }
    Count droppedLate() const override { return m_head.droppedLate(); }

private:
    struct Entry {
        Timestamp second;
        Wide128 cumulative;  // hits at seconds <= second, since construction
    };
    // Hits at seconds <= t since construction (pruned seconds included via m_prunedTotal).
    Wide128 cumulativeUpTo(Timestamp t) const;
    void prune();

    WindowHead m_head;
    std::int64_t m_retention;
    CompactingQueue<Entry> m_entries;
    Wide128 m_prunedTotal = 0;  // cumulative of the last pruned entry
};

}  // namespace hitcounter
