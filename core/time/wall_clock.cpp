#include "core/time/wall_clock.h"

#include <condition_variable>
#include <mutex>

namespace hitcounter {

WallClock::WallClock()
    : m_steadyAnchor(std::chrono::steady_clock::now()),
      m_unixAnchor(std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::system_clock::now().time_since_epoch())) {}

std::chrono::nanoseconds WallClock::time() const {
    return m_unixAnchor + (std::chrono::steady_clock::now() - m_steadyAnchor);
}

bool WallClock::sleepUntil(std::chrono::nanoseconds t, std::stop_token stop) {
    const auto deadline = m_steadyAnchor + (t - m_unixAnchor);
    // A private mutex and condition variable: nothing notifies them, they exist so the wait
    // can be interrupted by the stop token.
    std::mutex mutex;
    std::condition_variable_any cv;
    std::unique_lock lock(mutex);
    cv.wait_until(lock, stop, deadline, [] { return false; });
    return !stop.stop_requested();
}

}  // namespace hitcounter
