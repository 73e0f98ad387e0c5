// WindowHead: the bookkeeping every policy shares: the window length, the newest second seen
// ("head") and the late-hit rule. Not thread-safe; a member of one counter.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "core/base/saturating.h"
#include "core/base/types.h"

namespace hitcounter {

class WindowHead {
public:
    explicit WindowHead(std::chrono::seconds window) : m_window(window.count()) {
        if (m_window <= 0) {
            throw std::invalid_argument("window must be at least 1 second");
        }
    }

    std::int64_t windowSeconds() const { return m_window; }
    bool empty() const { return m_head == kNone; }
    // The newest second seen; lower than every timestamp while empty().
    Timestamp head() const { return m_head; }
    // The newest second that is out of the window: hits at or before it are late.
    Timestamp newestOut() const { return m_newestOut; }

    // Moves the head forward to t if t is newer.
    void advance(Timestamp t) {
        if (t > m_head) {
            m_head = t;
            m_newestOut = t - m_window;
        }
    }

    // advance() for t == head + 1 on a head that is not empty (no compare).
    void stepTo(Timestamp t) {
        m_head = t;
        m_newestOut = t - m_window;
    }

    // True if a hit at t is older than the window and must be dropped (counts it).
    bool dropIfLate(Timestamp t, Count n) {
        if (t <= m_newestOut) {
            m_droppedLate = saturatingAdd(m_droppedLate, n);
            return true;
        }
        return false;
    }

    // The oldest second a query at t may see: seconds > lowerBound(t) are counted.
    Timestamp lowerBound(Timestamp t) const { return (m_head > t ? m_head : t) - m_window; }

    Count droppedLate() const { return m_droppedLate; }

private:
    static constexpr Timestamp kNone = std::numeric_limits<Timestamp>::min();

    std::int64_t m_window;
    Timestamp m_head = kNone;
    Timestamp m_newestOut = kNone;
    Count m_droppedLate = 0;
};

}  // namespace hitcounter
