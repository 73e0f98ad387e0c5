#include "core/limiters/window_peak.h"

#include <algorithm>
#include <stdexcept>

#include "core/base/saturating.h"

namespace hitcounter {

WindowPeak::WindowPeak(std::chrono::seconds per) : m_per(per.count()), m_table(per.count()) {
    if (per.count() < 1)
        throw std::invalid_argument("window peak period must be at least 1 s");
}

Count WindowPeak::record(std::string_view key, Timestamp t, Count n) {
    if (t > m_now)
        m_now = t;
    m_table.evictIdle(m_now);
    if (n == 0)
        return 0;
    auto* entry = m_table.find(key);
    if (entry == nullptr)
        entry = &m_table.insert(key, m_now);
    entry->state.expire(m_now, m_per);
    // A limiter accepts at most 2L per window, so the total stays far below 2^64 in practice;
    // saturate rather than wrap if a caller records more.
    entry->state.append(m_now, std::min(n, kMaxCount - entry->state.total()));
    m_table.touch(*entry, m_now);
    if (entry->state.total() > m_peak) {
        m_peak = entry->state.total();
        m_peakKey = key;
        m_peakTime = m_now;
    }
    return entry->state.total();
}

std::size_t WindowPeak::memoryBytes() const {
    return sizeof(*this) + m_peakKey.capacity() +
           m_table.memoryBytes([](const RunLog& log) { return log.heapBytes(); });
}

}  // namespace hitcounter
