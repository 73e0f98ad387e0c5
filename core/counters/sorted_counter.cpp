#include "core/counters/sorted_counter.h"

#include <algorithm>
#include <stdexcept>

namespace hitcounter {

SortedCounter::SortedCounter(std::chrono::seconds window, std::chrono::seconds retention)
    : m_head(window), m_retention(retention.count() == 0 ? window.count() : retention.count()) {
    if (m_retention < window.count()) {
        throw std::invalid_argument("retention must be at least the window");
    }
}

Wide128 SortedCounter::cumulativeUpTo(Timestamp t) const {
    auto it = std::upper_bound(m_entries.begin(), m_entries.end(), t,
                               [](Timestamp value, const Entry& e) { return value < e.second; });
    return it == m_entries.begin() ? m_prunedTotal : std::prev(it)->cumulative;
}

void SortedCounter::prune() {
    const Timestamp oldestKept = m_head.head() - m_retention;
    while (!m_entries.empty() && m_entries.front().second <= oldestKept) {
        m_prunedTotal = m_entries.front().cumulative;
        m_entries.pop_front();
    }
}

void SortedCounter::hit(Timestamp t, Count n) {
    if (m_head.dropIfLate(t, n)) {
        return;
    }
    if (t > m_head.head()) {
        m_head.advance(t);
        prune();
    }
    const Wide128 before = m_entries.empty() ? m_prunedTotal : m_entries.back().cumulative;
    if (m_entries.empty() || m_entries.back().second < t) {
        m_entries.push_back(Entry{t, before + n});
        return;
    }
    if (m_entries.back().second == t) {
        m_entries.back().cumulative += n;
        return;
    }
    auto it = std::lower_bound(m_entries.begin(), m_entries.end(), t,
                               [](const Entry& e, Timestamp value) { return e.second < value; });
    if (it->second != t) {
        const Wide128 previous =
            it == m_entries.begin() ? m_prunedTotal : std::prev(it)->cumulative;
        it = m_entries.insert(it, Entry{t, previous});
    }
    for (; it != m_entries.end(); ++it) {
        it->cumulative += n;
    }
}

Count SortedCounter::countLast(Timestamp t, std::chrono::seconds w) const {
    const Timestamp from = t - w.count();
    if (w.count() <= 0 || from >= t) {
        return 0;
    }
    return clampToCount(cumulativeUpTo(t) - cumulativeUpTo(from));
}

Count SortedCounter::count(Timestamp t) {
    m_head.advance(t);
    prune();
    const Timestamp lower = m_head.lowerBound(t);
    if (t <= lower) {
        return 0;
    }
    return clampToCount(cumulativeUpTo(t) - cumulativeUpTo(lower));
}

}  // namespace hitcounter
