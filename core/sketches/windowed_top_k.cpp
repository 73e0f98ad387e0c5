#include "core/sketches/windowed_top_k.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "core/base/saturating.h"

namespace hitcounter {

WindowedTopK::WindowedTopK(std::chrono::seconds retention, std::size_t capacityPerSecond)
    : m_retention(retention.count()), m_capacity(capacityPerSecond) {
    if (m_retention <= 0) {
        throw std::invalid_argument("retention must be at least 1 second");
    }
    if (m_capacity == 0) {
        throw std::invalid_argument("Space-Saving needs at least one counter");
    }
}

void WindowedTopK::advance(Timestamp now) {
    if (m_started && now <= m_head) {
        return;
    }
    m_started = true;
    m_head = now;
    while (!m_buckets.empty() && m_buckets.front().second <= m_head - m_retention) {
        m_buckets.front().summary = SpaceSaving(m_capacity);  // release it now
        m_buckets.pop_front();
    }
}

void WindowedTopK::setRetention(std::chrono::seconds retention) {
    if (retention.count() <= 0) {
        throw std::invalid_argument("retention must be at least 1 second");
    }
    m_retention = retention.count();
    while (m_started && !m_buckets.empty() && m_buckets.front().second <= m_head - m_retention) {
        m_buckets.front().summary = SpaceSaving(m_capacity);
        m_buckets.pop_front();
    }
}

bool WindowedTopK::add(Timestamp t, std::string_view key, Count n) {
    advance(t);
    if (t <= m_head - m_retention) {
        return false;
    }
    if (m_buckets.empty() || t > m_buckets.back().second) {
        m_buckets.push_back(Bucket{t, SpaceSaving(m_capacity)});
        m_buckets.back().summary.add(key, n);
        return true;
    }
    auto it = std::lower_bound(m_buckets.begin(), m_buckets.end(), t,
                               [](const Bucket& b, Timestamp s) { return b.second < s; });
    if (it->second != t) {
        it = m_buckets.insert(it, Bucket{t, SpaceSaving(m_capacity)});
    }
    it->summary.add(key, n);
    return true;
}

WindowedTopK::Result WindowedTopK::top(std::size_t k, Timestamp from, Timestamp to) const {
    // estimate = eps + sum over the seconds monitoring the key of (count - min of that second).
    struct Sums {
        Count aboveMin = 0;
        Count lower = 0;
    };
    std::unordered_map<std::string_view, Sums> sums;
    Result result;
    auto it = std::upper_bound(m_buckets.begin(), m_buckets.end(), from,
                               [](Timestamp s, const Bucket& b) { return s < b.second; });
    for (; it != m_buckets.end() && it->second <= to; ++it) {
        const Count minimum = it->summary.minCount();
        result.epsilon = saturatingAdd(result.epsilon, minimum);
        result.hits = saturatingAdd(result.hits, it->summary.total());
        for (const SpaceSaving::Counter& counter : it->summary.counters()) {
            Sums& s = sums[counter.key];
            s.aboveMin = saturatingAdd(s.aboveMin, counter.count - minimum);
            s.lower = saturatingAdd(s.lower, counter.count - counter.error);
        }
    }
    result.top.reserve(sums.size());
    for (const auto& [key, s] : sums) {
        result.top.push_back(
            Estimate{std::string(key), saturatingAdd(result.epsilon, s.aboveMin), s.lower});
    }
    const std::size_t kept = std::min(k, result.top.size());
    std::partial_sort(result.top.begin(), result.top.begin() + static_cast<std::ptrdiff_t>(kept),
                      result.top.end(), [](const Estimate& a, const Estimate& b) {
                          return a.estimate != b.estimate ? a.estimate > b.estimate : a.key < b.key;
                      });
    result.top.resize(kept);
    return result;
}

std::size_t WindowedTopK::memoryBytes() const {
    std::size_t bytes = sizeof(*this) + m_buckets.capacityBytes();
    for (const Bucket& bucket : m_buckets) {
        bytes += bucket.summary.memoryBytes() - sizeof(SpaceSaving);
    }
    return bytes;
}

}  // namespace hitcounter
