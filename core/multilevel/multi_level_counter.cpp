#include "core/multilevel/multi_level_counter.h"

#include <algorithm>
#include <stdexcept>

namespace hitcounter {

MultiLevelCounter::MultiLevelCounter(std::vector<std::chrono::seconds> levels)
    : m_levels(std::move(levels)), m_span(0) {
    if (m_levels.empty()) {
        throw std::invalid_argument("at least one level is needed");
    }
    for (const auto level : m_levels) {
        if (level.count() <= 0) {
            throw std::invalid_argument("levels must be at least 1 second");
        }
        m_span = std::max<std::int64_t>(m_span, level.count());
    }
    m_slots.assign(static_cast<std::size_t>(m_span), 0);
    m_tree.assign(static_cast<std::size_t>(m_span) + 1, 0);
}

std::size_t MultiLevelCounter::memoryBytes() const {
    return sizeof(*this) + m_levels.capacity() * sizeof(std::chrono::seconds) +
           m_slots.capacity() * sizeof(Count) + m_tree.capacity() * sizeof(Wide128);
}

void MultiLevelCounter::add(std::size_t slot, Wide128 delta) {
    // Unsigned wrap-around makes a "negative" delta exact modulo 2^128.
    for (std::size_t i = slot + 1; i < m_tree.size(); i += i & (~i + 1)) {
        m_tree[i] += delta;
    }
}

Wide128 MultiLevelCounter::prefix(std::size_t slot) const {
    Wide128 sum = 0;
    for (std::size_t i = slot + 1; i > 0; i -= i & (~i + 1)) {
        sum += m_tree[i];
    }
    return sum;
}

Wide128 MultiLevelCounter::seconds(Timestamp first, Timestamp last) const {
    if (last < first) {
        return 0;
    }
    const std::size_t lo = slotOf(first);
    const std::size_t hi = slotOf(last);
    const Wide128 upToHi = prefix(hi);
    const Wide128 beforeLo = lo == 0 ? 0 : prefix(lo - 1);
    if (lo <= hi && last - first < m_span) {
        return upToHi - beforeLo;
    }
    return prefix(m_slots.size() - 1) - beforeLo + upToHi;
}

void MultiLevelCounter::advance(Timestamp now) {
    if (!m_started) {
        m_started = true;
        m_head = now;
        return;
    }
    if (now <= m_head) {
        return;
    }
    if (now - m_head >= m_span) {
        std::fill(m_slots.begin(), m_slots.end(), 0);
        std::fill(m_tree.begin(), m_tree.end(), 0);
    } else {
        // Seconds head+1 .. now reuse the slots of head+1-W .. now-W, which leave the window.
        for (Timestamp s = m_head + 1; s <= now; ++s) {
            const std::size_t slot = slotOf(s);
            if (m_slots[slot] != 0) {
                add(slot, Wide128{0} - m_slots[slot]);
                m_slots[slot] = 0;
            }
        }
    }
    m_head = now;
}

void MultiLevelCounter::hit(Timestamp t, Count n) {
    advance(t);
    if (t <= m_head - m_span) {
        m_droppedLate = saturatingAdd(m_droppedLate, n);
        return;
    }
    const std::size_t slot = slotOf(t);
    const Count before = m_slots[slot];
    m_slots[slot] = saturatingAdd(before, n);
    add(slot, m_slots[slot] - before);
    m_allTime += n;
}

Count MultiLevelCounter::countLast(Timestamp now, std::chrono::seconds w) {
    if (w.count() <= 0 || w.count() > m_span) {
        throw std::invalid_argument("window must be between 1 second and the largest level");
    }
    advance(now);
    const Timestamp oldest = std::max(now - w.count(), m_head - m_span);
    return clampToCount(seconds(oldest + 1, now));
}

std::vector<LevelCount> MultiLevelCounter::levels(Timestamp now) {
    std::vector<LevelCount> result;
    result.reserve(m_levels.size());
    for (const auto level : m_levels) {
        result.push_back(LevelCount{level, countLast(now, level)});
    }
    return result;
}

}  // namespace hitcounter
