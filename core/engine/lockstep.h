// Lockstep: several counting policies fed the same hits in the same order and asked at the
// same times: the one lockstep run behind the GUI's Engine (engine.h), `hitcounter-cli replay`
// (app/cli/replay_run.h) and the CostMeter (cost_meter.h), so they count alike and, when timed,
// cost the same by construction.
//
// Not thread-safe; one owner thread (the counting thread, the CLI's main thread, the meter's
// measuring thread).
//
// Semantics:
//  - feed(runs) gives every running policy the same runs through one hitRuns(runs) call
//    (WindowCounter: hit(run.time, run.count) for each run, in order). The caller decides what a
//    run is: the Engine sums the events of one second first (batch_coalescing.h), the CLI and the
//    CostMeter feed each event as delivered.
//  - count(p, t), memoryBytes(p), droppedLate(p) are policy p's (p in the constructor's order).
//    count() is WindowCounter::count: a query at or past a policy's head moves its head to t.
//  - stop(p) stops feeding policy p (the Engine's memory cap): from then on its count and memory
//    are those it had at that moment, whatever t is asked.
//  - Timed (a ThreadCpuTimer given): each policy's hitRuns() call of each feed is timed apart,
//    in thread CPU time with the clock's own cost kept out (thread_cpu_timer.h: THE definition
//    of cost); nsPerHit(p) is the sum of those times over the runs fed to p. So the CLI's
//    ns_per_hit and the policy comparison's ns per hit are one measure. Feed batches (thousands
//    of runs), not single hits: one clock pair per policy per feed. Untimed, no clock is read.
//
// Cost: feed() is O(runs x policies) plus two clock reads per running policy when timed.
// Memory: the policies, plus a few words per policy.
//
// Example (W = 300; the LeetCode 362 example through two policies):
//     Lockstep run(makeTwo("ring", "naive"), ThreadCpuTimer{});
//     const SecondHits hits[] = {{1, 1}, {2, 1}, {3, 1}};
//     run.feed(hits);  run.count(0, 4) == 3 && run.count(1, 4) == 3;  run.nsPerHit(1) > 0
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/base/types.h"
#include "core/counters/window_counter.h"
#include "core/engine/thread_cpu_timer.h"

namespace hitcounter {

class Lockstep {
public:
    Lockstep() = default;  // no policies
    // Untimed without `timer`.
    explicit Lockstep(std::vector<std::unique_ptr<WindowCounter>> policies,
                      std::optional<ThreadCpuTimer> timer = std::nullopt);

    void feed(std::span<const SecondHits> runs);
    // Policy p's count at t; a stopped policy's count when it stopped. Const as a query of the
    // Engine is: a count at the head moves nothing (see WindowCounter::count).
    Count count(std::size_t p, Timestamp t) const;
    std::size_t memoryBytes(std::size_t p) const;
    Count droppedLate(std::size_t p) const { return m_policies[p]->droppedLate(); }
    // Stops feeding policy p, keeping its count at `at` and its memory. Idempotent.
    void stop(std::size_t p, Timestamp at);
    bool stopped(std::size_t p) const { return m_state[p].stopped; }
    // The time given to stop(p) (0 while running).
    Timestamp stoppedAt(std::size_t p) const { return m_state[p].stoppedAt; }
    // Mean thread CPU ns of policy p per run fed to it; 0 untimed or before the first run.
    double nsPerHit(std::size_t p) const;
    std::uint64_t runsFed(std::size_t p) const { return m_state[p].runsFed; }

    std::size_t size() const { return m_policies.size(); }
    const std::vector<std::unique_ptr<WindowCounter>>& policies() const { return m_policies; }
    // What the policies hold, their bookkeeping included (not sizeof(Lockstep)).
    std::size_t heldBytes() const;
    // An independent copy (WindowCounter::clone of each policy, the stops, the costs); nullopt
    // if a policy cannot be copied.
    std::optional<Lockstep> clone() const;

private:
    struct PolicyState {
        bool stopped = false;
        Count frozenCount = 0;
        std::size_t frozenMemory = 0;
        Timestamp stoppedAt = 0;
        std::uint64_t runsFed = 0;
        std::chrono::nanoseconds cpu{0};  // timed feeds only
    };

    std::vector<std::unique_ptr<WindowCounter>> m_policies;
    std::vector<PolicyState> m_state;  // one per policy
    std::optional<ThreadCpuTimer> m_timer;
};

}  // namespace hitcounter
