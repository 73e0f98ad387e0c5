#include "core/limiters/sliding_counter.h"

#include <algorithm>

#include "core/base/saturating.h"

namespace hitcounter {

SlidingCounter::Counts SlidingCounter::countsAt(const State& state, Timestamp t,
                                                const RateLimit& limit) {
    const std::int64_t window = t / limit.per.count();
    if (window == state.window)
        return {state.previous, state.current};
    if (window == state.window + 1)
        return {state.current, 0};
    return {};
}

Count SlidingCounter::admit(State& state, Timestamp t, Count n, const RateLimit& limit) {
    const Wide128 w = static_cast<Wide128>(limit.per.count());
    const Counts counts = countsAt(state, t, limit);
    const Wide128 weightedPrevious =
        Wide128{counts.previous} * (w - Wide128(t % limit.per.count()));
    const Wide128 budget = Wide128{limit.limit} * w;
    if (weightedPrevious >= budget)
        return 0;
    // The j-th request (from 0) passes while (current + j) x W < budget - weightedPrevious.
    const Wide128 passing = (budget - weightedPrevious + w - 1) / w;
    if (passing <= counts.current)
        return 0;
    const Count accepted = static_cast<Count>(std::min<Wide128>(n, passing - counts.current));
    state.window = t / limit.per.count();
    state.previous = counts.previous;
    state.current = counts.current + accepted;
    return accepted;
}

}  // namespace hitcounter
