#include "core/counters/naive_counter.h"

namespace hitcounter {

NaiveCounter::NaiveCounter(std::chrono::seconds window) : m_head(window) {}

void NaiveCounter::hit(Timestamp t, Count n) {
    if (m_head.dropIfLate(t, n)) {
        return;
    }
    m_head.advance(t);
    m_calls.push_back(Call{t, n});
}

Count NaiveCounter::count(Timestamp t) {
    m_head.advance(t);
    const Timestamp lower = m_head.lowerBound(t);
    Wide128 sum = 0;
    for (const Call& call : m_calls) {
        if (call.second > lower && call.second <= t) {
            sum += call.count;
        }
    }
    return clampToCount(sum);
}

}  // namespace hitcounter
