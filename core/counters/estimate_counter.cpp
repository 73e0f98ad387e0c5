#include "core/counters/estimate_counter.h"

namespace hitcounter {

EstimateCounter::EstimateCounter(std::chrono::seconds window) : m_head(window) {}

void EstimateCounter::rollTo(std::int64_t fixedWindow) {
    if (fixedWindow <= m_currentIndex) {
        return;
    }
    m_previous = (fixedWindow == m_currentIndex + 1) ? m_current : 0;
    m_current = 0;
    m_currentIndex = fixedWindow;
}

void EstimateCounter::hit(Timestamp t, Count n) {
    if (m_head.dropIfLate(t, n)) {
        return;
    }
    m_head.advance(t);
    const std::int64_t index = floorDiv(t, m_head.windowSeconds());
    rollTo(index);
    if (index == m_currentIndex) {
        m_current = saturatingAdd(m_current, n);
    } else {
        // Not older than the window, so at worst in the previous fixed window.
        m_previous = saturatingAdd(m_previous, n);
    }
}

Count EstimateCounter::count(Timestamp t) {
    m_head.advance(t);
    const std::int64_t w = m_head.windowSeconds();
    rollTo(floorDiv(m_head.head(), w));
    const std::int64_t overlap = w - floorMod(t, w) - 1;  // seconds of the previous window
    const Wide128 weighted = (Wide128{m_previous} * static_cast<std::uint64_t>(overlap) * 2 +
                              static_cast<std::uint64_t>(w)) /
                             (Wide128{static_cast<std::uint64_t>(w)} * 2);
    return clampToCount(Wide128{m_current} + weighted);
}

}  // namespace hitcounter
