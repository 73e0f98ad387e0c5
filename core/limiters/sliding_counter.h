// SlidingCounter ("counter", the sliding window counter): with curr the current fixed
// window's accepted count and prev the previous window's (0 if that window had none), a key
// accepts while
//     prev x (W - (t mod W)) + curr x W < L x W
// i.e. the previous window weighted by the part of it still inside (t - W, t]. The algorithm
// under KeyedLimiter (keyed_limiter.h, whose contract applies); this header holds the state
// and the rule. Products are taken in 128 bits, so L and W up to 2^62 cannot overflow.
//
// Approximate: it assumes the previous window's requests were spread evenly. Example, L = 2,
// W = 60: 58, 59 accepted (window 0); at 60 prev = 2: 2 x 60 = 120 is not < 120, rejected; at
// 61: 2 x 59 = 118 < 120, accepted (the log would reject it).
// State: 24 bytes per key. Idle horizon 2W: after 2W seconds without an accepted request both
// the current and the previous window are empty.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/limiters/rate_limiter.h"

namespace hitcounter {

struct SlidingCounter {
    static constexpr std::string_view kName = "counter";

    struct State {
        std::int64_t window = -1;  // floor(t / W) of the last accepted request
        Count current = 0;         // accepted in that window
        Count previous = 0;        // accepted in the window before it
    };
    // The two counts as seen from t's window.
    struct Counts {
        Count previous = 0;
        Count current = 0;
    };

    static Count admit(State& state, Timestamp t, Count n, const RateLimit& limit);
    static std::int64_t idleHorizon(const RateLimit& limit) { return 2 * limit.per.count(); }
    static std::size_t heapBytes(const State&) { return 0; }
    static Counts countsAt(const State& state, Timestamp t, const RateLimit& limit);
};

}  // namespace hitcounter
