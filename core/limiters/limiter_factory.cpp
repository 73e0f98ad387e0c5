#include "core/limiters/limiter_factory.h"

#include <array>

#include "core/limiters/fixed_window.h"
#include "core/limiters/keyed_limiter.h"
#include "core/limiters/sliding_counter.h"
#include "core/limiters/sliding_log.h"
#include "core/limiters/token_bucket.h"

namespace hitcounter {

namespace {
constexpr std::array<std::string_view, 4> kNames{FixedWindow::kName, SlidingLog::kName,
                                                 SlidingCounter::kName, TokenBucket::kName};
}  // namespace

std::span<const std::string_view> limiterNames() {
    return kNames;
}

std::unique_ptr<RateLimiter> makeLimiter(std::string_view name, const RateLimit& limit) {
    if (name == FixedWindow::kName)
        return std::make_unique<KeyedLimiter<FixedWindow>>(limit);
    if (name == SlidingLog::kName)
        return std::make_unique<KeyedLimiter<SlidingLog>>(limit);
    if (name == SlidingCounter::kName)
        return std::make_unique<KeyedLimiter<SlidingCounter>>(limit);
    if (name == TokenBucket::kName)
        return std::make_unique<KeyedLimiter<TokenBucket>>(limit);
    return nullptr;
}

}  // namespace hitcounter
