#include "core/keyed/keyed_monitor.h"

#include <algorithm>
#include <stdexcept>

namespace hitcounter {

namespace {
std::chrono::seconds largest(const std::vector<std::chrono::seconds>& levels) {
    if (levels.empty()) {
        throw std::invalid_argument("at least one level is needed");
    }
    return *std::max_element(levels.begin(), levels.end());
}

KeyedOptions keyedOptions(MonitorOptions& options) {
    if (options.window > largest(options.levels)) {
        throw std::invalid_argument("the window must not exceed the largest level");
    }
    return KeyedOptions{options.window, largest(options.levels), options.idle,
                        std::move(options.onEvict), options.maxKeyBytes};
}
}  // namespace

KeyedMonitor::KeyedMonitor(MonitorOptions options)
    : m_keys(keyedOptions(options)),
      m_levels(options.levels),
      m_all(options.levels),
      m_windowVisitors(options.window),
      m_allMeasures(options.window),
      m_approximateTop(
          options.approximateTopCapacity == 0
              ? nullptr
              : std::make_unique<WindowedTopK>(options.window, options.approximateTopCapacity)) {}

void KeyedMonitor::advance(Timestamp now) {
    m_keys.advance(now);
    m_all.advance(now);
    m_windowVisitors.advance(now);
    m_allMeasures.advance(now);
    if (m_approximateTop) {
        m_approximateTop->advance(now);
    }
}

void KeyedMonitor::setWindow(std::chrono::seconds w) {
    m_keys.setWindow(w);  // validates first: throws before anything changed
    m_windowVisitors.setRetention(w);
    m_allMeasures.setRetention(w);
    if (m_approximateTop) {
        m_approximateTop->setRetention(w);
    }
}

void KeyedMonitor::record(const HitEvent& hit) {
    record(std::span(&hit, 1));
}

void KeyedMonitor::record(std::span<const HitEvent> hits) {
    // The all-keys levels get one hit(t, n) per run of one second; a hit they would drop is
    // older than every view, and the keyed counter would drop it as well, so it is not fed.
    Timestamp runTime = 0;
    Count runHits = 0;
    bool inRun = false;
    for (const HitEvent& hit : hits) {
        if (inRun && hit.time != runTime) {
            m_all.hit(runTime, runHits);
            runHits = 0;
        }
        runTime = hit.time;
        inRun = true;
        runHits = saturatingAdd(runHits, hit.count);
        if (!m_all.dropsAt(hit.time)) {
            recordKeyed(hit);
        }
    }
    if (inRun) {
        m_all.hit(runTime, runHits);
    }
}

void KeyedMonitor::recordMeasures(std::span<const HitEvent> events) {
    for (const HitEvent& event : events) {
        if (m_all.dropsAt(event.time)) {
            continue;
        }
        if (!event.key.empty()) {
            m_keys.measure(event);
        }
        m_allMeasures.add(event);
    }
}

void KeyedMonitor::recordKeyed(const HitEvent& hit) {
    m_allMeasures.add(hit);
    if (!hit.key.empty()) {
        m_keys.hit(hit);
        if (m_approximateTop) {
            m_approximateTop->add(hit.time, hit.key, hit.count);
        }
    }
    if (!hit.visitor.empty()) {
        const std::uint64_t hash = HyperLogLog::hashOf(hit.visitor);
        m_allVisitors.add(hash);
        m_windowVisitors.add(hit.time, hash);
    }
}

KeyStats KeyedMonitor::stats(std::string_view key, Timestamp now) {
    advance(now);
    KeyStats stats;
    stats.window = m_keys.count(key, now);
    stats.allTime = m_keys.allTime(key);
    stats.uniques = m_keys.uniques(key, now);
    stats.allTimeUniques = m_keys.allTimeUniques(key);
    for (const std::chrono::seconds level : m_levels) {
        stats.levels.push_back(LevelCount{level, m_keys.countLast(key, now, level)});
    }
    return stats;
}

KeyStats KeyedMonitor::overall(Timestamp now) {
    advance(now);
    KeyStats stats;
    stats.window = m_all.countLast(now, window());
    stats.allTime = m_all.allTime();
    // Seconds before head - W have already left m_windowVisitors, so a query into the past
    // sees (head - W, now] like every other view.
    stats.uniques = m_windowVisitors.estimate(now - window().count(), now);
    stats.allTimeUniques = m_allVisitors.estimate();
    stats.levels = m_all.levels(now);
    return stats;
}

std::vector<KeyCount> KeyedMonitor::top(std::size_t k, Timestamp now) {
    advance(now);
    return m_keys.top(k, now);
}

MeasuresSummary KeyedMonitor::measures(std::string_view key, Timestamp now) {
    advance(now);
    return m_keys.measures(key, now);
}

MeasuresSummary KeyedMonitor::overallMeasures(Timestamp now) {
    advance(now);
    return m_allMeasures.window(now);
}

std::optional<WindowedTopK::Result> KeyedMonitor::approximateTop(std::size_t k, Timestamp now) {
    if (!m_approximateTop) {
        return std::nullopt;
    }
    advance(now);
    return m_approximateTop->top(k, now - window().count(), now);
}

std::size_t KeyedMonitor::memoryBytes() const {
    return sizeof(*this) + m_keys.memoryBytes() - sizeof(KeyedCounter) + m_all.memoryBytes() -
           sizeof(MultiLevelCounter) + m_allVisitors.memoryBytes() - sizeof(HyperLogLog) +
           m_windowVisitors.memoryBytes() - sizeof(WindowedUniques) + m_allMeasures.memoryBytes() -
           sizeof(WindowedMeasures) + (m_approximateTop ? m_approximateTop->memoryBytes() : 0);
}

}  // namespace hitcounter
