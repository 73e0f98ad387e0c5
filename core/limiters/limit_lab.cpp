#include "core/limiters/limit_lab.h"

#include <stdexcept>

#include "core/base/saturating.h"
#include "core/limiters/limiter_factory.h"

namespace hitcounter {

LimitLab::LimitLab(std::span<const std::string> names, RateLimit limit) : m_limit(limit) {
    for (const auto& name : names) {
        auto limiter = makeLimiter(name, limit);
        if (!limiter)
            throw std::invalid_argument("unknown rate limiter '" + name + "'");
        m_lanes.push_back(Lane{std::move(limiter), WindowPeak(limit.per)});
    }
    m_accepted.resize(m_lanes.size());
    m_window.resize(m_lanes.size());
}

std::span<const Count> LimitLab::admit(std::string_view key, Timestamp t, Count n) {
    for (std::size_t i = 0; i < m_lanes.size(); ++i) {
        Lane& lane = m_lanes[i];
        const Count accepted = lane.limiter->admit(key, t, n);
        m_accepted[i] = accepted;
        lane.accepted = saturatingAdd(lane.accepted, accepted);
        lane.rejected = saturatingAdd(lane.rejected, n - accepted);
        m_window[i] = accepted > 0 ? lane.peak.record(key, t, accepted) : 0;
    }
    return m_accepted;
}

void LimitLab::advance(Timestamp now) {
    for (Lane& lane : m_lanes)
        lane.limiter->advance(now);
}

}  // namespace hitcounter
