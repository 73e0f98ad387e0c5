// JsWatchdog: stops a QJSEngine call that runs too long or takes too much memory (issue 24).
//
// Thread-safe: arm() and disarm() are called by the engine's thread; the watchdog's own thread
// (a std::jthread, stopped by its stop_token when the watchdog is destroyed) looks every
// kTick. The guarded members sit under m_mutex. When a call passes its deadline, or the
// process's resident memory passes the limit set at arm(), it calls
// QJSEngine::setInterrupted(true) (documented thread-safe) and records why.
//
// Example: arm(250 ms, 256 MiB); engine.evaluate("while (true) {}") returns an "Interrupted"
// error after about 255 ms; disarm() == Reason::Time; the caller then clears the interrupt.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <thread>

class QJSEngine;

namespace hitcounter::teachjs {

class JsWatchdog {
public:
    enum class Reason { None, Time, Memory };
    static constexpr std::chrono::milliseconds kTick{5};

    explicit JsWatchdog(QJSEngine& engine);
    ~JsWatchdog();
    JsWatchdog(const JsWatchdog&) = delete;
    JsWatchdog& operator=(const JsWatchdog&) = delete;

    // Watches the call about to start: at most `budget` of time and `memory` bytes of resident
    // memory more than now.
    void arm(std::chrono::milliseconds budget, std::size_t memory);
    // Ends the watch; what stopped the call, if anything.
    Reason disarm();

    // The process's resident memory in bytes (Linux: /proc/self/statm), 0 when unknown.
    static std::size_t residentBytes();

private:
    void watch(std::stop_token stop);

    QJSEngine& m_engine;
    std::mutex m_mutex;
    std::condition_variable_any m_wake;
    // Guarded by m_mutex:
    std::optional<std::chrono::steady_clock::time_point> m_deadline;  // empty: not armed
    std::size_t m_memoryLimit = 0;
    Reason m_reason = Reason::None;
    std::jthread m_thread;  // last: starts once the members above exist
};

}  // namespace hitcounter::teachjs
