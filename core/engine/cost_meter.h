// CostMeter: what each counting policy costs per hit() and per getHits() (count()), measured on
// the recent stream as the source delivered it, on a measuring thread of its own beside the
// counting thread. The policy comparison's cost figures (PolicyCosts) come from here.
//
// Threading: observe() is called by the counting thread (EngineWorker) for each batch it counts;
// setPolicies(), latest(), start(), stop() from any thread. m_mutex guards m_capture,
// m_capturing, m_options and m_latest. The measuring thread (a std::jthread, stopped through
// its stop_token) runs at the lowest priority (nice 19): it takes a core only when the counting,
// the sources and the GUI leave one, so measuring never slows ingest.
//
// Method, once per refresh (about every kPause + kCaptureTime):
//  1. Capture: the hits the counting thread counts next, as delivered (each HitEvent's time and
//     count in arrival order, not summed per second), until kStreamEvents of them or for at most
//     kCaptureTime. observe() costs one relaxed atomic load per batch outside a capture and one
//     copy of 16 bytes per event during it. No hit in kCaptureTime (a paused replay, a quiet
//     listener): no refresh, the last figures stay.
//  2. Replay, in tight loops, through a fresh instance of each policy (the factory, or
//     EngineOptions::makePolicy) in a timed Lockstep of its own (lockstep.h, as
//     `hitcounter-cli replay` times its policies): the captured stream, repeated with its times
//     shifted by its span until at least kMinOps hits, fed as one batch (ns per hit); then
//     kMinOps getHits calls at the head moving one second every 64 calls (ns per getHits).
//     Policies are interleaved (round r measures every policy once, starting with policy r),
//     kSamples rounds.
//  3. Figures: per policy the median of its samples and their spread (lowest and highest), in
//     thread CPU time with the clock's own cost kept out (thread_cpu_timer.h, the project's one
//     definition of cost): a sample the scheduler interrupts is not charged for the wait.
// Cost: per refresh about kSamples * policies * 2 * kMinOps calls; naive's getHits is O(hits
// held), so it takes most of it (tens of ms a sample). Memory: the stream (at most
// kStreamEvents * 16 bytes), the repeated copy and one policy instance at a time.
//
// Example: CostMeter meter;  meter.setPolicies(options);  meter.start();
//          counting thread: meter.observe(batch);   a frame: frame.costs = meter.latest();
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/base/hit_event.h"
#include "core/engine/engine.h"
#include "core/engine/policy_costs.h"

namespace hitcounter {

class CostMeter {
public:
    // Hits as delivered: (time, count) in arrival order, one run each.
    using Stream = std::vector<SecondHits>;

    static constexpr std::size_t kStreamEvents = 8192;
    static constexpr std::size_t kMinOps = 10000;
    static constexpr std::size_t kSamples = 5;
    static constexpr std::chrono::milliseconds kCaptureTime{2000};
    static constexpr std::chrono::milliseconds kPause{2000};

    CostMeter() = default;
    ~CostMeter();
    CostMeter(const CostMeter&) = delete;
    CostMeter& operator=(const CostMeter&) = delete;

    void start();
    // Requests a stop and joins (a measurement in progress ends after its current sample).
    void stop();

    // The policies (and window, coarse bucket, factory) measured from the next refresh on.
    void setPolicies(const EngineOptions& options);
    // Counting thread: a batch it counts (Hits or Rebuild of the current epoch).
    void observe(const HitBatch& batch);
    PolicyCosts latest() const;

    // One measurement of `stream` on the caller's thread: what the measuring thread does each
    // refresh (refresh stays 0). `stream` must not be empty; empty costs if stopped.
    static PolicyCosts measure(const Stream& stream, const EngineOptions& options,
                               std::stop_token stop = {});

private:
    void run(std::stop_token stop);

    mutable std::mutex m_mutex;
    std::condition_variable_any m_captured;  // the capture is full
    Stream m_capture;                        // guarded by m_mutex
    std::atomic<bool> m_capturing{false};    // written under m_mutex
    EngineOptions m_options;                 // guarded by m_mutex
    PolicyCosts m_latest;                    // guarded by m_mutex
    std::jthread m_thread;  // last: joined before the members it uses are destroyed
};

}  // namespace hitcounter
