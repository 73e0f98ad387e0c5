// ServiceNotifier: listen's side of systemd's notify protocol (sd_notify(3), libsystemd), for
// a unit with Type=notify and WatchdogSec= (resources/hitcounter.service): READY=1 once every
// source listens, WATCHDOG=1 from the counting loop at half the watchdog interval (so a loop
// that stops turning gets the process restarted), RELOADING=1 / READY=1 around a SIGHUP
// reload, STOPPING=1 at the stop, and STATUS= lines a person sees in `systemctl status`.
// Without systemd (NOTIFY_SOCKET unset) every call does nothing and costs a branch.
//
// Threading: main thread only (the counting loop's).
#pragma once

#include <chrono>
#include <string>

namespace hitcounter::cli {

class ServiceNotifier {
public:
    // Reads NOTIFY_SOCKET and WATCHDOG_USEC (sd_watchdog_enabled) once.
    ServiceNotifier();

    void ready(const std::string& status);
    void reloading();
    void stopping();
    // Pings the watchdog if half its interval has passed since the last ping.
    void keepAlive(std::chrono::steady_clock::time_point now);

    bool watchdog() const { return m_interval.count() > 0; }

private:
    void send(const std::string& state);

    bool m_enabled = false;
    std::chrono::microseconds m_interval{0};  // the ping period: half of WATCHDOG_USEC
    std::chrono::steady_clock::time_point m_lastPing;
};

}  // namespace hitcounter::cli
