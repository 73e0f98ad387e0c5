#include "core/counters/ring_counter.h"

#include "core/base/invariant.h"

#include <algorithm>
#include <bit>

namespace hitcounter {

namespace {

// The sum of the cells whose second is inside the window (newer than `newestOut`); for the
// Debug-build check of the running total (invariant.h), O(W / 64 + live cells).
template <class Cells>
[[maybe_unused]] Wide128 liveSum(const Cells& cells, const std::vector<std::uint64_t>& written,
                                 Timestamp newestOut) {
    Wide128 live = 0;
    for (std::size_t word = 0; word < written.size(); ++word) {
        for (std::uint64_t bits = written[word]; bits != 0; bits &= bits - 1) {
            const auto& cell = cells[word * 64 + static_cast<std::size_t>(std::countr_zero(bits))];
            live += cell.second > newestOut ? cell.count : 0;
        }
    }
    return live;
}

// Calls visit(word, mask, base) for the bitmap words covering `length` slots from `first` on,
// wrapping at w; mask has the bits of those slots in that word, base is its first slot.
template <class Visit>
void forEachWordRange(std::vector<std::uint64_t>& words, std::size_t w, std::size_t first,
                      std::size_t length, Visit visit) {
    std::size_t index = first;
    while (length > 0) {
        const std::size_t bit = index & 63;
        const std::size_t run = std::min({length, std::size_t{64} - bit, w - index});
        const std::uint64_t mask = (run == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << run) - 1))
                                   << bit;
        visit(words[index >> 6], mask, index & ~std::size_t{63});
        index += run;
        if (index == w) {
            index = 0;
        }
        length -= run;
    }
}

}  // namespace

RingCounter::RingCounter(std::chrono::seconds window)
    : m_head(window),
      m_slots(static_cast<std::size_t>(window.count())),
      m_cells(m_slots),
      m_written((m_slots + 63) / 64) {}

std::size_t RingCounter::memoryBytes() const {
    return sizeof(*this) + m_cells.capacity() * sizeof(Cell) +
           m_written.capacity() * sizeof(std::uint64_t);
}

RingCounter::Slot RingCounter::slot(std::size_t index) const {
    if (m_headCount > 0 && index == headSlot()) {
        return Slot{m_head.head(), m_headCount, true};
    }
    const Cell& cell = m_cells[index];
    const bool written = cell.second != std::numeric_limits<Timestamp>::min();
    return Slot{written ? cell.second : 0, written ? cell.count : 0, inWindow(cell)};
}

void RingCounter::hitOffHead(Timestamp t, Count n) {
    if (t > m_head.head()) {
        advanceTo(t, n);
        return;
    }
    if (m_head.dropIfLate(t, n)) {
        return;
    }
    // t is inside (head - W, head), so it sits (head - t) cells behind the head's cell.
    std::ptrdiff_t i = static_cast<std::ptrdiff_t>(headSlot()) - (m_head.head() - t);
    if (i < 0) {
        i += static_cast<std::ptrdiff_t>(m_slots);
    }
    const auto index = static_cast<std::size_t>(i);
    Cell& cell = m_cells[index];
    // A cell in the window always holds t itself (distinct seconds of one window differ
    // mod W); any other second in it is stale and the cell starts over.
    if (cell.second != t) {
        cell = Cell{t, 0};
        markWritten(index);
    }
    const Count after = saturatingAdd(cell.count, n);
    m_total += after - cell.count;
    cell.count = after;
}

void RingCounter::hitRuns(std::span<const SecondHits> runs) {
    Cell* const cells = m_cells.data();  // locals: the cell writes cannot move them
    const std::size_t w = m_slots;
    const SecondHits* run = runs.data();
    const SecondHits* const end = run + runs.size();
    while (run != end) {
        if (!m_head.empty()) {
            // Runs at the head or one second after it, on copies of the state.
            Step s{m_head.head(), m_headCount, m_lapStart};
            Wide128 stepped = 0;
            for (; run != end; ++run) {
                if (run->time == s.head) {
                    s.headCount = saturatingAdd(s.headCount, run->count);
                } else if (isNextSecond(run->time, s.head)) {
                    stepped += step(cells, w, s, run->time, run->count);
                } else {
                    break;
                }
            }
            m_total += stepped;
            m_headCount = s.headCount;
            m_lapStart = s.lapStart;
            if (s.head != m_head.head()) {
                m_head.stepTo(s.head);
            }
            if (run == end) {
                return;
            }
        }
        hit(run->time, run->count);
        ++run;
    }
}

