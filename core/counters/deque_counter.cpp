#include "core/counters/deque_counter.h"

#include <algorithm>

namespace hitcounter {

DequeCounter::DequeCounter(std::chrono::seconds window) : m_head(window) {}

void DequeCounter::prune() {
    const Timestamp oldestKept = m_head.head() - m_head.windowSeconds();
    while (!m_entries.empty() && m_entries.front().second <= oldestKept) {
        m_total -= m_entries.front().count;
        m_entries.pop_front();
    }
}

void DequeCounter::hit(Timestamp t, Count n) {
    if (m_head.dropIfLate(t, n)) {
        return;
    }
    if (t > m_head.head()) {
        m_head.advance(t);
        prune();
    }
    if (m_entries.empty() || m_entries.back().second < t) {
        m_entries.push_back(Entry{t, n});
        m_total += n;
        return;
    }
    // The newest second (the common case), else a late hit found by binary search.
    auto it = m_entries.end();
    if (m_entries.back().second != t) {
        it = std::upper_bound(m_entries.begin(), m_entries.end(), t,
                              [](Timestamp value, const Entry& e) { return value < e.second; });
    }
    if (it != m_entries.begin() && std::prev(it)->second == t) {
        Count& c = std::prev(it)->count;
        const Count before = c;
        c = saturatingAdd(c, n);
        m_total += c - before;
    } else {
        m_entries.insert(it, Entry{t, n});
        m_total += n;
    }
}

Count DequeCounter::count(Timestamp t) {
    if (t >= m_head.head()) {
        m_head.advance(t);
        prune();
        return clampToCount(m_total);
    }
    Wide128 newer = 0;  // hits after t, subtracted from the total
    for (auto it = m_entries.end(); it != m_entries.begin();) {
        --it;
        if (it->second <= t) {
            break;
        }
        newer += it->count;
    }
    return clampToCount(m_total - newer);
}

}  // namespace hitcounter
