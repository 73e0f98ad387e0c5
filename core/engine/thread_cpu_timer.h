// ThreadCpuTimer: the one definition of what a piece of work costs, behind every cost figure
// measured at run time: the lockstep's timed feeds (lockstep.h), hence `hitcounter-cli replay`'s
// ns_per_hit, and the CostMeter's ns per hit and per getHits in the policy comparison.
//
// Definition: the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) from a now() before the
// work to the since() after it, less overhead(): what those two reads cost with no work between
// them, the least of kOverheadTries pairs read when the timer is made (the least, so that
// subtracting it never removes work). A result below zero is 0. A thread that waits (the
// scheduler runs another, it sleeps, it blocks) is not charged for the wait.
//
// Threading: a value, const after construction; share it freely. Each thread has its own
// clock: read now() and since() of one interval on the same thread.
// Cost: construction reads the clock 2 * kOverheadTries times (about 20 µs); now() and since()
// one read each (a system call on most kernels, about 100-300 ns): time batches, not calls.
//
// Example: const ThreadCpuTimer timer;
//          const auto start = ThreadCpuTimer::now();  work();  cost += timer.since(start);
#pragma once

#include <chrono>

namespace hitcounter {

class ThreadCpuTimer {
public:
    static constexpr int kOverheadTries = 64;

    ThreadCpuTimer();

    // The calling thread's CPU time so far.
    static std::chrono::nanoseconds now();
    // The cost of the work since `start` (a now() on this thread): now() - start - overhead(),
    // at least 0.
    std::chrono::nanoseconds since(std::chrono::nanoseconds start) const;
    std::chrono::nanoseconds overhead() const { return m_overhead; }

private:
    std::chrono::nanoseconds m_overhead;
};

}  // namespace hitcounter
