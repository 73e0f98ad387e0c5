// BatchQueue: the one bounded hand-over between a source's worker thread and its consumer.
//
// Thread-safe: any number of producers and consumers; m_mutex guards m_batches and the
// counters. When the queue holds `capacity` batches, tryPush() refuses the batch and counts
// its hits as dropped: a slow consumer never blocks a live source. A source whose time is
// virtual and runs as fast as possible uses pushWait() instead: it waits for room, so its
// consumer sets the pace and nothing is dropped. Empty batches are not queued, except reset
// markers (hit_event.h).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <stop_token>
#include <utility>

#include "core/sources/hit_event.h"

namespace hitcounter {

class BatchQueue {
public:
    explicit BatchQueue(std::size_t capacity = 1024) : m_capacity(capacity == 0 ? 1 : capacity) {}

    // False if full: the batch is dropped and its hits are added to droppedHits().
    bool tryPush(HitBatch&& batch) {
        if (batch.empty() && batch.kind != BatchKind::Reset) {
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

    // Waits while the queue is full, then pushes. Returns false without pushing (and without
    // counting a drop) if a stop is requested on `stop` first.
    bool pushWait(HitBatch&& batch, std::stop_token stop) {
        if (batch.empty() && batch.kind != BatchKind::Reset) {
            return true;
        }
        {
            std::unique_lock lock(m_mutex);
            if (!m_notFull.wait(lock, stop, [this] { return m_batches.size() < m_capacity; })) {
                return false;
            }
            m_batches.push_back(std::move(batch));
        }
        m_nonEmpty.notify_one();
        return true;
    }

    // Takes every queued batch without waiting (the GUI frame timer's call).
    std::deque<HitBatch> drain() {
        std::deque<HitBatch> batches;
        {
            std::lock_guard lock(m_mutex);
            batches = std::exchange(m_batches, {});
        }
        m_notFull.notify_all();
        return batches;
    }

    // Waits up to `timeout` for one batch (headless consumers).
    std::optional<HitBatch> popFor(std::chrono::milliseconds timeout) {
        std::unique_lock lock(m_mutex);
        if (!m_nonEmpty.wait_for(lock, timeout, [this] { return !m_batches.empty(); })) {
            return std::nullopt;
        }
        HitBatch batch = std::move(m_batches.front());
        m_batches.pop_front();
        lock.unlock();
        m_notFull.notify_all();
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
    std::condition_variable_any m_notFull;
    std::deque<HitBatch> m_batches;  // guarded by m_mutex
    Count m_droppedHits = 0;         // guarded by m_mutex
};

}  // namespace hitcounter
