// RingCounter: W slots of (second, count), slot t mod W, with a running window total.
//
// Not thread-safe; owned by one thread (the engine).
//
// Contract: see window_counter.h. Exact.
// Cost: hit() O(1) (no division on the hot path: the head's slot index is cached).
//       count(t) for t >= head: O(1) amortized. Moving the head by k seconds expires the
//       slots that leave the window, found through a bitmap of live slots, so the cost is
//       O(k / 64 + slots expired) with k capped at W; every slot is expired at most once per
//       write. count(t) for t < head (a query into the past): O(W / 64 + live slots).
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

#include "core/counters/saturating.h"
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

    void advanceTo(Timestamp t);
    void expireSlots(std::size_t first, std::size_t length);
    Count countPast(Timestamp t) const;
    bool isLive(std::size_t i) const { return (m_live[i >> 6] >> (i & 63)) & 1U; }

    WindowHead m_head;
    std::size_t m_headSlot = 0;  // head mod W, kept incrementally: no division per hit
    std::vector<Cell> m_cells;
    std::vector<std::uint64_t> m_live;  // bit i: cell i holds a second inside the window
    Wide128 m_total = 0;                // sum of the live cells
};

inline void RingCounter::hit(Timestamp t, Count n) {
    if (t > m_head.head()) {
        advanceTo(t);
    } else if (m_head.dropIfLate(t, n)) {
        return;
    }
    // t is inside (head - W, head], so it sits (head - t) cells behind the head's cell.
    std::ptrdiff_t i = static_cast<std::ptrdiff_t>(m_headSlot) - (m_head.head() - t);
    if (i < 0) {
        i += static_cast<std::ptrdiff_t>(m_cells.size());
    }
    const auto index = static_cast<std::size_t>(i);
    Cell& cell = m_cells[index];
    // A live cell always holds t itself (distinct seconds of one window differ mod W); any
    // other second in it is stale and the cell starts over.
    if (cell.second != t) {
        cell = Cell{t, 0};
        m_live[index >> 6] |= std::uint64_t{1} << (index & 63);
    }
    const Count after = saturatingAdd(cell.count, n);
    m_total += after - cell.count;
    cell.count = after;
}

inline Count RingCounter::count(Timestamp t) {
    if (t < m_head.head()) {
        return countPast(t);
    }
    if (t > m_head.head()) {
        advanceTo(t);
    }
    return clampToCount(m_total);
}

}  // namespace hitcounter
