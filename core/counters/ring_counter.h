// RingCounter: W slots of (second, count), slot t mod W, with a running window total.
//
// Not thread-safe; owned by one thread (the engine).
//
// Contract: see window_counter.h. Exact.
// Cost: hit() O(1). A hit at the head (the common case: many hits per second, in order) is
//       one compare and one saturating add, inline: the head second's count is kept outside
//       the cells and folded into its cell and the running total when the head moves on.
//       Other hits go out of line (no division there either: the head's slot index is
//       cached). count(t) for t >= head: O(1) amortized. Moving the head by one second checks
//       one cell. Moving it by k seconds expires the slots that leave the window, found
//       through a bitmap of written slots, so the cost is O(k / 64 + slots expired) with k
//       capped at W; every slot is expired at most once per write. count(t) for t < head (a
//       query into the past): O(W / 64 + written slots).
// Memory: W * 16 bytes + W / 8 bytes, fixed at construction.
//
// Example, W = 10:
//     hit(3) -> slot 3 = (3, 1), total 1
//     hit(13) -> head moves 3 -> 13, seconds (-7, 3] expire: slot 3 leaves, total 0;
//                slot 3 is reset to (13, 1), total 1
//     count(22) == 1, count(23) == 0
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/base/saturating.h"
#include "core/counters/window_counter.h"
#include "core/counters/window_head.h"

namespace hitcounter {

class RingCounter final : public WindowCounter {
public:
    // What one slot holds, for views that draw the ring.
    struct Slot {
        Timestamp second = 0;  // the second last written to the slot
        Count count = 0;
        bool inWindow = false;  // false: stale (or never written), it will be reset on reuse
    };

    explicit RingCounter(std::chrono::seconds window = kDefaultWindow);

    // Both are inline: the common case (t at the head) is a handful of instructions.
    void hit(Timestamp t, Count n = 1) override;
    Count count(Timestamp t) override;

    std::chrono::seconds window() const override {
        return std::chrono::seconds{m_head.windowSeconds()};
    }
    std::size_t memoryBytes() const override;
    bool isExact() const override { return true; }
    std::string_view name() const override { return "ring"; }
    Count droppedLate() const override { return m_head.droppedLate(); }

    std::size_t slotCount() const { return m_cells.size(); }
    Slot slot(std::size_t index) const;

private:
    struct Cell {
        Timestamp second = std::numeric_limits<Timestamp>::min();  // never written
        Count count = 0;
    };

    void hitOffHead(Timestamp t, Count n);
    // Moves the head to t > head (folding the head count into its cell first) and sets the
    // count of the new head.
    void advanceTo(Timestamp t, Count hitsAtT);
    void jumpTo(Timestamp t);  // advanceTo's part for any move but one second on
    void expireSlots(std::size_t first, std::size_t length, Timestamp newestOutBefore);
    Count countPast(Timestamp t) const;
    // A cell is in the window exactly when its second is; no flag to keep in step.
    bool inWindow(const Cell& cell) const { return cell.second > m_head.newestOut(); }
    void markWritten(std::size_t i) { m_written[i >> 6] |= std::uint64_t{1} << (i & 63); }

    WindowHead m_head;
    std::size_t m_headSlot = 0;  // head mod W, kept incrementally: no division per hit
    std::vector<Cell> m_cells;
    // Bit i set: cell i may hold a second inside the window (a superset: a one-second move
    // leaves the expired cell's bit set; the scans check the second and clear stale bits).
    std::vector<std::uint64_t> m_written;
    Count m_headCount = 0;  // hits at the head second (not yet in its cell)
    Wide128 m_total = 0;    // sum of the cells in the window other than the head's

    friend struct InvariantProbe;  // tests/core/tst_invariant.cpp breaks the total on purpose
};

inline void RingCounter::hit(Timestamp t, Count n) {
    if (t == m_head.head()) [[likely]] {
        m_headCount = saturatingAdd(m_headCount, n);
        return;
    }
    hitOffHead(t, n);
}

inline Count RingCounter::count(Timestamp t) {
    if (t < m_head.head()) {
        return countPast(t);
    }
    if (t > m_head.head()) {
        advanceTo(t, 0);
    }
    return clampToCount(m_total + m_headCount);
}

}  // namespace hitcounter
