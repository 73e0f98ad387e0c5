// Creating rate limiters by name ("fixed", "log", "counter", "bucket"), for the CLI, the GUI,
// the lessons and the tests. Every limiter follows rate_limiter.h's contract.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "core/limiters/rate_limiter.h"

namespace hitcounter {

// Every algorithm name, in display order: fixed, log, counter, bucket.
std::span<const std::string_view> limiterNames();

// nullptr if the name is unknown. Throws std::invalid_argument for L or W out of range
// (checkRateLimit in keyed_limiter.h).
std::unique_ptr<RateLimiter> makeLimiter(std::string_view name, const RateLimit& limit);

}  // namespace hitcounter
