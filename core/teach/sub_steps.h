// The sub-steps of one operation: the pseudocode lines it runs in the listing the lesson shows
// (Algorithms in Action style; SubStep in frame.h), each with its text, the slot it looks at,
// what that slot holds once the line ran and, where the listing keeps one, the total after it.
//
// Thread-safe (a pure function).
//
// The textbook scan (kPseudocode): a hit runs the late check, head, index, compare, [reset] and
// add (a dropped hit stops at the late check); a getHits runs head, total = 0, one comparison
// per written slot, a note for the never-written ones, return. The running total
// (kRunningPseudocode): a hit runs the late check, the expire check and expire(t)'s
// subtractions (oldest first) before head, index, compare, [reset] and the add, which also adds
// to the total; a getHits at or after the head expires and returns the total, one into the
// past compares the window's written slots and returns their sum. Every running-total line
// carries the total.
//
// Precondition: `f` is a Timeline frame after an operation with its state and f.expired filled,
// `previous` the frame before it. Cost: O(W).
//
// Example, W = 10, "hit 3; hit 13", the running total's hit 13: "13 <= 3 - 10? no",
// "13 > 3? yes: expire(13)", "slot 3: second 3 <= 13 - 10: total -= 1 = 0 (it keeps its
// second)", "head = max(3, 13) = 13", "i = 13 mod 10 = 3", "slot[3].second = 3 != 13? yes",
// "slot[3] = (13, 0) (second 3 left the window)", "slot[3].count += 1: (13, 1); total += 1 = 1".
#pragma once

#include <cstdint>
#include <vector>

#include "core/teach/frame.h"

namespace hitcounter::teach {

std::vector<SubStep> operationSubSteps(const Frame& f, const Frame& previous, std::int64_t window,
                                       Code code);

}  // namespace hitcounter::teach
