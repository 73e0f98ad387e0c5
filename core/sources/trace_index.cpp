#include "core/sources/trace_index.h"

#include <algorithm>

namespace hitcounter {

TraceIndexEntry TraceIndex::locate(Timestamp x) const {
    if (m_entries.empty()) {
        return {};
    }
    const auto after = std::upper_bound(
        m_entries.begin(), m_entries.end(), x,
        [](Timestamp value, const TraceIndexEntry& e) { return value < e.headBefore; });
    return after == m_entries.begin() ? m_entries.front() : *(after - 1);
}

}  // namespace hitcounter
