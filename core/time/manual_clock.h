// ManualClock: a clock that moves only when told to, for tests. A source waiting in
// sleepUntil() wakes as soon as the test advances the clock past its deadline, so tests
// never sleep.
//
// Thread-safe: m_mutex guards m_time; any thread may set or advance it.
//
//     ManualClock clock(std::chrono::seconds(100));
//     clock.advance(std::chrono::milliseconds(1500));   // clock.now() == 101
#pragma once

#include <condition_variable>
#include <mutex>

#include "core/time/clock.h"

namespace hitcounter {

class ManualClock final : public Clock {
public:
    explicit ManualClock(std::chrono::nanoseconds start = std::chrono::nanoseconds::zero())
        : m_time(start) {}

    std::chrono::nanoseconds time() const override;
    bool sleepUntil(std::chrono::nanoseconds t, std::stop_token stop) override;

    // Moves the clock to t (also backwards) and wakes every sleeper whose deadline passed.
    void set(std::chrono::nanoseconds t);
    void advance(std::chrono::nanoseconds d);

private:
    mutable std::mutex m_mutex;
    std::condition_variable_any m_changed;
    std::chrono::nanoseconds m_time;  // guarded by m_mutex
};

}  // namespace hitcounter
