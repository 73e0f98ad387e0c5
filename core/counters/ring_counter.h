// RingCounter: W slots of (second, count), slot t mod W, with a running window total.
//
// Not thread-safe; owned by one thread (the engine).
//
// Contract: see window_counter.h. Exact.
// Cost: hit() O(1). A hit at the head (the common case: many hits per second, in order) is
//       one compare and one saturating add, inline: the head second's count is kept outside
//       the cells and folded into its cell and the running total when the head moves on.
//       A hit one second after the head (every hit, when each opens a new second) is inline
//       too: it writes the old head's cell, reads the one cell whose second leaves and adds
//       the difference to the running total; the slot comes from the second (no chain from
//       the previous slot) and the written-slot bitmap is brought up to date only when a scan
//       needs it. hitRuns() does the same for many runs with the head in registers.
//       Other hits go out of line (no division there either: the head's slot index is
//       cached). count(t) for t >= head: O(1) amortized.
//       Moving the head by k > 1 seconds expires the slots that leave the window, found
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
#include <span>
#include <vector>

#include "core/base/saturating.h"
#include "core/counters/window_counter.h"
#include "core/counters/window_head.h"

namespace hitcounter {

class RingCounter final : public CopyableCounter<RingCounter> {
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
    // Keeps the head, its count and the running total in registers across the runs: a run
    // one second after the head costs a few instructions, no virtual call, no memory chain.
    void hitRuns(std::span<const SecondHits> runs) override;
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

    // The part of the state a one-second move reads and writes, so that hitRuns() can keep
    // a copy of it in registers.
    struct Step {
        Timestamp head;
        Count headCount;
        Timestamp lapStart;  // the second of slot 0 in the head's lap
    };

    void hitOffHead(Timestamp t, Count n);
    // advanceTo() for t == head + 1 on a ring that is not empty.
    void stepTo(Timestamp t, Count hitsAtT);
    // Moves s from its head to t = head + 1 with hitsAtT hits at t: the old head becomes an
    // ordinary cell and the second t - W leaves (from the new head's cell; for W = 1 that is
    // the old head's, just written). Returns what the running total changes by, modulo 2^128.
    static Wide128 step(Cell* cells, std::size_t w, Step& s, Timestamp t, Count hitsAtT);
    // Moves the head to t > head (folding the head count into its cell first) and sets the
    // count of the new head.
    void advanceTo(Timestamp t, Count hitsAtT);
    void jumpTo(Timestamp t);  // advanceTo's part for any move but one second on
    void expireSlots(std::size_t first, std::size_t length, Timestamp newestOutBefore);
    Count countPast(Timestamp t);
    // t == head + 1, without overflow at either end of the range.
    static bool isNextSecond(Timestamp t, Timestamp head) {
        return static_cast<std::uint64_t>(t) - static_cast<std::uint64_t>(head) == 1;
    }
    std::size_t headSlot() const { return static_cast<std::size_t>(m_head.head() - m_lapStart); }
    // A cell is in the window exactly when its second is; no flag to keep in step.
    bool inWindow(const Cell& cell) const { return cell.second > m_head.newestOut(); }
    void markWritten(std::size_t i) { m_written[i >> 6] |= std::uint64_t{1} << (i & 63); }
    // Sets the written bits of the cells one-second moves wrote since the last call (the
    // seconds after m_markedThrough and before the head), before a scan reads the bitmap.
    void markSteps();

    WindowHead m_head;
    Timestamp m_lapStart = 0;  // the second of slot 0 in the head's lap: head mod W, no division
    std::size_t m_slots;       // W
    std::vector<Cell> m_cells;
    // Bit i set: cell i may hold a second inside the window (a superset: a one-second move
    // leaves the expired cell's bit set; the scans check the second and clear stale bits),
    // once markSteps() has marked what the one-second moves wrote.
    std::vector<std::uint64_t> m_written;
    Timestamp m_markedThrough = 0;
    Count m_headCount = 0;  // hits at the head second (not yet in its cell)
    Wide128 m_total = 0;    // sum of the cells in the window other than the head's

    friend struct InvariantProbe;  // tests/core/tst_invariant.cpp breaks the total on purpose
};

inline void RingCounter::hit(Timestamp t, Count n) {
    const Timestamp head = m_head.head();
    if (t == head) [[likely]] {
        m_headCount = saturatingAdd(m_headCount, n);
        return;
    }
    if (isNextSecond(t, head) && !m_head.empty()) [[likely]] {
        stepTo(t, n);
        return;
    }
    hitOffHead(t, n);
}

inline Wide128 RingCounter::step(Cell* cells, std::size_t w, Step& s, Timestamp t, Count hitsAtT) {
    // The head's slot plus one; W means slot 0 of the next lap.
    std::size_t slot = static_cast<std::size_t>(t - s.lapStart);
    const std::size_t old = slot - 1;
    if (slot == w) [[unlikely]] {
        slot = 0;
        s.lapStart = t;
    }
    if (s.headCount != 0) {
        cells[old] = Cell{s.head, s.headCount};
    }
    const Cell& leaving = cells[slot];
    const Count out = leaving.second == t - static_cast<Timestamp>(w) ? leaving.count : 0;
    const Wide128 delta = Wide128{s.headCount} - out;
    s.head = t;
    s.headCount = hitsAtT;
    return delta;
}

inline void RingCounter::stepTo(Timestamp t, Count hitsAtT) {
    Step s{m_head.head(), m_headCount, m_lapStart};
    m_total += step(m_cells.data(), m_slots, s, t, hitsAtT);
    m_headCount = s.headCount;
    m_lapStart = s.lapStart;
    m_head.stepTo(t);
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
