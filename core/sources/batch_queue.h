// BatchQueue: the one bounded hand-over between a source's worker thread and its consumer.
//
// Thread-safe: any number of producers and consumers; m_mutex guards m_batches and the
// counters. The queue is bounded twice: by `capacity` batches and by `maxBytes` bytes (the
// events, their keys and visitors, as batchBytes() estimates them), so a flood of long keys
// cannot grow it without limit. A batch always fits into an empty queue (else one batch
// larger than maxBytes could never pass). When a batch does not fit:
//  - tryPush() refuses it and counts its hits as dropped: a slow consumer never blocks a live
//    source that cannot push back (UDP);
//  - pushWait() waits for room: a source whose time is virtual runs at its consumer's pace;
//  - pushFor() waits up to a timeout and, if there is still no room, leaves the batch with
//    the caller, uncounted: a source that can push back (TCP) stops reading meanwhile.
// pushMarker() never waits: a marker (no hits, a few bytes) is queued even past the bounds, so
// the GUI thread's restart never waits for a busy consumer. Its callers bound how many (one per
// person's action).
// Dropped hits are summed saturating (at UINT64_MAX), never wrapping. Empty batches are not
// queued, except markers (Reset and Clock, hit_event.h).
//
// Example: BatchQueue q(2, 1 << 20); q.tryPush(a); q.tryPush(b); q.tryPush(c) == false
// (c's hits now in droppedHits()); q.popFor(1s) == a.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <stop_token>
#include <utility>

#include "core/base/hit_event.h"
#include "core/base/invariant.h"
#include "core/base/saturating.h"

namespace hitcounter {

class BatchQueue {
public:
    static constexpr std::size_t kDefaultMaxBytes = std::size_t{256} << 20;

    explicit BatchQueue(std::size_t capacity = 1024, std::size_t maxBytes = kDefaultMaxBytes)
        : m_capacity(capacity == 0 ? 1 : capacity), m_maxBytes(maxBytes) {}

    // The memory a batch holds, as the byte bound counts it: its events' slots as allocated
    // (capacity, not size: a one-event batch reserved for thousands holds them all), their
    // keys and visitors.
    static std::size_t batchBytes(const HitBatch& batch) {
        std::size_t bytes = sizeof(HitBatch) + batch.capacity() * sizeof(HitEvent);
        for (const HitEvent& e : batch) {
            bytes += e.key.size() + e.visitor.size();
        }
        return bytes;
    }

    // False if full: the batch is dropped and its hits are added to droppedHits().
    bool tryPush(HitBatch&& batch) {
        if (batch.empty() && !batch.marker()) {
            return true;
        }
        const std::size_t bytes = batchBytes(batch);
        {
            std::lock_guard lock(m_mutex);
            if (!fits(bytes)) {
                for (const HitEvent& e : batch) {
                    m_droppedHits = saturatingAdd(m_droppedHits, e.count);
                }
                return false;
            }
            append(std::move(batch), bytes);
        }
        m_nonEmpty.notify_one();
        return true;
    }

    // Waits while the queue is full, then pushes. Returns false without pushing (and without
    // counting a drop) if a stop is requested on `stop` first.
    bool pushWait(HitBatch&& batch, std::stop_token stop) {
        if (batch.empty() && !batch.marker()) {
            return true;
        }
        const std::size_t bytes = batchBytes(batch);
        {
            std::unique_lock lock(m_mutex);
            if (!m_notFull.wait(lock, stop, [&] { return fits(bytes); })) {
                return false;
            }
            append(std::move(batch), bytes);
        }
        m_nonEmpty.notify_one();
        return true;
    }

    // Queues `marker` (a Reset or Clock batch) behind every queued batch at once, room or not.
    void pushMarker(HitBatch&& marker) {
        HITCOUNTER_DCHECK(marker.marker() && marker.empty(), "only a marker passes the bounds");
        const std::size_t bytes = batchBytes(marker);
        {
            std::lock_guard lock(m_mutex);
            m_batches.push_back(std::move(marker));
            m_bytes += bytes;
        }
        m_nonEmpty.notify_one();
    }

    // Waits up to `timeout` for room, then pushes (moving from `batch`). Returns false if there
    // was no room in time; `batch` is then left as it was and nothing is counted.
    bool pushFor(HitBatch& batch, std::chrono::milliseconds timeout) {
        if (batch.empty()) {
            return true;
        }
        const std::size_t bytes = batchBytes(batch);
        {
            std::unique_lock lock(m_mutex);
            if (!m_notFull.wait_for(lock, timeout, [&] { return fits(bytes); })) {
                return false;
            }
            append(std::move(batch), bytes);
            batch.clear();
        }
        m_nonEmpty.notify_one();
        return true;
    }

    // Takes every queued batch without waiting (RecordingSource's tee; the CLI's last count
    // before it reports).
    std::deque<HitBatch> drain() {
        std::deque<HitBatch> batches;
        {
            std::lock_guard lock(m_mutex);
            batches = std::exchange(m_batches, {});
            m_bytes = 0;
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
        const std::size_t bytes = batchBytes(batch);
        HITCOUNTER_DCHECK(bytes <= m_bytes, "the queued bytes cover every queued batch");
        m_bytes -= bytes;
        HITCOUNTER_DCHECK(!m_batches.empty() || m_bytes == 0, "an empty queue holds no bytes");
        lock.unlock();
        m_notFull.notify_all();
        return batch;
    }

    Count droppedHits() const {
        std::lock_guard lock(m_mutex);
        return m_droppedHits;
    }

    // The bytes queued now (batchBytes() of every queued batch).
    std::size_t queuedBytes() const {
        std::lock_guard lock(m_mutex);
        return m_bytes;
    }

    std::size_t maxBytes() const { return m_maxBytes; }

    // The batches queued now, and the most it holds.
    std::size_t size() const {
        std::lock_guard lock(m_mutex);
        return m_batches.size();
    }
    std::size_t capacity() const { return m_capacity; }

private:
    // Callers hold m_mutex.
    bool fits(std::size_t bytes) const {
        return m_batches.empty() || (m_batches.size() < m_capacity &&
                                     bytes <= m_maxBytes - std::min(m_bytes, m_maxBytes));
    }
    void append(HitBatch&& batch, std::size_t bytes) {
        m_batches.push_back(std::move(batch));
        m_bytes += bytes;
        // Debug builds (invariant.h): the two bounds hold after every push.
        HITCOUNTER_DCHECK(m_batches.size() <= m_capacity, "at most capacity batches are queued");
        HITCOUNTER_DCHECK(m_bytes <= m_maxBytes || m_batches.size() == 1,
                          "only a lone batch may pass the byte bound");
    }

    const std::size_t m_capacity;
    const std::size_t m_maxBytes;
    mutable std::mutex m_mutex;
    std::condition_variable m_nonEmpty;
    std::condition_variable_any m_notFull;
    std::deque<HitBatch> m_batches;  // guarded by m_mutex
    std::size_t m_bytes = 0;         // guarded by m_mutex
    Count m_droppedHits = 0;         // guarded by m_mutex
};

}  // namespace hitcounter
