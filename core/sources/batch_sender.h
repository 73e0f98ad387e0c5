// BatchSender: a source worker's end of the BatchQueue. It pushes batches and keeps the
// delivery counters of SourceCounters: hits, late hits, dropped.
//
// Not thread-safe: owned by one worker thread (the counters it writes are atomics).
//
// Semantics: a hit is late when its time is older than the newest time in any batch sent
// before it or earlier in the same batch. send() with wait = false is tryPush (a full queue
// drops the batch and its hits count as dropped); with wait = true it waits for room (for
// sources running as fast as possible) and returns false, discarding the batch uncounted, if
// `stop` is requested first.
//
// Example: send({{10,..,1}}), then send({{12,..,2},{11,..,3}})  =>  hits 6, lateHits 3.
#pragma once

#include <limits>
#include <stop_token>

#include "core/sources/batch_queue.h"
#include "core/sources/source_counters.h"

namespace hitcounter {

class BatchSender {
public:
    BatchSender(BatchQueue& out, SourceCounters& counters) : m_out(out), m_counters(counters) {}

    bool send(HitBatch&& batch, bool wait, std::stop_token stop) {
        Count hits = 0;
        Count late = 0;
        for (const HitEvent& e : batch) {
            hits += e.count;
            if (e.time < m_newest) {
                late += e.count;
            } else {
                m_newest = e.time;
            }
        }
        const bool delivered =
            wait ? m_out.pushWait(std::move(batch), stop) : m_out.tryPush(std::move(batch));
        if (delivered) {
            m_counters.hits.fetch_add(hits, std::memory_order_relaxed);
            m_counters.lateHits.fetch_add(late, std::memory_order_relaxed);
        } else if (!wait) {
            m_counters.dropped.fetch_add(hits, std::memory_order_relaxed);
        }
        return delivered || !wait;
    }

    // Forgets the newest time sent (after a replay seek, times start over).
    void resetNewest() { m_newest = std::numeric_limits<Timestamp>::min(); }

private:
    BatchQueue& m_out;
    SourceCounters& m_counters;
    Timestamp m_newest = std::numeric_limits<Timestamp>::min();
};

}  // namespace hitcounter
