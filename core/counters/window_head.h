// WindowHead: the bookkeeping every policy shares: the window length, the newest second seen
// ("head") and the late-hit rule. Not thread-safe; a member of one counter.
#pragma once

#include <chrono>
#include <optional>
#include <stdexcept>

#include "core/counters/saturating.h"
#include "core/counters/window_counter.h"

namespace hitcounter {

class WindowHead {
public:
    explicit WindowHead(std::chrono::seconds window) : m_window(window.count()) {
        if (m_window <= 0) {
            throw std::invalid_argument("window must be at least 1 second");
        }
    }

    std::int64_t windowSeconds() const { return m_window; }
    bool empty() const { return !m_head.has_value(); }
    // Precondition: !empty().
    Timestamp head() const { return *m_head; }

    // Moves the head forward to t if t is newer; returns the previous head (nullopt if none).
    std::optional<Timestamp> advance(Timestamp t) {
        const std::optional<Timestamp> previous = m_head;
        if (!m_head || t > *m_head) {
            m_head = t;
        }
        return previous;
    }

    // True if a hit at t is older than the window and must be dropped (counts it).
    bool dropIfLate(Timestamp t, Count n) {
        if (m_head && t <= *m_head - m_window) {
            m_droppedLate = saturatingAdd(m_droppedLate, n);
            return true;
        }
        return false;
    }

    // The oldest second a query at t may see: seconds > lowerBound(t) are counted.
    Timestamp lowerBound(Timestamp t) const {
        const Timestamp newest = m_head && *m_head > t ? *m_head : t;
        return newest - m_window;
    }

    Count droppedLate() const { return m_droppedLate; }

private:
    std::int64_t m_window;
    std::optional<Timestamp> m_head;
    Count m_droppedLate = 0;
};

}  // namespace hitcounter
