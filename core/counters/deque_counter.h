// DequeCounter: a queue of (second, count) pairs, one per distinct second, pruned from the
// front as seconds leave the window, with a running total.
//
// Not thread-safe; owned by one thread.
//
// Contract: see window_counter.h. Exact.
// Cost: hit() at the head O(1); a late hit inside the window is inserted in order, O(distinct
//       seconds after it). count(t) for t >= head O(1) amortized (each pair is popped once);
//       a query into the past O(distinct seconds after t).
// Memory: grows with the distinct seconds in the window (at most W pairs of 16 bytes), plus
//       the queue's unused capacity.
//
// Example, W = 300: hit(1) hit(1) hit(2) -> [(1,2), (2,1)]; count(301) pops (1,2) -> 1.
#pragma once

#include "core/base/saturating.h"
#include "core/counters/compacting_queue.h"
#include "core/counters/window_counter.h"
#include "core/counters/window_head.h"

namespace hitcounter {

class DequeCounter final : public CopyableCounter<DequeCounter> {
public:
    struct Entry {
        Timestamp second;
        Count count;
    };

    explicit DequeCounter(std::chrono::seconds window = kDefaultWindow);

    void hit(Timestamp t, Count n = 1) override;
    Count count(Timestamp t) override;

    std::chrono::seconds window() const override {
        return std::chrono::seconds{m_head.windowSeconds()};
    }
    std::size_t memoryBytes() const override { return sizeof(*this) + m_entries.capacityBytes(); }
    bool isExact() const override { return true; }
    std::string_view name() const override { return "deque"; }
    Count droppedLate() const override { return m_head.droppedLate(); }

    // The pairs held, oldest first, for views that draw the queue.
    const CompactingQueue<Entry>& entries() const { return m_entries; }

private:
    void prune();

    WindowHead m_head;
    CompactingQueue<Entry> m_entries;
    Wide128 m_total = 0;  // sum of m_entries
};

}  // namespace hitcounter
