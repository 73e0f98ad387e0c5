#include "core/limiters/sliding_log.h"

#include <algorithm>

namespace hitcounter {

Count SlidingLog::admit(State& state, Timestamp t, Count n, const RateLimit& limit) {
    state.expire(t, limit.per.count());
    const Count accepted = std::min(n, limit.limit - state.total());
    state.append(t, accepted);
    return accepted;
}

}  // namespace hitcounter
