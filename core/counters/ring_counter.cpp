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
            const auto& cell = cells[word * 64 + std::countr_zero(bits)];
            live += cell.second > newestOut ? cell.count : 0;
        }
    }
    return live;
}

}  // namespace

RingCounter::RingCounter(std::chrono::seconds window)
    : m_head(window),
      m_cells(static_cast<std::size_t>(window.count())),
      m_written((static_cast<std::size_t>(window.count()) + 63) / 64) {}

std::size_t RingCounter::memoryBytes() const {
    return sizeof(*this) + m_cells.capacity() * sizeof(Cell) +
           m_written.capacity() * sizeof(std::uint64_t);
}

RingCounter::Slot RingCounter::slot(std::size_t index) const {
    if (index == m_headSlot && m_headCount > 0) {
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
    std::ptrdiff_t i = static_cast<std::ptrdiff_t>(m_headSlot) - (m_head.head() - t);
    if (i < 0) {
        i += static_cast<std::ptrdiff_t>(m_cells.size());
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

void RingCounter::advanceTo(Timestamp t, Count hitsAtT) {
    const Timestamp previous = m_head.head();
    // One read and one write of the running total per move: it is a chain from one second
    // to the next, so its latency is what a move costs.
    Wide128 total = m_total;
    if (m_headCount > 0) {
        // The old head becomes an ordinary cell.
        m_cells[m_headSlot] = Cell{previous, m_headCount};
        markWritten(m_headSlot);
        total += m_headCount;
    }
    m_headCount = hitsAtT;
    if (t != previous + 1) [[unlikely]] {
        m_total = total;
        jumpTo(t);
        return;
    }
    // One second on (the common move): only the second t - W leaves, from the new head's
    // cell (for W = 1 that is the old head's, just written). Its written bit may stay set.
    m_head.advance(t);
    std::size_t next = m_headSlot + 1;
    if (next == m_cells.size()) {
        next = 0;
    }
    const Cell& leaving = m_cells[next];
    if (leaving.second == m_head.newestOut()) {
        total -= leaving.count;
    }
    m_total = total;
    m_headSlot = next;
}

void RingCounter::jumpTo(Timestamp t) {
    const bool wasEmpty = m_head.empty();
    const Timestamp previous = m_head.head();
    m_head.advance(t);
    const std::int64_t w = m_head.windowSeconds();
    if (wasEmpty || t - previous >= w) {
        // Everything left the window; stale cells keep their seconds and restart on reuse.
        std::fill(m_written.begin(), m_written.end(), 0);
        m_total = 0;
        m_headSlot = static_cast<std::size_t>(floorMod(t, w));
        return;
    }
    // Seconds previous-W+1 .. t-W leave the window; they sit in the cells after the old head,
    // the last of them in the new head's cell.
    const auto step = static_cast<std::size_t>(t - previous);
    std::size_t first = m_headSlot + 1;
    if (first == m_cells.size()) {
        first = 0;
    }
    expireSlots(first, step, previous - w);
    m_headSlot += step;
    if (m_headSlot >= m_cells.size()) {
        m_headSlot -= m_cells.size();
    }
    // A jump already costs O(step); the full check is bounded so that Debug runs with huge
    // windows stay usable (countPast checks every window size for free).
    if (m_cells.size() <= 65536) {
        HITCOUNTER_DCHECK(liveSum(m_cells, m_written, m_head.newestOut()) == m_total,
                          "the running total equals the sum of the live cells");
    }
}

void RingCounter::expireSlots(std::size_t first, std::size_t length, Timestamp newestOutBefore) {
    const std::size_t w = m_cells.size();
    std::size_t index = first;
    while (length > 0) {
        const std::size_t bit = index & 63;
        const std::size_t run = std::min({length, std::size_t{64} - bit, w - index});
        const std::uint64_t mask = (run == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << run) - 1))
                                   << bit;
        std::uint64_t& word = m_written[index >> 6];
        for (std::uint64_t expiring = word & mask; expiring != 0; expiring &= expiring - 1) {
            const Cell& cell = m_cells[(index & ~std::size_t{63}) +
                                       static_cast<std::size_t>(std::countr_zero(expiring))];
            if (cell.second > newestOutBefore) {
                m_total -= cell.count;
            }
        }
        word &= ~mask;
        index += run;
        if (index == w) {
            index = 0;
        }
        length -= run;
    }
}

Count RingCounter::countPast(Timestamp t) const {
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
