#include "core/limiters/fixed_window.h"

#include <algorithm>

namespace hitcounter {

Count FixedWindow::acceptedInWindow(const State& state, Timestamp t, const RateLimit& limit) {
    return t / limit.per.count() == state.window ? state.accepted : 0;
}

Count FixedWindow::admit(State& state, Timestamp t, Count n, const RateLimit& limit) {
    const Count used = acceptedInWindow(state, t, limit);
    const Count accepted = std::min(n, limit.limit - used);
    if (accepted > 0) {
        state.window = t / limit.per.count();
        state.accepted = used + accepted;
    }
    return accepted;
}

}  // namespace hitcounter
