#include "app/cli/service_notify.h"

#include <systemd/sd-daemon.h>

#include <cstdlib>

namespace hitcounter::cli {

ServiceNotifier::ServiceNotifier() {
    const char* socket = std::getenv("NOTIFY_SOCKET");
    m_enabled = socket && *socket;
    std::uint64_t usec = 0;
    if (m_enabled && sd_watchdog_enabled(0, &usec) > 0)
        m_interval = std::chrono::microseconds(usec / 2);
}

void ServiceNotifier::send(const std::string& state) {
    if (m_enabled)
        sd_notify(0, state.c_str());
}

void ServiceNotifier::ready(const std::string& status) {
    send("READY=1\nSTATUS=" + status);
    m_lastPing = std::chrono::steady_clock::now();
}

void ServiceNotifier::reloading() {
    send("RELOADING=1\nSTATUS=reloading the config");
}

void ServiceNotifier::stopping() {
    send("STOPPING=1\nSTATUS=stopping: counting what arrived, then the report");
}

void ServiceNotifier::keepAlive(std::chrono::steady_clock::time_point now) {
    if (m_interval.count() == 0 || now - m_lastPing < m_interval)
        return;
    send("WATCHDOG=1");
    m_lastPing = now;
}

}  // namespace hitcounter::cli
