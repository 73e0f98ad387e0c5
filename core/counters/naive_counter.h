// NaiveCounter: the textbook baseline. Every hit() call is appended to a vector, never merged
// and never pruned; count() scans the whole vector. Kept for comparisons and teaching: its
// memory grows with every call, its count() with the length of the run.
//
// Not thread-safe; owned by one thread.
//
// Contract: see window_counter.h. Exact.
// Cost: hit() O(1) amortized; count() O(calls so far).
// Memory: 16 bytes per hit() call ever made, plus the vector's unused capacity.
#pragma once

#include <vector>

#include "core/base/saturating.h"
#include "core/counters/window_counter.h"
#include "core/counters/window_head.h"

namespace hitcounter {

class NaiveCounter final : public CopyableCounter<NaiveCounter> {
public:
    // One recorded hit() call.
    struct Call {
        Timestamp second;
        Count count;
    };

    explicit NaiveCounter(std::chrono::seconds window = kDefaultWindow);

    void hit(Timestamp t, Count n = 1) override;
    Count count(Timestamp t) override;

    std::chrono::seconds window() const override {
        return std::chrono::seconds{m_head.windowSeconds()};
    }
    std::size_t memoryBytes() const override {
        return sizeof(*this) + m_calls.capacity() * sizeof(Call);
    }
    bool isExact() const override { return true; }
    std::string_view name() const override { return "naive"; }
    Count droppedLate() const override { return m_head.droppedLate(); }

    // Every accepted hit() call in arrival order, for views that draw the vector.
    const std::vector<Call>& calls() const { return m_calls; }

private:
    WindowHead m_head;
    std::vector<Call> m_calls;
};

}  // namespace hitcounter
