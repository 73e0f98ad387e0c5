// MetricsSnapshot and LatestSnapshot: the one place where metrics cross threads. The counting
// thread builds a snapshot (plain values) and publishes it; the HTTP thread takes the latest
// and renders it. A scrape never waits for counting, and counting never waits for a scrape:
// the lock below is held only to copy or swap one pointer.
//
// Threading: MetricsSnapshot is immutable once published (shared as a pointer to const).
// LatestSnapshot is thread-safe: publish() from the counting thread, latest() from any;
// m_mutex guards m_latest.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/metrics/exposition.h"

namespace hitcounter::metrics {

struct MetricsSnapshot {
    std::vector<MetricFamily> families;
    // Empty while everything is healthy; otherwise why not ("redis: not connected ...").
    std::string unhealthy;
    std::chrono::steady_clock::time_point published;
};

class LatestSnapshot {
public:
    void publish(std::shared_ptr<const MetricsSnapshot> snapshot) {
        std::lock_guard lock(m_mutex);
        m_latest.swap(snapshot);
        // The old snapshot is released after the lock: a large one is freed outside it.
    }
    // The newest snapshot published, or null before the first.
    std::shared_ptr<const MetricsSnapshot> latest() const {
        std::lock_guard lock(m_mutex);
        return m_latest;
    }

private:
    mutable std::mutex m_mutex;
    std::shared_ptr<const MetricsSnapshot> m_latest;  // guarded by m_mutex
};

}  // namespace hitcounter::metrics
