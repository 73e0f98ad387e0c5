// BatchQueue: the one bounded hand-over between a source's worker thread and its consumer.
//
// Thread-safe: any number of producers and consumers; m_mutex guards m_batches and the
// counters. When the queue holds `capacity` batches, tryPush() refuses the batch and counts
// its hits as dropped: a slow consumer never blocks a source.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

#include "core/sources/hit_event.h"

namespace hitcounter {

class BatchQueue {
public:
    explicit BatchQueue(std::size_t capacity = 1024) : m_capacity(capacity == 0 ? 1 : capacity) {}

    // False if full: the batch is dropped and its hits are added to droppedHits().
    bool tryPush(HitBatch&& batch) {
        if (batch.empty()) {
            return true;
        }
        {
            std::lock_guard lock(m_mutex);
            if (m_batches.size() >= m_capacity) {
                for (const HitEvent& e : batch) {
                    m_droppedHits += e.count;
                }
                return false;
            }
            m_batches.push_back(std::move(batch));
        }
        m_nonEmpty.notify_one();
        return true;
    }

    // Takes every queued batch without waiting (the GUI frame timer's call).
    std::deque<HitBatch> drain() {
        std::lock_guard lock(m_mutex);
        return std::exchange(m_batches, {});
    }

    // Waits up to `timeout` for one batch (headless consumers).
    std::optional<HitBatch> popFor(std::chrono::milliseconds timeout) {
        std::unique_lock lock(m_mutex);
        if (!m_nonEmpty.wait_for(lock, timeout, [this] { return !m_batches.empty(); })) {
            return std::nullopt;
        }
        HitBatch batch = std::move(m_batches.front());
        m_batches.pop_front();
        return batch;
    }

    Count droppedHits() const {
        std::lock_guard lock(m_mutex);
        return m_droppedHits;
    }

private:
    const std::size_t m_capacity;
    mutable std::mutex m_mutex;
    std::condition_variable m_nonEmpty;
    std::deque<HitBatch> m_batches;  // guarded by m_mutex
    Count m_droppedHits = 0;         // guarded by m_mutex
};

}  // namespace hitcounter
