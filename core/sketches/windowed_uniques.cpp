#include "core/sketches/windowed_uniques.h"

#include <algorithm>
#include <stdexcept>

namespace hitcounter {

WindowedUniques::WindowedUniques(std::chrono::seconds retention) : m_retention(retention.count()) {
    if (m_retention <= 0) {
        throw std::invalid_argument("retention must be at least 1 second");
    }
}

void WindowedUniques::advance(Timestamp now) {
    if (m_started && now <= m_head) {
        return;
    }
    m_started = true;
    m_head = now;
    while (!m_buckets.empty() && m_buckets.front().second <= m_head - m_retention) {
        m_buckets.front().sketch = HyperLogLog{};  // release it now, not at the next compaction
        m_buckets.pop_front();
    }
}

bool WindowedUniques::add(Timestamp t, std::uint64_t hash) {
    advance(t);
    if (t <= m_head - m_retention) {
        return false;
    }
    if (m_buckets.empty() || t > m_buckets.back().second) {
        m_buckets.push_back(Bucket{t, {}});
        m_buckets.back().sketch.add(hash);
        return true;
    }
    auto it = std::lower_bound(m_buckets.begin(), m_buckets.end(), t,
                               [](const Bucket& b, Timestamp s) { return b.second < s; });
    if (it->second != t) {
        it = m_buckets.insert(it, Bucket{t, {}});
    }
    it->sketch.add(hash);
    return true;
}

HyperLogLog WindowedUniques::merged(Timestamp from, Timestamp to) const {
    HyperLogLog result;
    auto it = std::upper_bound(m_buckets.begin(), m_buckets.end(), from,
                               [](Timestamp s, const Bucket& b) { return s < b.second; });
    for (; it != m_buckets.end() && it->second <= to; ++it) {
        result.merge(it->sketch);
    }
    return result;
}

std::uint64_t WindowedUniques::estimate(Timestamp from, Timestamp to) const {
    return merged(from, to).estimate();
}

std::size_t WindowedUniques::memoryBytes() const {
    std::size_t bytes = sizeof(*this) + m_buckets.capacityBytes();
    for (const Bucket& bucket : m_buckets) {
        bytes += bucket.sketch.memoryBytes() - sizeof(HyperLogLog);
    }
    return bytes;
}

}  // namespace hitcounter
