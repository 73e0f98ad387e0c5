// Values the Engine hands to its views: one struct per frame, plus one record per second of
// history. Plain values: a view may keep a copy for as long as it likes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/types.h"
#include "core/counters/ring_counter.h"

namespace hitcounter {

// One counting policy's state at the engine's head second.
struct PolicyState {
    std::string name;
    bool exact = false;
    // True once the policy held more than EngineOptions::policyMemoryCap: it is no longer fed,
    // and count / memoryBytes keep the values of the moment it stopped.
    bool stopped = false;
    Count count = 0;
    std::int64_t error = 0;     // count - exact count (the ring's); 0 for exact policies
    double errorPercent = 0.0;  // error / exact * 100; 0 when the exact count is 0
    std::size_t memoryBytes = 0;
    Timestamp stoppedAt = 0;  // the head second when it was stopped (if stopped)
};

// Slots of SecondRecord::statusHits: unknown, then 1xx to 5xx.
inline constexpr std::size_t kStatusClasses = 6;

// One second of history. While `second` is the head it is still open and its values change.
struct SecondRecord {
    Timestamp second = 0;
    Count hits = 0;  // hits whose time is this second (late ones included)
    // The same hits by HitEvent::statusClass: [0] unknown, [1..5] 1xx..5xx; they sum to hits
    // (each saturates on its own, so only while no sum reached UINT64_MAX).
    std::array<Count, kStatusClasses> statusHits{};
    std::vector<Count> counts;        // window count of each policy at the end of the second
    std::vector<std::size_t> memory;  // memory of each policy at the end of the second
};

struct EngineSnapshot {
    bool empty = true;  // no hit yet: head and counts are meaningless
    Timestamp head = 0;
    std::int64_t windowSeconds = 0;
    std::size_t policyMemoryCap = 0;  // EngineOptions::policyMemoryCap
    Count windowCount = 0;            // the exact count in (head - W, head]
    Count totalHits = 0;              // every hit ingested since the last reset
    Count lateHits = 0;     // hits older than the head when they arrived (inside the window)
    Count droppedLate = 0;  // hits older than the window when they arrived (not counted)
    Count headHits = 0;     // hits so far in the head second
    std::vector<RingCounter::Slot> slots;  // the ring's W slots, slot i holds seconds = i mod W
    std::vector<PolicyState> policies;     // in EngineOptions::policies order; [0] is "ring"
};

}  // namespace hitcounter
