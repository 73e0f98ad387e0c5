// Test helpers for sources. BatchCollector: a test's consumer end of a BatchQueue. It pops with
// bounded waits (never a sleep) until a condition holds or a deadline passes, so a broken source
// fails the test instead of hanging it. It follows stream epochs as the engine does
// (hit_event.h): a Reset marker clears what it collected, batches of another epoch are dropped,
// Clock markers are kept apart (clockMarks()).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <thread>
#include <vector>

#include "core/sources/batch_queue.h"

namespace hitcounter::test {

// Spins (yielding) until done() holds; false after `patience`. For conditions a source
// reaches on its own thread (state changes), never for the passing of time.
inline bool waitUntil(const std::function<bool()>& done,
                      std::chrono::milliseconds patience = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) {
            return false;
        }
        std::this_thread::yield();
    }
    return true;
}

class BatchCollector {
public:
    explicit BatchCollector(BatchQueue& queue) : m_queue(queue) {}

    // Pops batches until done() is true (checked after each batch and on each idle wait);
    // false if `patience` ran out first.
    bool collectUntil(const std::function<bool()>& done,
                      std::chrono::milliseconds patience = std::chrono::seconds(10)) {
        const auto deadline = std::chrono::steady_clock::now() + patience;
        while (!done()) {
            if (std::chrono::steady_clock::now() > deadline) {
                return false;
            }
            if (auto batch = m_queue.popFor(std::chrono::milliseconds(20))) {
                take(*batch);
            }
        }
        return true;
    }

    // Takes whatever is queued right now.
    void drainNow() {
        for (HitBatch& batch : m_queue.drain()) {
            take(batch);
        }
    }

    Count hits() const { return m_hits; }
    // Hits per second of their time.
    const std::map<Timestamp, Count>& perSecond() const { return m_perSecond; }
    const HitBatch& events() const { return m_events; }
    std::size_t batches() const { return m_batches; }
    // The seconds of the Clock markers of the current epoch, in arrival order.
    const std::vector<Timestamp>& clockMarks() const { return m_clockMarks; }

    void clear() {
        m_hits = 0;
        m_perSecond.clear();
        m_events.clear();
        m_batches = 0;
        m_clockMarks.clear();
    }

private:
    void take(const HitBatch& batch) {
        if (batch.kind == BatchKind::Reset) {
            clear();
            m_epoch = batch.epoch;
            return;
        }
        if (batch.epoch != m_epoch) {
            return;
        }
        if (batch.kind == BatchKind::Clock) {
            m_clockMarks.push_back(batch.clock);
            return;
        }
        ++m_batches;
        for (const HitEvent& e : batch) {
            m_hits += e.count;
            m_perSecond[e.time] += e.count;
            m_events.push_back(e);
        }
    }

    BatchQueue& m_queue;
    std::uint64_t m_epoch = 0;
    Count m_hits = 0;
    std::map<Timestamp, Count> m_perSecond;
    HitBatch m_events;
    std::size_t m_batches = 0;
    std::vector<Timestamp> m_clockMarks;
};

}  // namespace hitcounter::test
