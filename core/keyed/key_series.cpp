#include "core/keyed/key_series.h"

#include <algorithm>

#include "core/base/saturating.h"

namespace hitcounter {

void KeySeries::hit(Timestamp t, Count n) {
    if (m_points.empty() || t > m_points.back().second) {
        m_points.push_back(Point{t, saturatingAdd(total(), n)});
        return;
    }
    if (t == m_points.back().second) {
        m_points.back().cumulative = saturatingAdd(m_points.back().cumulative, n);
        return;
    }
    auto it = std::lower_bound(m_points.begin(), m_points.end(), t,
                               [](const Point& p, Timestamp s) { return p.second < s; });
    if (it->second != t) {
        const Count before = it == m_points.begin() ? m_base : std::prev(it)->cumulative;
        it = m_points.insert(it, Point{t, before});
    }
    for (; it != m_points.end(); ++it) {
        it->cumulative = saturatingAdd(it->cumulative, n);
    }
}

void KeySeries::expire(Timestamp oldest) {
    while (!m_points.empty() && m_points.front().second <= oldest) {
        m_base = m_points.front().cumulative;
        m_points.pop_front();
    }
}

Count KeySeries::cumulativeAt(Timestamp t) const {
    const auto it = std::upper_bound(m_points.begin(), m_points.end(), t,
                                     [](Timestamp s, const Point& p) { return s < p.second; });
    return it == m_points.begin() ? m_base : std::prev(it)->cumulative;
}

Count KeySeries::between(Timestamp from, Timestamp to) const {
    if (to <= from) {
        return 0;
    }
    return cumulativeAt(to) - cumulativeAt(from);
}

}  // namespace hitcounter
