#include "core/limiters/keyed_limiter.h"

#include <stdexcept>
#include <string>

namespace hitcounter {

void checkRateLimit(const RateLimit& limit) {
    if (limit.limit < 1 || limit.limit > kMaxRateLimit)
        throw std::invalid_argument("rate limit L = " + std::to_string(limit.limit) +
                                    " is out of range; expected 1 to " +
                                    std::to_string(kMaxRateLimit) + " requests");
    if (limit.per.count() < 1 || limit.per > kMaxRatePeriod)
        throw std::invalid_argument("rate period W = " + std::to_string(limit.per.count()) +
                                    " s is out of range; expected 1 to " +
                                    std::to_string(kMaxRatePeriod.count()) + " seconds");
}

}  // namespace hitcounter
