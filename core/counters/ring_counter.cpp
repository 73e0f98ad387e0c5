#include "core/counters/ring_counter.h"

#include <algorithm>
#include <bit>

namespace hitcounter {

RingCounter::RingCounter(std::chrono::seconds window)
    : m_head(window),
      m_cells(static_cast<std::size_t>(window.count())),
      m_live((static_cast<std::size_t>(window.count()) + 63) / 64) {}

std::size_t RingCounter::memoryBytes() const {
    return sizeof(*this) + m_cells.capacity() * sizeof(Cell) +
           m_live.capacity() * sizeof(std::uint64_t);
}

RingCounter::Slot RingCounter::slot(std::size_t index) const {
    const Cell& cell = m_cells[index];
    const bool written = cell.second != std::numeric_limits<Timestamp>::min();
    return Slot{written ? cell.second : 0, written ? cell.count : 0, isLive(index)};
}

void RingCounter::advanceTo(Timestamp t) {
    const bool wasEmpty = m_head.empty();
    const Timestamp previous = m_head.head();
    m_head.advance(t);
    const auto w = static_cast<std::uint64_t>(m_cells.size());
    if (wasEmpty || static_cast<std::uint64_t>(t - previous) >= w) {
        // Everything left the window; stale cells keep their seconds and restart on reuse.
        std::fill(m_live.begin(), m_live.end(), 0);
        m_total = 0;
        m_headSlot = static_cast<std::size_t>(floorMod(t, m_head.windowSeconds()));
        return;
    }
    // Seconds previous-W+1 .. t-W leave the window; they sit in the cells after the old head.
    const auto step = static_cast<std::size_t>(t - previous);
    std::size_t first = m_headSlot + 1;
    if (first == w) {
        first = 0;
    }
    expireSlots(first, step);
    m_headSlot += step;
    if (m_headSlot >= w) {
        m_headSlot -= w;
    }
}

void RingCounter::expireSlots(std::size_t first, std::size_t length) {
    const std::size_t w = m_cells.size();
    std::size_t index = first;
    while (length > 0) {
        const std::size_t bit = index & 63;
        const std::size_t run = std::min({length, std::size_t{64} - bit, w - index});
        const std::uint64_t mask = (run == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << run) - 1))
                                   << bit;
        std::uint64_t& word = m_live[index >> 6];
        for (std::uint64_t expiring = word & mask; expiring != 0; expiring &= expiring - 1) {
            m_total -= m_cells[(index & ~std::size_t{63}) + std::countr_zero(expiring)].count;
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
    // The live cells hold exactly the seconds in (head - W, head].
    Wide128 sum = 0;
    for (std::size_t word = 0; word < m_live.size(); ++word) {
        for (std::uint64_t bits = m_live[word]; bits != 0; bits &= bits - 1) {
            const Cell& cell = m_cells[word * 64 + std::countr_zero(bits)];
            if (cell.second <= t) {
                sum += cell.count;
            }
        }
    }
    return clampToCount(sum);
}

}  // namespace hitcounter
