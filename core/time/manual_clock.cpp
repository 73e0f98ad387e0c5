#include "core/time/manual_clock.h"

namespace hitcounter {

std::chrono::nanoseconds ManualClock::time() const {
    std::lock_guard lock(m_mutex);
    return m_time;
}

bool ManualClock::sleepUntil(std::chrono::nanoseconds t, std::stop_token stop) {
    std::unique_lock lock(m_mutex);
    return m_changed.wait(lock, stop, [&] { return m_time >= t; });
}

void ManualClock::set(std::chrono::nanoseconds t) {
    {
        std::lock_guard lock(m_mutex);
        m_time = t;
    }
    m_changed.notify_all();
}

void ManualClock::advance(std::chrono::nanoseconds d) {
    {
        std::lock_guard lock(m_mutex);
        m_time += d;
    }
    m_changed.notify_all();
}

}  // namespace hitcounter
