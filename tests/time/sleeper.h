// Sleeper: runs clock.sleepUntil(t) on its own std::jthread so a test can move the clock and
// then collect the outcome with a bounded wait (never a sleep).
#pragma once

#include <chrono>
#include <future>
#include <optional>
#include <thread>

#include "core/time/clock.h"

namespace hitcounter::test {

struct SleepOutcome {
    bool reached = false;
    std::chrono::nanoseconds timeAtWake{0};  // the clock's time when sleepUntil returned
};

class Sleeper {
public:
    Sleeper(Clock& clock, std::chrono::nanoseconds until)
        : m_future(m_promise.get_future()), m_thread([this, &clock, until](std::stop_token stop) {
              const bool reached = clock.sleepUntil(until, stop);
              m_promise.set_value(SleepOutcome{reached, clock.time()});
          }) {}

    // The outcome, or nullopt if the sleeper is still asleep after `patience`.
    std::optional<SleepOutcome> result(
        std::chrono::milliseconds patience = std::chrono::seconds(5)) {
        if (m_future.wait_for(patience) != std::future_status::ready) {
            return std::nullopt;
        }
        return m_future.get();
    }
    void stop() { m_thread.request_stop(); }

private:
    std::promise<SleepOutcome> m_promise;
    std::future<SleepOutcome> m_future;
    std::jthread m_thread;  // last: it starts using the members above at once
};

}  // namespace hitcounter::test
