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
// All sums saturate at UINT64_MAX.
//
// Example: send({{10,..,1}}), then send({{12,..,2},{11,..,3}})  =>  hits 6, lateHits 3.
#pragma once

#include <chrono>
#include <limits>
#include <stop_token>

#include "core/sources/batch_queue.h"
#include "core/sources/source_counters.h"

namespace hitcounter {

class BatchSender {
public:
    BatchSender(BatchQueue& out, SourceCounters& counters) : m_out(out), m_counters(counters) {}

    bool send(HitBatch&& batch, bool wait, std::stop_token stop) {
        const Tally t = tally(batch);
        const bool delivered =
            wait ? m_out.pushWait(std::move(batch), stop) : m_out.tryPush(std::move(batch));
        if (delivered) {
            addSaturating(m_counters.hits, t.hits);
            addSaturating(m_counters.lateHits, t.late);
        } else if (!wait) {
            addSaturating(m_counters.dropped, t.hits);
        }
        return delivered || !wait;
    }

    // Waits up to `timeout` for room and sends, counting like send(). False if there was no
    // room in time: `batch` is then kept as it was and nothing is counted (the caller retries,
    // or gives up with send(..., false, ...), which counts the drop).
    bool sendFor(HitBatch& batch, std::chrono::milliseconds timeout) {
        const Timestamp newest = m_newest;
        const Tally t = tally(batch);
        if (!m_out.pushFor(batch, timeout)) {
            m_newest = newest;
            return false;
        }
        addSaturating(m_counters.hits, t.hits);
        addSaturating(m_counters.lateHits, t.late);
        return true;
    }

    // Forgets the newest time sent (after a replay seek, times start over).
    void resetNewest() { m_newest = std::numeric_limits<Timestamp>::min(); }

private:
    struct Tally {
        Count hits = 0;
        Count late = 0;
    };
    // The batch's hits and late hits (saturating); moves m_newest forward.
    Tally tally(const HitBatch& batch) {
        Tally t;
        for (const HitEvent& e : batch) {
            t.hits = saturatingAdd(t.hits, e.count);
            if (e.time < m_newest) {
                t.late = saturatingAdd(t.late, e.count);
            } else {
                m_newest = e.time;
            }
        }
        return t;
    }

    BatchQueue& m_out;
    SourceCounters& m_counters;
    Timestamp m_newest = std::numeric_limits<Timestamp>::min();
};

}  // namespace hitcounter
