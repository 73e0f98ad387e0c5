// SimulatorSource: simulated traffic (TrafficModel) delivered live on a worker thread, at
// any speed.
//
// Threading: start() and stop() from the owner thread. Every other call (setRate,
// setPattern, setSpeed, pause, resume, now, position, stats, traffic, describe) is
// thread-safe and may come from any thread (the GUI's) while the worker runs: m_modelMutex
// guards m_model; the clock is thread-safe; the rest are atomics.
//
// Semantics:
//  - The source keeps its own VirtualClock over `base` (a WallClock in the program, a
//    ManualClock in tests). It starts at `start` (default: base.now() when start() is
//    called) and runs at `speed` (0.1x..1000x or VirtualClock::kAsFastAsPossible).
//  - When the clock reaches second t, the worker sends the events of second t (all at once:
//    counts at second granularity are final as soon as the second begins). If it wakes
//    late, it catches up, one batch per second; more than kMaxCatchUp seconds behind, the
//    older seconds are skipped.
//  - With `catchUp` (a warm-up: `start` in the past), the seconds before the base clock's
//    now are sent as fast as the consumer takes them; then the clock joins the base clock's
//    now and runs at `speed`. The switch is the worker's own, between two seconds, so the
//    simulated time never runs ahead of the base clock. setSpeed() while catching up sets
//    the speed it runs at afterwards.
//  - With `duration`, seconds [start, start + duration) are sent and the worker ends
//    (running() turns false); without, it runs until stop().
//  - Live speeds use tryPush (a full queue drops and counts); as fast as possible waits for
//    room instead, so the consumer sets the pace and nothing is dropped.
//  - setRate/setPattern take effect from the next second generated.
//  - stats(): packets = simulated seconds sent, lines = events (HitEvents) generated,
//    hits/lateHits/dropped as in BatchSender; badLines and ignoredLines stay 0.
//
// Example (tests): ManualClock base(100s);
//     SimulatorSource sim(base, {.traffic = {.rate = 10}, .start = 100, .duration = 2s});
//     sim.start(queue); base.advance(1s);   // the queue receives second 100, then 101:
//                                           // 20 hits; then running() == false
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>

#include "core/sim/traffic_model.h"
#include "core/sources/source.h"
#include "core/sources/source_capabilities.h"
#include "core/sources/source_counters.h"
#include "core/time/virtual_clock.h"

namespace hitcounter {

struct SimulatorOptions {
    TrafficOptions traffic;
    std::optional<Timestamp> start;                  // default: the base clock's now at start()
    std::optional<std::chrono::seconds> duration{};  // default: until stop()
    double speed = 1.0;                              // or VirtualClock::kAsFastAsPossible
    bool catchUp = false;  // as fast as possible up to the base clock's now, then `speed`
};

// Offers SpeedControl (source_capabilities.h), not Pausable: see there.
class SimulatorSource final : public Source, public SpeedControl {
public:
    static constexpr Timestamp kMaxCatchUp = 3600;

    // `base` must outlive the source. Throws std::invalid_argument for bad traffic options.
    SimulatorSource(Clock& base, const SimulatorOptions& options);
    ~SimulatorSource() override;

    void start(BatchQueue& out) override;
    void stop() override;
    bool running() const override;
    SourceStats stats() const override;
    std::string describe() const override;
    SpeedControl* speedControl() override { return this; }

    // Throws std::invalid_argument for a rate outside [0, 10^7].
    void setRate(double hitsPerSecond);
    void setPattern(TrafficPattern pattern);
    TrafficOptions traffic() const;

    // While catching up: the speed after it (speed() stays kAsFastAsPossible until then).
    void setSpeed(double speed) override;
    double speed() const override;
    // Still sending the seconds before the base clock's now (SimulatorOptions::catchUp).
    bool catchingUp() const { return m_catchingUp.load(); }
    void pause();
    void resume();
    bool paused() const;

    // The simulated time (the counters' "now").
    Timestamp now() const { return m_clock.now(); }
    // The next second to generate; every second before it has been sent.
    Timestamp position() const { return m_position.load(); }

private:
    void run(std::stop_token stop, BatchQueue& out, Timestamp first);
    // Ends the catch-up once second `next` lies ahead of the base clock: the clock joins the
    // base clock's now at the speed asked for.
    void endCatchUpBefore(Timestamp next);

    Clock& m_base;
    const SimulatorOptions m_options;
    mutable std::mutex m_modelMutex;
    TrafficModel m_model;  // guarded by m_modelMutex
    VirtualClock m_clock;
    SourceCounters m_counters;
    std::atomic<Timestamp> m_position{0};
    std::atomic<bool> m_running{false};
    std::mutex m_speedMutex;  // orders setSpeed() with the end of the catch-up
    std::atomic<bool> m_catchingUp{false};
    double m_speedAfterCatchUp;  // guarded by m_speedMutex
    std::jthread m_worker;       // last: joined before the members it uses are destroyed
};

}  // namespace hitcounter
