#include "core/concurrent/locked_counter.h"

#include "core/base/saturating.h"

namespace hitcounter {

LockedCounter::LockedCounter(std::chrono::seconds window) : m_window(window), m_ring(window) {}

void LockedCounter::hit(Timestamp t, Count n) {
    const std::lock_guard lock(m_mutex);
    const Count droppedBefore = m_ring.droppedLate();
    m_ring.hit(t, n);
    if (m_ring.droppedLate() == droppedBefore) {
        m_total = saturatingAdd(m_total, n);
    }
}

Count LockedCounter::count(Timestamp t) {
    const std::lock_guard lock(m_mutex);
    return m_ring.count(t);
}

Count LockedCounter::total() const {
    const std::lock_guard lock(m_mutex);
    return m_total;
}

Count LockedCounter::droppedLate() const {
    const std::lock_guard lock(m_mutex);
    return m_ring.droppedLate();
}

std::size_t LockedCounter::memoryBytes() const {
    const std::lock_guard lock(m_mutex);
    return sizeof(*this) - sizeof(RingCounter) + m_ring.memoryBytes();
}

}  // namespace hitcounter
