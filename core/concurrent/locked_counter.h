// LockedCounter: the mutex baseline. A RingCounter behind one std::mutex.
//
// Thread-safe: every call takes m_mutex, so writers on different threads serialize on it (and
// on its cache line); this is what StripedAtomicCounter is measured against.
//
// Contract: window_counter.h and concurrent_counter.h. Exact, with the ring's full 64-bit
// saturating counts. Cost: RingCounter's plus one lock/unlock per call.
// Memory: the ring's (W * 16 bytes + W / 8) plus the mutex.
//
// Example, W = 300, two threads:
//     thread A: hit(5) x 1000      thread B: hit(6) x 1000      (at the same time)
//     afterwards count(6) == 2000 and total() == 2000
#pragma once

#include <mutex>

#include "core/concurrent/concurrent_counter.h"
#include "core/counters/ring_counter.h"

namespace hitcounter {

class LockedCounter final : public ConcurrentCounter {
public:
    explicit LockedCounter(std::chrono::seconds window = kDefaultWindow);

    void hit(Timestamp t, Count n = 1) override;
    Count count(Timestamp t) override;
    Count total() const override;

    std::chrono::seconds window() const override { return m_window; }
    std::size_t memoryBytes() const override;
    bool isExact() const override { return true; }
    std::string_view name() const override { return "locked"; }
    Count droppedLate() const override;

private:
    const std::chrono::seconds m_window;
    mutable std::mutex m_mutex;
    RingCounter m_ring;  // guarded by m_mutex
    Count m_total = 0;   // guarded by m_mutex
};

}  // namespace hitcounter
