// Batch coalescing: hits that arrive together reach the counting policies as one hit(t, n).
//
// The policies (ring, deque, ...) count hits per second and never see keys or visitors, so a
// run of consecutive events of one second, whatever their keys, is one call hit(t, sum of
// counts). This is exact for every policy: hit(t, a) then hit(t, b) and hit(t, a + b) leave
// the same counts, drops and late-hit totals (saturating sums included). Only the number of
// calls changes, so a policy that keeps one entry per call (naive) holds fewer entries. The
// keyed monitor still records every event: it needs each key and visitor.
//
// Stateless; call from any thread.
// Cost: O(events), one comparison per event. Memory: one entry per run, in the caller's
// vector (its capacity is reused between calls).
//
// Example: times 5 5 5 6 5 with counts 1 2 1 1 1  ->  (5, 4) (6, 1) (5, 1)
#pragma once

#include <span>
#include <vector>

#include "core/base/hit_event.h"
#include "core/base/types.h"
#include "core/counters/window_counter.h"

namespace hitcounter {

// Replaces `runs` with one entry per maximal run of consecutive events of the same second.
void coalesceBySecond(std::span<const HitEvent> events, std::vector<SecondHits>& runs);

}  // namespace hitcounter
