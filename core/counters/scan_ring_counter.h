// ScanRingCounter: the ring buffer as textbooks write it: W slots of (second, count), slot
// t % W reset when it holds another second, and count() scanning all W slots. Kept as the
// baseline RingCounter is measured against.
//
// Not thread-safe; owned by one thread.
//
// Contract: see window_counter.h. Exact.
// Cost: hit() O(1) with one division; count() O(W) always.
// Memory: W * 16 bytes, fixed.
#pragma once

#include <vector>

#include "core/base/saturating.h"
#include "core/counters/window_counter.h"
#include "core/counters/window_head.h"

namespace hitcounter {

class ScanRingCounter final : public CopyableCounter<ScanRingCounter> {
public:
    explicit ScanRingCounter(std::chrono::seconds window = kDefaultWindow);

    void hit(Timestamp t, Count n = 1) override;
    Count count(Timestamp t) override;

    std::chrono::seconds window() const override {
        return std::chrono::seconds{m_head.windowSeconds()};
    }
    std::size_t memoryBytes() const override {
        return sizeof(*this) + m_slots.capacity() * sizeof(Slot);
    }
    bool isExact() const override { return true; }
    std::string_view name() const override { return "scanring"; }
    Count droppedLate() const override { return m_head.droppedLate(); }

private:
    struct Slot {
        Timestamp second = INT64_MIN;  // never written
        Count count = 0;
    };

    WindowHead m_head;
    std::vector<Slot> m_slots;
};

}  // namespace hitcounter
