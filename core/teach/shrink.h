// Shrinking a failing sequence of operations to a minimal one (issue 24), the way
// property-testing tools do: delta debugging (Zeller's ddmin) over the operations, then
// simpler values.
//
// Thread-safe (a pure function; `fails` is called on the caller's thread).
//
// shrinkOperations(ops, fails, window) returns a sequence for which fails() is true, built from
// `ops` by (1) ddmin: dropping chunks of operations, halves first, then smaller, until no single
// operation can go (1-minimal); (2) each "hit t xN" down to x1 (else halved while it fails);
// (3) every second moved down together, first by whole windows, then so the first is second 1;
// (4) each second lowered, by bisection, as far as it still fails (never below the second
// before it); then (1) once more. Precondition: fails(ops). Seconds never go below 1 (LeetCode's
// timestamps start at 1) and the order of the seconds is kept, so a chronological sequence stays
// chronological. At most `maxTries` calls of fails() (each runs the learner's code from a fresh
// start); when they run out, the smallest failing sequence so far is returned.
//
// Example, W = 10, fails = "the learner's getHits counts second t - W": from "hit 3; hit 4;
// getHits 9; hit 14 x3; getHits 14; getHits 15" to "hit 1; getHits 11".
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "core/teach/operation_parser.h"

namespace hitcounter::teach {

using FailurePredicate = std::function<bool(const std::vector<Operation>&)>;

std::vector<Operation> shrinkOperations(std::vector<Operation> ops, const FailurePredicate& fails,
                                        std::chrono::seconds window, std::size_t maxTries = 400);

}  // namespace hitcounter::teach
