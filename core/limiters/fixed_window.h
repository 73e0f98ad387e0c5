// FixedWindow ("fixed"): the window id is floor(t / W); a key accepts while its current
// window's accepted count is below L. The algorithm under KeyedLimiter (keyed_limiter.h, whose
// contract applies); this header holds the per-key state and the rule.
//
// Known flaw (the reason it is here): up to 2L requests pass in any W seconds that straddle a
// window boundary. Example, L = 2, W = 60: 58, 59, 60, 61 all accepted (58 and 59 fill window
// 0, window 1 starts empty at 60).
// State: 16 bytes per key. Idle horizon W: a key with no accepted request for W seconds is in
// a later window, so its state equals a fresh key's.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/limiters/rate_limiter.h"

namespace hitcounter {

struct FixedWindow {
    static constexpr std::string_view kName = "fixed";

    struct State {
        std::int64_t window = -1;  // floor(t / W) of the last accepted request
        Count accepted = 0;        // accepted in that window
    };

    // Decides n requests at t (the limiter's clock, never older than the last call).
    static Count admit(State& state, Timestamp t, Count n, const RateLimit& limit);
    static std::int64_t idleHorizon(const RateLimit& limit) { return limit.per.count(); }
    static std::size_t heapBytes(const State&) { return 0; }
    // The accepted count of t's window (0 if the state's window is older).
    static Count acceptedInWindow(const State& state, Timestamp t, const RateLimit& limit);
};

}  // namespace hitcounter
