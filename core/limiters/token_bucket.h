// TokenBucket ("bucket"): capacity L tokens, refilled continuously at L/W tokens per second,
// full at a key's first request; a request is accepted when at least one whole token is left,
// and takes it. The algorithm under KeyedLimiter (keyed_limiter.h, whose contract applies);
// this header holds the per-key state and the rule.
//
// Integer arithmetic: tokens are kept in units of 1/W token, so the capacity is L x W units,
// a second refills L units and a request takes W units, all exact (128-bit; L and W up to 2^62).
// The state stores the units missing from a full bucket, so a fresh key (State{}) is full.
// Forgiving: after a quiet spell a key may send L at once, and evenly spaced traffic at the
// rate L/W always passes. Example, L = 2, W = 60: 58 accepted (2 -> 1 token), 59 accepted
// (1 + 1/30 -> 1/30), 60 and 61 rejected (1/15, 1/10 of a token), 88 accepted (exactly 1).
// State: 32 bytes per key. Idle horizon W: W seconds refill L tokens, a full bucket.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/base/saturating.h"
#include "core/limiters/rate_limiter.h"

namespace hitcounter {

struct TokenBucket {
    static constexpr std::string_view kName = "bucket";

    struct State {
        Wide128 missing = 0;  // units (1/W token) below full, after the refill up to `refilled`
        Timestamp refilled = 0;
    };

    static Count admit(State& state, Timestamp t, Count n, const RateLimit& limit);
    static std::int64_t idleHorizon(const RateLimit& limit) { return limit.per.count(); }
    static std::size_t heapBytes(const State&) { return 0; }
    // The tokens at t in units of 1/W token (divide by W for whole tokens), in [0, L x W].
    static Wide128 unitsAt(const State& state, Timestamp t, const RateLimit& limit);
};

}  // namespace hitcounter
