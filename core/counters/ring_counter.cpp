#include "core/counters/ring_counter.h"

#include <algorithm>
#include <bit>

namespace hitcounter {

RingCounter::RingCounter(std::chrono::seconds window)
    : m_head(window),
      m_seconds(static_cast<std::size_t>(window.count())),
      m_counts(static_cast<std::size_t>(window.count())),
      m_live((static_cast<std::size_t>(window.count()) + 63) / 64) {}

std::size_t RingCounter::memoryBytes() const {
    return sizeof(*this) + m_seconds.capacity() * sizeof(Timestamp) +
           m_counts.capacity() * sizeof(Count) + m_live.capacity() * sizeof(std::uint64_t);
}

RingCounter::Slot RingCounter::slot(std::size_t index) const {
    return Slot{m_seconds[index], m_counts[index], isLive(index)};
}

void RingCounter::advanceTo(Timestamp t) {
    if (m_head.empty()) {
        m_head.advance(t);
        m_headSlot = static_cast<std::size_t>(floorMod(t, m_head.windowSeconds()));
        return;
    }
    const Timestamp previous = m_head.head();
    if (t <= previous) {
        return;
    }
    m_head.advance(t);
    const auto w = static_cast<std::size_t>(m_head.windowSeconds());
    const auto step = static_cast<std::uint64_t>(t - previous);
    if (step >= w) {
        // Everything left the window; stale slots keep their seconds and are reset on reuse.
        std::fill(m_live.begin(), m_live.end(), 0);
        m_total = 0;
        m_headSlot = static_cast<std::size_t>(floorMod(t, m_head.windowSeconds()));
        return;
    }
    // Seconds previous-W+1 .. t-W leave the window; they sit in the slots after the old head.
    std::size_t first = m_headSlot + 1;
    if (first == w) {
        first = 0;
    }
    expireSlots(first, static_cast<std::size_t>(step));
    m_headSlot += static_cast<std::size_t>(step);
    if (m_headSlot >= w) {
        m_headSlot -= w;
    }
}

void RingCounter::expireSlots(std::size_t first, std::size_t length) {
    const std::size_t w = m_seconds.size();
    std::size_t index = first;
    while (length > 0) {
        const std::size_t bit = index & 63;
        const std::size_t run = std::min({length, std::size_t{64} - bit, w - index});
        const std::uint64_t mask = (run == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << run) - 1))
                                   << bit;
        std::uint64_t& word = m_live[index >> 6];
        std::uint64_t expiring = word & mask;
        while (expiring != 0) {
            const std::size_t slotIndex = (index & ~std::size_t{63}) + std::countr_zero(expiring);
            m_total -= m_counts[slotIndex];
            expiring &= expiring - 1;
        }
        word &= ~mask;
        index += run;
        if (index == w) {
            index = 0;
        }
        length -= run;
    }
}

void RingCounter::hit(Timestamp t, Count n) {
    if (m_head.empty() || t > m_head.head()) {
        advanceTo(t);
    } else if (m_head.dropIfLate(t, n)) {
        return;
    }
    const auto w = static_cast<std::ptrdiff_t>(m_seconds.size());
    std::ptrdiff_t i = static_cast<std::ptrdiff_t>(m_headSlot) - (m_head.head() - t);
    if (i < 0) {
        i += w;
    }
    const auto index = static_cast<std::size_t>(i);
    const Count before = isLive(index) ? m_counts[index] : 0;
    const Count after = saturatingAdd(before, n);
    m_seconds[index] = t;
    m_counts[index] = after;
    m_live[index >> 6] |= std::uint64_t{1} << (index & 63);
    m_total += after - before;
}

Count RingCounter::count(Timestamp t) {
    if (m_head.empty() || t >= m_head.head()) {
        advanceTo(t);
        return clampToCount(m_total);
    }
    // A query into the past: the live slots hold exactly the seconds in (head - W, head].
    Wide128 sum = 0;
    for (std::size_t word = 0; word < m_live.size(); ++word) {
        for (std::uint64_t bits = m_live[word]; bits != 0; bits &= bits - 1) {
            const std::size_t i = word * 64 + std::countr_zero(bits);
            if (m_seconds[i] <= t) {
                sum += m_counts[i];
            }
        }
    }
    return clampToCount(sum);
}

}  // namespace hitcounter
