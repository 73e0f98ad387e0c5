#include "core/sketches/windowed_measures.h"

#include <algorithm>
#include <stdexcept>

namespace hitcounter {

WindowedMeasures::WindowedMeasures(std::chrono::seconds retention)
    : m_retention(retention.count()) {
    if (m_retention <= 0) {
        throw std::invalid_argument("retention must be at least 1 second");
    }
}

void WindowedMeasures::forgetOldest() {
    Second& oldest = m_seconds.front();
    m_bytes -= oldest.bytes;
    m_bytesHits -= oldest.bytesHits;
    m_times.subtract(oldest.times);
    oldest.times = QuantileSketch{};  // release it now, not at the next compaction
    m_seconds.pop_front();
    if (m_seconds.empty()) {
        // An idle key keeps nothing (its queue and sum would keep their capacity).
        m_seconds = {};
        m_times = {};
    }
}

void WindowedMeasures::advance(Timestamp now) {
    if (m_started && now <= m_head) {
        return;
    }
    m_started = true;
    m_head = now;
    while (!m_seconds.empty() && m_seconds.front().second <= m_head - m_retention) {
        forgetOldest();
    }
}

void WindowedMeasures::setRetention(std::chrono::seconds retention) {
    if (retention.count() <= 0) {
        throw std::invalid_argument("retention must be at least 1 second");
    }
    m_retention = retention.count();
    while (m_started && !m_seconds.empty() && m_seconds.front().second <= m_head - m_retention) {
        forgetOldest();
    }
}

bool WindowedMeasures::add(const HitEvent& event) {
    if (!event.hasBytes() && !event.hasSeconds()) {
        return true;
    }
    advance(event.time);
    if (event.time <= m_head - m_retention) {
        return false;
    }
    auto it = m_seconds.end();
    if (m_seconds.empty() || event.time > m_seconds.back().second) {
        m_seconds.push_back(Second{event.time, 0, 0, HitEvent::kNoSeconds, {}});
        it = m_seconds.end() - 1;
    } else {
        it = std::lower_bound(m_seconds.begin(), m_seconds.end(), event.time,
                              [](const Second& s, Timestamp t) { return s.second < t; });
        if (it->second != event.time) {
            it = m_seconds.insert(it, Second{event.time, 0, 0, HitEvent::kNoSeconds, {}});
        }
    }
    if (event.hasBytes()) {
        // The sums take what the second took, so that its leaving takes it all back.
        const Count bytes = it->bytes, hits = it->bytesHits;
        it->bytes = saturatingAdd(it->bytes, event.bytes);
        it->bytesHits = saturatingAdd(it->bytesHits, event.count);
        m_bytes += it->bytes - bytes;
        m_bytesHits += it->bytesHits - hits;
    }
    if (event.hasSeconds()) {
        it->slowest = std::max(it->slowest, event.seconds);
        it->times.add(event.seconds, event.count);
        m_times.add(event.seconds, event.count);
    }
    return true;
}

MeasuresSummary WindowedMeasures::summarize(Count bytes, Count bytesHits,
                                            const QuantileSketch& times, float slowest) {
    MeasuresSummary summary{.bytes = bytes, .bytesHits = bytesHits, .timedHits = times.count()};
    if (times.empty()) {
        return summary;
    }
    summary.max = slowest;
    summary.p50 = std::min(times.quantile(0.5), summary.max);
    summary.p90 = std::min(times.quantile(0.9), summary.max);
    summary.p99 = std::min(times.quantile(0.99), summary.max);
    return summary;
}

MeasuresSummary WindowedMeasures::window(Timestamp now) {
    advance(now);
    float slowest = HitEvent::kNoSeconds;
    if (now >= m_head) {
        for (const Second& s : m_seconds) {
            slowest = std::max(slowest, s.slowest);
        }
        return summarize(clampToCount(m_bytes), clampToCount(m_bytesHits), m_times, slowest);
    }
    Count bytes = 0;
    Count bytesHits = 0;
    QuantileSketch times;
    for (auto it = m_seconds.begin(); it != m_seconds.end() && it->second <= now; ++it) {
        bytes = saturatingAdd(bytes, it->bytes);
        bytesHits = saturatingAdd(bytesHits, it->bytesHits);
        times.merge(it->times);
        slowest = std::max(slowest, it->slowest);
    }
    return summarize(bytes, bytesHits, times, slowest);
}

std::size_t WindowedMeasures::memoryBytes() const {
    std::size_t bytes = sizeof(*this) + m_seconds.capacityBytes() + m_times.heapBytes();
    for (const Second& s : m_seconds) {
        bytes += s.times.heapBytes();
    }
    return bytes;
}

}  // namespace hitcounter