void RingCounter::advanceTo(Timestamp t, Count hitsAtT) {
    if (isNextSecond(t, m_head.head()) && !m_head.empty()) {
        stepTo(t, hitsAtT);
        return;
    }
    if (m_headCount > 0) {
        // The old head becomes an ordinary cell.
        m_cells[headSlot()] = Cell{m_head.head(), m_headCount};
        markWritten(headSlot());
        m_total += m_headCount;
    }
    m_headCount = hitsAtT;
    jumpTo(t);
}

void RingCounter::markSteps() {
    if (m_head.empty() || m_head.head() - 1 <= m_markedThrough) {
        return;
    }
    // Seconds m_markedThrough + 1 .. head - 1, at most the W - 1 cells behind the head's.
    const auto length = static_cast<std::size_t>(
        std::min<Timestamp>(m_head.head() - 1 - m_markedThrough, Timestamp(m_slots) - 1));
    const std::size_t first = (headSlot() + m_slots - length) % m_slots;
    forEachWordRange(m_written, m_slots, first, length,
                     [](std::uint64_t& word, std::uint64_t mask, std::size_t) { word |= mask; });
    m_markedThrough = m_head.head() - 1;
}

void RingCounter::jumpTo(Timestamp t) {
    markSteps();
    const bool wasEmpty = m_head.empty();
    const Timestamp previous = m_head.head();
    const std::size_t previousSlot = wasEmpty ? 0 : headSlot();
    m_head.advance(t);
    // The cells up to t - 1 are marked; t's is written (unmarked) by the next one-second move.
    m_markedThrough = t - 1;
    const std::int64_t w = m_head.windowSeconds();
    const auto slotOfT = static_cast<std::size_t>(floorMod(t, w));
    m_lapStart = t - static_cast<Timestamp>(slotOfT);
    if (wasEmpty || t - previous >= w) {
        // Everything left the window; stale cells keep their seconds and restart on reuse.
        std::fill(m_written.begin(), m_written.end(), 0);
        m_total = 0;
        return;
    }
    // Seconds previous-W+1 .. t-W leave the window; they sit in the cells after the old head,
    // the last of them in the new head's cell.
    expireSlots((previousSlot + 1) % m_slots, static_cast<std::size_t>(t - previous), previous - w);
    // A jump already costs O(step); the full check is bounded so that Debug runs with huge
    // windows stay usable (countPast checks every window size for free).
    if (m_slots <= 65536) {
        HITCOUNTER_DCHECK(liveSum(m_cells, m_written, m_head.newestOut()) == m_total,
                          "the running total equals the sum of the live cells");
    }
}

void RingCounter::expireSlots(std::size_t first, std::size_t length, Timestamp newestOutBefore) {
    forEachWordRange(
        m_written, m_slots, first, length,
        [&](std::uint64_t& word, std::uint64_t mask, std::size_t base) {
            for (std::uint64_t expiring = word & mask; expiring != 0; expiring &= expiring - 1) {
                const Cell& cell =
                    m_cells[base + static_cast<std::size_t>(std::countr_zero(expiring))];
                if (cell.second > newestOutBefore) {
                    m_total -= cell.count;
                }
            }
            word &= ~mask;
        });
}

Count RingCounter::countPast(Timestamp t) {
    markSteps();
    // The cells in the window hold exactly the seconds in (head - W, head).
    Wide128 sum = 0;
    Wide128 live = 0;  // all of them: a free check of the running total in Debug builds
    for (std::size_t word = 0; word < m_written.size(); ++word) {
        for (std::uint64_t bits = m_written[word]; bits != 0; bits &= bits - 1) {
            const Cell& cell =
                m_cells[word * 64 + static_cast<std::size_t>(std::countr_zero(bits))];
            if (inWindow(cell)) {
                live += cell.count;
                sum += cell.second <= t ? cell.count : 0;
            }
        }
    }
    HITCOUNTER_DCHECK(live == m_total, "the running total equals the sum of the live cells");
    (void)live;
    return clampToCount(sum);
}

}  // namespace hitcounter
