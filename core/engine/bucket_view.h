// groupSlots(): the ring's one-second slots regrouped as a ring of B-second buckets, the
// structure a coarse ring with bucket width B would hold, for the histogram's bucket switch.
//
// Pure function, thread-agnostic. Cost O(slots).
// With B = 1 the result is the ring itself (W slots). With B > 1 there are ceil(W / B) + 1
// buckets (a window of W seconds touches that many B-second buckets); bucket b = floor(s / B)
// lives in slot b mod that number. Two buckets meeting in one slot keep the newer, as a coarse
// ring resets a reused slot.
//
// Example, W = 10, B = 5, seconds 11 (2 hits) and 13 (1 hit) live, head 13:
//   3 slots; bucket 2 = seconds [10, 15) -> slot 2 holds 3 hits, inWindow, head.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/counters/ring_counter.h"

namespace hitcounter {

struct BucketSlot {
    std::int64_t bucket = 0;  // floor(second / B) of the seconds the slot holds
    Count count = 0;
    bool written = false;   // false: no second ever written there
    bool inWindow = false;  // at least one of its seconds is inside the window
    bool isHead = false;    // holds the head second
};

std::vector<BucketSlot> groupSlots(std::span<const RingCounter::Slot> slots,
                                   std::int64_t bucketSeconds, Timestamp head);

}  // namespace hitcounter
