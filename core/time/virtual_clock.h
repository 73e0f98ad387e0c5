// VirtualClock: simulated or replayed time that runs at a chosen speed against a base clock,
// can be paused, resumed and moved (seek). Replay and simulation run on it; the base clock
// is a WallClock in the program and a ManualClock in tests.
//
// Threading: thread-safe. m_mutex guards the mapping (m_anchorBase, m_anchorVirtual,
// m_speed, m_paused), m_generation and m_wake. Control calls (setSpeed, pause, resume,
// seek) may come from any thread (the GUI's) while a source's worker sleeps in
// sleepUntil(): every control call wakes the sleepers, which then re-plan their wait.
//
// Semantics:
//  - Running at speed s, virtual time advances s nanoseconds per base nanosecond:
//      time() = anchorVirtual + s * (base.time() - anchorBase)
//    Speeds are clamped to [kMinSpeed, kMaxSpeed] (0.1x to 1000x).
//  - kAsFastAsPossible: time stands still except that sleepUntil(t) moves it to t and
//    returns at once, so the sleeper runs as fast as it can (paced only by its consumer).
//  - While paused, time() stands still and sleepUntil() waits for resume() (or a stop).
//  - seek(t) sets time() to t; the speed and pause state are kept.
//  - Every change re-anchors at the current instant, so time() is continuous across speed
//    changes and pause/resume.
//
// Example: base at 0 s, VirtualClock v(base, 1000 s, 10.0);
//     base advances 2 s  =>  v.now() == 1020
//     v.pause(); base advances 5 s  =>  v.now() == 1020
//     v.resume(); v.setSpeed(0.5); base advances 2 s  =>  v.now() == 1021
#pragma once

#include <condition_variable>
#include <cstdint>
#include <limits>
#include <mutex>

#include "core/time/clock.h"

namespace hitcounter {

class VirtualClock final : public Clock {
public:
    static constexpr double kMinSpeed = 0.1;
    static constexpr double kMaxSpeed = 1000.0;
    static constexpr double kAsFastAsPossible = std::numeric_limits<double>::infinity();

    // `base` must outlive this clock. Throws std::invalid_argument for a NaN speed.
    VirtualClock(Clock& base, std::chrono::nanoseconds start, double speed = 1.0);

    std::chrono::nanoseconds time() const override;
    bool sleepUntil(std::chrono::nanoseconds t, std::stop_token stop) override;

    // Clamped to [kMinSpeed, kMaxSpeed] unless it is kAsFastAsPossible; throws
    // std::invalid_argument for NaN.
    void setSpeed(double speed);
    double speed() const;
    bool asFastAsPossible() const;

    void pause();
    void resume();
    bool paused() const;

    void seek(std::chrono::nanoseconds t);

private:
    std::chrono::nanoseconds timeAtLocked(std::chrono::nanoseconds baseNow) const;
    // Re-anchors the mapping at the current instant; call before changing it.
    void reanchorLocked();
    // Wakes every sleeper after a change of the mapping.
    void wakeSleepersLocked();

    Clock& m_base;
    mutable std::mutex m_mutex;
    std::condition_variable_any m_changed;
    std::chrono::nanoseconds m_anchorBase;     // guarded by m_mutex
    std::chrono::nanoseconds m_anchorVirtual;  // guarded by m_mutex
    double m_speed;                            // guarded by m_mutex
    bool m_paused = false;                     // guarded by m_mutex
    std::uint64_t m_generation = 0;            // guarded by m_mutex
    std::stop_source m_wake;                   // guarded by m_mutex; stopped on every change
};

}  // namespace hitcounter
