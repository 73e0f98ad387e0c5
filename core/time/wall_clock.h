// WallClock: real time for live sources.
//
// Thread-safe (immutable after construction). time() is unix time read once at construction
// and advanced by std::chrono::steady_clock from then on, so it never steps back; a later
// step of the system clock (NTP, the user) is not followed. sleepUntil() waits on the steady
// clock and wakes at once on a stop request.
#pragma once

#include "core/time/clock.h"

namespace hitcounter {

class WallClock final : public Clock {
public:
    WallClock();

    std::chrono::nanoseconds time() const override;
    bool sleepUntil(std::chrono::nanoseconds t, std::stop_token stop) override;

private:
    const std::chrono::steady_clock::time_point m_steadyAnchor;
    const std::chrono::nanoseconds m_unixAnchor;
};

}  // namespace hitcounter
