#include "app/cli/keyed_replay.h"

#include <algorithm>
#include <limits>

#include "core/net/text_escape.h"

namespace hitcounter::cli {

MonitorOptions windowOnlyMonitor(std::chrono::seconds window) {
    MonitorOptions options;
    options.window = window;
    options.levels = {window};
    return options;
}

KeyedReplay::KeyedReplay(Mode mode, std::chrono::seconds window, std::size_t k)
    : m_mode(mode),
      m_k(k),
      m_monitor(windowOnlyMonitor(window)),
      m_csv(mode == Mode::Top ? "time,rank,key,count\n" : "time,key,uniques\n") {}

void KeyedReplay::add(const HitEvent& event) {
    m_monitor.record(event);
}

void KeyedReplay::answer(Timestamp time) {
    const std::string at = std::to_string(time) + ',';
    if (m_mode == Mode::Top) {
        std::size_t rank = 0;
        for (const KeyCount& entry : m_monitor.top(m_k, time)) {
            m_csv += at + std::to_string(++rank) + ',' + csvField(entry.key) + ',' +
                     std::to_string(entry.count) + '\n';
        }
        return;
    }
    std::vector<KeyCount> keys = m_monitor.top(std::numeric_limits<std::size_t>::max(), time);
    std::sort(keys.begin(), keys.end(),
              [](const KeyCount& a, const KeyCount& b) { return a.key < b.key; });
    for (const KeyCount& entry : keys) {
        m_csv += at + csvField(entry.key) + ',' +
                 std::to_string(m_monitor.stats(entry.key, time).uniques) + '\n';
    }
    m_csv += at + "*," + std::to_string(m_monitor.overall(time).uniques) + '\n';
}

}  // namespace hitcounter::cli
