// SlidingLog ("log"): keeps the accepted timestamps of a key; an entry e with t - e >= W has
// expired; a key accepts while fewer than L entries remain. The algorithm under KeyedLimiter
// (keyed_limiter.h, whose contract applies); this header holds the per-key state and the rule.
//
// Exact: never more than L accepted in any (t - W, t]. Example, L = 2, W = 60: 58 and 59
// accepted, 60 and 61 rejected (both earlier entries are still younger than 60 s), 118
// accepted (58 expired: 118 - 58 >= 60).
// State: a RunLog (run_log.h), one 16-byte run per distinct second with accepted requests in
// the window: at most min(L, W) runs per key. Expired runs are dropped at the key's next
// request (that is bookkeeping, not a decision's state: it happens on rejects too).
// Idle horizon W: after W seconds without an accepted request every entry has expired.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/limiters/rate_limiter.h"
#include "core/limiters/run_log.h"

namespace hitcounter {

struct SlidingLog {
    static constexpr std::string_view kName = "log";

    using State = RunLog;

    static Count admit(State& state, Timestamp t, Count n, const RateLimit& limit);
    static std::int64_t idleHorizon(const RateLimit& limit) { return limit.per.count(); }
    static std::size_t heapBytes(const State& state) { return state.heapBytes(); }
};

}  // namespace hitcounter
