#include "core/limiters/token_bucket.h"

#include <algorithm>

namespace hitcounter {

Wide128 TokenBucket::unitsAt(const State& state, Timestamp t, const RateLimit& limit) {
    const Wide128 capacity = Wide128{limit.limit} * static_cast<Wide128>(limit.per.count());
    if (state.missing == 0)
        return capacity;
    const Wide128 refill =
        static_cast<Wide128>(std::max<Timestamp>(t - state.refilled, 0)) * limit.limit;
    return refill >= state.missing ? capacity : capacity - (state.missing - refill);
}

Count TokenBucket::admit(State& state, Timestamp t, Count n, const RateLimit& limit) {
    const Wide128 w = static_cast<Wide128>(limit.per.count());
    const Wide128 units = unitsAt(state, t, limit);
    const Count accepted = static_cast<Count>(std::min<Wide128>(n, units / w));
    if (accepted > 0) {
        const Wide128 capacity = Wide128{limit.limit} * w;
        state.missing = capacity - (units - Wide128{accepted} * w);
        state.refilled = t;
    }
    return accepted;
}

}  // namespace hitcounter
