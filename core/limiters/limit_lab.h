// LimitLab: several rate limiters (one per algorithm, same L and W) fed the same requests in
// lockstep, with each one's accepted and rejected totals and its WindowPeak (the largest number
// of accepted requests of one key in any (t - W, t]). The engine of `hitcounter-cli limit`,
// the Rate limits view and the rate-limit lessons.
//
// Not thread-safe; owned by one thread.
//
// Semantics: admit(key, t, n) gives the n requests to every limiter (rate_limiter.h) and
// records the accepted ones in that limiter's peak; totals saturate. Memory: the limiters and
// the peaks (each bounded by the keys active in the last 2W seconds). Cost: per request, one
// admit per limiter plus one peak record per limiter that accepted.
//
// Example, L = 2, W = 60, names {fixed, log}: admit("a", 58), (59), (60), (61)
//     -> fixed accepted 4 rejected 0 peak 4; log accepted 2 rejected 2 peak 2
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/limiters/rate_limiter.h"
#include "core/limiters/window_peak.h"

namespace hitcounter {

class LimitLab {
public:
    struct Lane {
        std::unique_ptr<RateLimiter> limiter;
        WindowPeak peak;
        Count accepted = 0;
        Count rejected = 0;
    };

    // Throws std::invalid_argument for an unknown name or L, W out of range.
    LimitLab(std::span<const std::string> names, RateLimit limit);

    // The accepted count per lane, in the constructor's order; valid until the next call.
    std::span<const Count> admit(std::string_view key, Timestamp t, Count n = 1);
    // Per lane, the key's accepted requests in (t - W, t] after the last admit() (0 where that
    // lane accepted none of it): above L marks a boundary burst. Valid until the next call.
    std::span<const Count> lastWindowCounts() const { return m_window; }
    // Moves every limiter's clock to now and evicts idle keys.
    void advance(Timestamp now);

    RateLimit limit() const { return m_limit; }
    const std::vector<Lane>& lanes() const { return m_lanes; }

private:
    RateLimit m_limit;
    std::vector<Lane> m_lanes;
    std::vector<Count> m_accepted;
    std::vector<Count> m_window;
};

}  // namespace hitcounter
