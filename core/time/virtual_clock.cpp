#include "core/time/virtual_clock.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hitcounter {

namespace {
double checkedSpeed(double speed) {
    if (std::isnan(speed)) {
        throw std::invalid_argument("virtual clock speed is not a number");
    }
    if (std::isinf(speed) && speed > 0) {
        return speed;
    }
    return std::clamp(speed, VirtualClock::kMinSpeed, VirtualClock::kMaxSpeed);
}
}  // namespace

VirtualClock::VirtualClock(Clock& base, std::chrono::nanoseconds start, double speed)
    : m_base(base),
      m_anchorBase(base.time()),
      m_anchorVirtual(start),
      m_speed(checkedSpeed(speed)) {}

std::chrono::nanoseconds VirtualClock::timeAtLocked(std::chrono::nanoseconds baseNow) const {
    if (m_paused || std::isinf(m_speed)) {
        return m_anchorVirtual;
    }
    // Rounded to the nearest nanosecond so that a whole number of base seconds at a speed
    // such as 0.1 lands exactly on the virtual second a test expects.
    const double elapsed = static_cast<double>((baseNow - m_anchorBase).count()) * m_speed;
    return m_anchorVirtual + std::chrono::nanoseconds(std::llround(elapsed));
}

std::chrono::nanoseconds VirtualClock::time() const {
    std::lock_guard lock(m_mutex);
    return timeAtLocked(m_base.time());
}

bool VirtualClock::sleepUntil(std::chrono::nanoseconds t, std::stop_token stop) {
    std::unique_lock lock(m_mutex);
    while (!stop.stop_requested()) {
        const auto baseNow = m_base.time();
        const auto now = timeAtLocked(baseNow);
        if (now >= t) {
            return true;
        }
        if (m_paused) {
            const auto generation = m_generation;
            m_changed.wait(lock, stop, [&] { return m_generation != generation; });
            continue;
        }
        if (std::isinf(m_speed)) {
            m_anchorVirtual = t;
            m_anchorBase = baseNow;
            return true;
        }
        const auto baseWait = std::chrono::nanoseconds(
            static_cast<std::int64_t>(std::ceil(static_cast<double>((t - now).count()) / m_speed)));
        const auto deadline = baseNow + std::max(baseWait, std::chrono::nanoseconds(1));
        const std::stop_token changed = m_wake.get_token();
        lock.unlock();
        {
            // The base clock takes one stop token: merge the caller's stop with our changes.
            std::stop_source interrupt;
            std::stop_callback onStop(stop, [&] { interrupt.request_stop(); });
            std::stop_callback onChange(changed, [&] { interrupt.request_stop(); });
            m_base.sleepUntil(deadline, interrupt.get_token());
        }
        lock.lock();
    }
    return false;
}

void VirtualClock::reanchorLocked() {
    const auto baseNow = m_base.time();
    m_anchorVirtual = timeAtLocked(baseNow);
    m_anchorBase = baseNow;
}

void VirtualClock::wakeSleepersLocked() {
    ++m_generation;
    m_wake.request_stop();
    m_wake = std::stop_source();
    m_changed.notify_all();
}

void VirtualClock::setSpeed(double speed) {
    const double checked = checkedSpeed(speed);
    std::lock_guard lock(m_mutex);
    reanchorLocked();
    m_speed = checked;
    wakeSleepersLocked();
}

double VirtualClock::speed() const {
    std::lock_guard lock(m_mutex);
    return m_speed;
}

bool VirtualClock::asFastAsPossible() const {
    std::lock_guard lock(m_mutex);
    return std::isinf(m_speed);
}

void VirtualClock::pause() {
    std::lock_guard lock(m_mutex);
    reanchorLocked();
    m_paused = true;
    wakeSleepersLocked();
}

void VirtualClock::resume() {
    std::lock_guard lock(m_mutex);
    reanchorLocked();
    m_paused = false;
    wakeSleepersLocked();
}

bool VirtualClock::paused() const {
    std::lock_guard lock(m_mutex);
    return m_paused;
}

void VirtualClock::seek(std::chrono::nanoseconds t) {
    std::lock_guard lock(m_mutex);
    m_anchorVirtual = t;
    m_anchorBase = m_base.time();
    wakeSleepersLocked();
}

}  // namespace hitcounter
