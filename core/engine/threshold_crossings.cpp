#include "core/engine/threshold_crossings.h"

namespace hitcounter {

void ThresholdCrossings::setThreshold(Count threshold) {
    m_threshold = threshold;
    m_state.clear();
}

std::optional<ThresholdCrossing> ThresholdCrossings::observe(const std::string& series,
                                                             Timestamp second, Count value) {
    State& state = m_state[series];
    if (state.seen && second < state.last) {
        return std::nullopt;
    }
    state.seen = true;
    state.last = second;
    const bool above = value >= m_threshold;
    if (above == state.above) {
        return std::nullopt;
    }
    state.above = above;
    return ThresholdCrossing{second, series,
                             above ? CrossingDirection::Up : CrossingDirection::Down, value,
                             m_threshold};
}

std::vector<ThresholdCrossing> ThresholdCrossings::observeAll(
    const std::string& series, const std::vector<std::pair<Timestamp, Count>>& points) {
    std::vector<ThresholdCrossing> out;
    for (const auto& [second, value] : points) {
        if (auto crossing = observe(series, second, value)) {
            out.push_back(std::move(*crossing));
        }
    }
    return out;
}

bool ThresholdCrossings::above(const std::string& series) const {
    const auto it = m_state.find(series);
    return it != m_state.end() && it->second.above;
}

std::string_view crossingDirectionName(CrossingDirection direction) {
    return direction == CrossingDirection::Up ? "up" : "down";
}

}  // namespace hitcounter
