// ThresholdCrossings: when a series of window counts crosses a threshold, upwards or back down.
//
// Not thread-safe; owned by one thread (the GUI's threshold alerts). Plain C++, no Qt.
//
// A series (the total, or a key) is observed as (second, value) pairs in time order. A value
// is "above" when value >= threshold. Every change of side between two observations is one
// crossing, exactly, with no hysteresis: the crossing is reported at the second of the
// observation that is on the new side, with that value. A series starts below (a window
// count starts at 0), so a first observation at or above the threshold is an upward crossing.
// Observations of a second older than the series' last one are ignored (the head second may
// be observed again while it is open, and then counts).
//
// Example, threshold 10: (1, 4) (2, 10) (3, 12) (4, 9) (5, 9) (6, 11)
//   -> up at 2 (value 10), down at 4 (value 9), up at 6 (value 11).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/counters/window_counter.h"

namespace hitcounter {

enum class CrossingDirection { Up, Down };

struct ThresholdCrossing {
    Timestamp second = 0;
    std::string series;
    CrossingDirection direction = CrossingDirection::Up;
    Count value = 0;
    Count threshold = 0;
    bool operator==(const ThresholdCrossing&) const = default;
};

class ThresholdCrossings {
public:
    explicit ThresholdCrossings(Count threshold = 0) : m_threshold(threshold) {}

    // A new threshold: every series forgets its side (starts below again).
    void setThreshold(Count threshold);
    Count threshold() const { return m_threshold; }

    // Observes `series` at `second`; returns the crossing this observation makes, if any.
    std::optional<ThresholdCrossing> observe(const std::string& series, Timestamp second,
                                             Count value);
    // Observes a whole series in time order; returns its crossings, oldest first.
    std::vector<ThresholdCrossing> observeAll(
        const std::string& series, const std::vector<std::pair<Timestamp, Count>>& points);

    // Every series forgets its side and its last second (the counters restarted).
    void reset() { m_state.clear(); }
    // True if `series` was last seen at or above the threshold.
    bool above(const std::string& series) const;

private:
    struct State {
        bool above = false;
        Timestamp last = 0;
        bool seen = false;
    };
    Count m_threshold;
    std::map<std::string, State> m_state;
};

std::string_view crossingDirectionName(CrossingDirection direction);  // "up" / "down"

}  // namespace hitcounter
