#include "core/counters/scan_ring_counter.h"

namespace hitcounter {

ScanRingCounter::ScanRingCounter(std::chrono::seconds window)
    : m_head(window), m_slots(static_cast<std::size_t>(window.count())) {}

void ScanRingCounter::hit(Timestamp t, Count n) {
    if (m_head.dropIfLate(t, n)) {
        return;
    }
    m_head.advance(t);
    Slot& slot = m_slots[static_cast<std::size_t>(floorMod(t, m_head.windowSeconds()))];
    if (slot.second != t) {
        slot = Slot{t, 0};
    }
    slot.count = saturatingAdd(slot.count, n);
}

Count ScanRingCounter::count(Timestamp t) {
    m_head.advance(t);
    const Timestamp lower = m_head.lowerBound(t);
    Wide128 sum = 0;
    for (const Slot& slot : m_slots) {
        if (slot.second > lower && slot.second <= t) {
            sum += slot.count;
        }
    }
    return clampToCount(sum);
}

}  // namespace hitcounter
