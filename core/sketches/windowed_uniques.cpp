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
        if (!m_suffix.empty()) {
            m_suffix.pop_front();
        } else if (m_aggregated) {
            // The back cannot lose its oldest second: the next query rebuilds the unions.
            m_aggregated = false;
            m_back = HyperLogLog{};
        }
        m_buckets.front().sketch = HyperLogLog{};  // release it now, not at the next compaction
        m_buckets.pop_front();
    }
}

void WindowedUniques::setRetention(std::chrono::seconds retention) {
    if (retention.count() <= 0) {
        throw std::invalid_argument("retention must be at least 1 second");
    }
    const bool shorter = retention.count() < m_retention;
    m_retention = retention.count();
    if (!shorter || !m_started) {
        return;
    }
    // Simpler than trimming the unions: drop them, the next window query rebuilds them.
    m_suffix.clear();
    m_back = HyperLogLog{};
    m_aggregated = false;
    while (!m_buckets.empty() && m_buckets.front().second <= m_head - m_retention) {
        m_buckets.front().sketch = HyperLogLog{};
        m_buckets.pop_front();
    }
}

void WindowedUniques::rebuildUnions() const {
    const std::size_t front = std::min(m_buckets.size(), kMaxFrontSeconds);
    m_back = HyperLogLog{};
    for (auto it = m_buckets.begin() + static_cast<std::ptrdiff_t>(front); it != m_buckets.end();
         ++it) {
        m_back.merge(it->sketch);
    }
    // Suffix unions from the newest front second back to the oldest.
    m_suffix.clear();
    HyperLogLog running;
    for (auto it = m_buckets.begin() + static_cast<std::ptrdiff_t>(front);
         it != m_buckets.begin();) {
        --it;
        running.merge(it->sketch);
        m_suffix.push_front(running);
    }
    m_aggregated = true;
}

bool WindowedUniques::add(Timestamp t, std::uint64_t hash) {
    advance(t);
    if (t <= m_head - m_retention) {
        return false;
    }
    auto it = m_buckets.end();
    if (m_buckets.empty() || t > m_buckets.back().second) {
        m_buckets.push_back(Bucket{t, {}});
        it = m_buckets.end() - 1;
    } else {
        it = std::lower_bound(m_buckets.begin(), m_buckets.end(), t,
                              [](const Bucket& b, Timestamp s) { return b.second < s; });
        if (it->second != t) {
            const auto position = static_cast<std::size_t>(it - m_buckets.begin());
            it = m_buckets.insert(it, Bucket{t, {}});
            if (m_aggregated && position < m_suffix.size()) {
                // A new front second: its suffix starts as the next one's.
                HyperLogLog next = m_suffix[position];
                m_suffix.insert(m_suffix.begin() + static_cast<std::ptrdiff_t>(position),
                                std::move(next));
            }
        }
    }
    it->sketch.add(hash);
    if (!m_aggregated) {
        return true;
    }
    const auto position = static_cast<std::size_t>(it - m_buckets.begin());
    if (position >= m_suffix.size()) {
        m_back.add(hash);
        return true;
    }
    for (std::size_t i = 0; i <= position; ++i) {
        m_suffix[i].add(hash);
    }
    return true;
}

HyperLogLog WindowedUniques::merged(Timestamp from, Timestamp to) const {
    if (m_buckets.empty() || to < m_buckets.back().second) {
        return mergedSlowly(from, to);
    }
    if (!m_aggregated) {
        rebuildUnions();
    }
    const auto first = std::upper_bound(m_buckets.begin(), m_buckets.end(), from,
                                        [](Timestamp s, const Bucket& b) { return s < b.second; });
    const auto index = static_cast<std::size_t>(first - m_buckets.begin());
    if (index < m_suffix.size()) {
        // Start from the dense one, if either is: folding a sparse sketch into it is cheap.
        const HyperLogLog& suffix = m_suffix[index];
        const bool fromBack = suffix.isSparse() && !m_back.isSparse();
        HyperLogLog result = fromBack ? m_back : suffix;
        result.merge(fromBack ? suffix : m_back);
        return result;
    }
    if (index == m_suffix.size()) {
        return m_back;
    }
    return mergedSlowly(from, to);
}

HyperLogLog WindowedUniques::mergedSlowly(Timestamp from, Timestamp to) const {
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
    std::size_t bytes =
        sizeof(*this) + m_buckets.capacityBytes() + m_back.memoryBytes() - sizeof(HyperLogLog);
    for (const Bucket& bucket : m_buckets) {
        bytes += bucket.sketch.memoryBytes() - sizeof(HyperLogLog);
    }
    for (const HyperLogLog& suffix : m_suffix) {
        bytes += suffix.memoryBytes();
    }
    return bytes;
}

}  // namespace hitcounter
