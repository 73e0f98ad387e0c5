#include "app/teach_js/js_watchdog.h"

#include <unistd.h>
#include <QJSEngine>
#include <cstdio>

namespace hitcounter::teachjs {

JsWatchdog::JsWatchdog(QJSEngine& engine)
    : m_engine(engine), m_thread([this](std::stop_token stop) { watch(stop); }) {}

JsWatchdog::~JsWatchdog() {
    m_thread.request_stop();
    m_wake.notify_all();
}

std::size_t JsWatchdog::residentBytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) {
        return 0;
    }
    unsigned long size = 0;
    unsigned long resident = 0;
    const int read = std::fscanf(f, "%lu %lu", &size, &resident);
    std::fclose(f);
    return read == 2 ? std::size_t(resident) * std::size_t(sysconf(_SC_PAGESIZE)) : 0;
}

void JsWatchdog::arm(std::chrono::milliseconds budget, std::size_t memory) {
    const std::size_t now = residentBytes();
    {
        const std::lock_guard lock(m_mutex);
        m_deadline = std::chrono::steady_clock::now() + budget;
        m_memoryLimit = now > 0 ? now + memory : 0;
        m_reason = Reason::None;
    }
    m_wake.notify_all();
}

JsWatchdog::Reason JsWatchdog::disarm() {
    const std::lock_guard lock(m_mutex);
    m_deadline.reset();
    return m_reason;
}

void JsWatchdog::watch(std::stop_token stop) {
    std::unique_lock lock(m_mutex);
    while (!stop.stop_requested()) {
        if (!m_deadline) {
            m_wake.wait(lock, stop, [this] { return m_deadline.has_value(); });
            continue;
        }
        m_wake.wait_for(lock, stop, kTick, [] { return false; });
        if (!m_deadline || m_reason != Reason::None) {
            continue;
        }
        const bool late = std::chrono::steady_clock::now() >= *m_deadline;
        const bool big = m_memoryLimit > 0 && residentBytes() > m_memoryLimit;
        if (late || big) {
            m_reason = late ? Reason::Time : Reason::Memory;
            m_engine.setInterrupted(true);
        }
    }
}

}  // namespace hitcounter::teachjs
