// WindowCounter: the one interface every counting policy implements.
//
// Contract (shared by all policies; each policy's header adds its own cost and error bound):
//  - Time is whole seconds (Timestamp, 0 <= t < 2^62), passed in by the caller.
//  - The window is the half-open interval (t - W, t]: a hit at t - W + 1 is counted at t,
//    a hit at t - W is not. W is fixed at construction (default 300 s).
//  - "head" is the newest second seen so far, by hit() or by count().
//  - hit(t, n) records n hits at second t. A late hit (t < head) still inside the window
//    (t > head - W) is counted by every exact policy. A hit at t <= head - W is older than the
//    window: it is dropped and added to droppedLate().
//  - count(t) returns the hits whose second lies in (t - W, t]. For t >= head this is the
//    plain answer (the monitor's "now"); t then becomes the new head. A query into the past
//    (t < head) sees only what is still retained, the seconds after head - W, so it returns
//    the hits in (head - W, t]. Every exact policy gives the same answer for every sequence of
//    calls.
//  - hitRuns(runs) is hit(run.time, run.count) for each run in order, in one call (one virtual
//    call for many seconds: a policy may keep its state in registers across them).
//  - Counts are 64-bit and saturate at UINT64_MAX instead of wrapping.
//  - memoryBytes() is the memory the object holds right now (its own size plus the capacity
//    of its containers), not a formula over the number of hits.
//  - clone() is an independent copy that holds the same hits and answers every later call as
//    this one would (a checkpoint of the counting state); nullptr from a counter that cannot
//    be copied (the concurrent ones). CopyableCounter<Derived> implements it by copying.
//
// Worked example, W = 300 (the LeetCode 362 example):
//     hit(1); hit(2); hit(3);  count(4)   == 3    window (-296, 4]
//     hit(300);                count(300) == 4    window (0, 300]
//                              count(301) == 3    window (1, 301]: the hit at 1 has left
//
// Threading: implementations are not thread-safe; one owner thread calls them.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string_view>

#include "core/base/types.h"

namespace hitcounter {

// Hits of one second, as one call: hit(time, count).
struct SecondHits {
    Timestamp time = 0;
    Count count = 0;

    friend bool operator==(const SecondHits&, const SecondHits&) = default;
};

class WindowCounter {
public:
    virtual ~WindowCounter() = default;

    virtual void hit(Timestamp t, Count n = 1) = 0;
    virtual void hitRuns(std::span<const SecondHits> runs) {
        for (const SecondHits& run : runs) {
            hit(run.time, run.count);
        }
    }
    virtual Count count(Timestamp t) = 0;

    virtual std::chrono::seconds window() const = 0;
    virtual std::size_t memoryBytes() const = 0;
    virtual bool isExact() const = 0;
    // The factory name of the policy ("ring", "deque", ...).
    virtual std::string_view name() const = 0;
    // Hits dropped because they were older than the window when they arrived.
    virtual Count droppedLate() const = 0;
    virtual std::unique_ptr<WindowCounter> clone() const { return nullptr; }
};

// A counter whose copy constructor copies its hits: clone() is that copy.
template <typename Derived>
class CopyableCounter : public WindowCounter {
public:
    std::unique_ptr<WindowCounter> clone() const final {
        return std::make_unique<Derived>(static_cast<const Derived&>(*this));
    }
};

}  // namespace hitcounter
