// AcceptedTimes: the window of hit times a component takes, around its own clock's now.
//
// Value type, thread-safe. A time t is accepted when now - past <= t <= now + future (both
// allowances whole seconds from 0 to kMaxAcceptance, which keeps now +- them in range for any
// now the counters take, below 2^62).
// Used where client-sent times reach Redis (docs/redis.md, "Accepted times"): a time far from
// now would create keys that outlive the data by decades, or that Redis cannot expire.
//   AcceptedTimes{3600, 300}.problem(1000, 5000) == "time more than 3600 s before now"
//   AcceptedTimes{3600, 300}.problem(5300, 5000) == ""  (accepted)
#pragma once

#include <limits>
#include <string>

#include "core/base/types.h"

namespace hitcounter {

struct AcceptedTimes {
    static constexpr Timestamp kMaxAcceptance = std::numeric_limits<Timestamp>::max() / 4;
    static constexpr Timestamp kDefaultPast = 86400;  // a day: late data still adds to totals
    static constexpr Timestamp kDefaultFuture = 300;  // clock skew of a few minutes

    Timestamp past = kDefaultPast;
    Timestamp future = kDefaultFuture;

    bool accepts(Timestamp time, Timestamp now) const {
        return time >= now - past && time <= now + future;
    }
    // "" when accepted, else what is wrong with `time` ("time more than N s before now" or
    // "time more than N s after now"), naming the allowance.
    std::string problem(Timestamp time, Timestamp now) const {
        if (time < now - past)
            return "time more than " + std::to_string(past) + " s before now";
        if (time > now + future)
            return "time more than " + std::to_string(future) + " s after now";
        return {};
    }
};

}  // namespace hitcounter
