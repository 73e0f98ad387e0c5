// Clock: where sources get their time. Wall time for live sources, a virtual clock for
// simulation and replay, a manual clock for tests (which never sleep).
//
// Threading: every implementation here is thread-safe; time() and now() may be called from
// any thread, and sleepUntil() from any number of threads at once.
//
// One time scale per clock: time() is nanoseconds since the unix epoch (wall clock) or since
// the trace's epoch (virtual clock); now() is the same instant truncated to whole seconds,
// the unit the counters take. Example: time() == 12'700'000'000ns  =>  now() == 12.
#pragma once

#include <chrono>
#include <stop_token>

#include "core/base/types.h"

namespace hitcounter {

class Clock {
public:
    virtual ~Clock() = default;

    // The current time, finer than a second (for pacing).
    virtual std::chrono::nanoseconds time() const = 0;

    // Blocks until time() >= t or a stop is requested on `stop`. Returns true when t was
    // reached, false when it returned because of the stop request. Returns at once if t has
    // already passed.
    virtual bool sleepUntil(std::chrono::nanoseconds t, std::stop_token stop) = 0;

    // The current whole second: floor(time() / 1 s).
    Timestamp now() const { return std::chrono::floor<std::chrono::seconds>(time()).count(); }
};

// Whole seconds as the clock's fine time, e.g. sleepUntil(atSecond(t), stop).
constexpr std::chrono::nanoseconds atSecond(Timestamp t) {
    return std::chrono::seconds(t);
}

}  // namespace hitcounter
