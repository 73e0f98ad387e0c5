#include "core/engine/limits_feed.h"

#include <algorithm>

#include "core/base/saturating.h"
#include "core/engine/history_delta.h"

namespace hitcounter {

LimitsFeed::LimitsFeed(LimitsOptions options) : m_dirtyFrom(kNoChangedSecond) {
    restart(std::move(options));
}

LimitsFeed::~LimitsFeed() = default;

void LimitsFeed::restart(LimitsOptions options) {
    // Build first: a bad option leaves the running lab as it was.
    std::unique_ptr<LimitLab> lab;
    if (options.enabled) {
        lab = std::make_unique<LimitLab>(options.algorithms, options.limit);
    }
    m_options = std::move(options);
    m_lab = std::move(lab);
    reset();
}

void LimitsFeed::reset() {
    if (m_lab) {
        m_lab = std::make_unique<LimitLab>(m_options.algorithms, m_options.limit);
    }
    const std::size_t lanes = m_lab ? m_lab->lanes().size() : 0;
    m_rejects.assign(lanes, SpaceSaving(kRejectCounters));
    m_bursts.assign(lanes, 0);
    m_memory.assign(lanes, 0);
    m_history.clear();
    m_empty = true;
    m_head = 0;
    m_requests = 0;
    m_dirtyFrom = kNoChangedSecond;
    ++m_generation;
}

void LimitsFeed::openSecond(Timestamp t) {
    const std::size_t lanes = m_lab->lanes().size();
    LimitSecond record;
    record.second = t;
    record.accepted.assign(lanes, 0);
    record.rejected.assign(lanes, 0);
    record.windowMax.assign(lanes, 0);
    m_history.push_back(std::move(record));
    while (m_history.size() > std::max<std::size_t>(m_options.historySeconds, 1)) {
        m_history.pop_front();
    }
    m_dirtyFrom = std::min(m_dirtyFrom, t);
}

void LimitsFeed::moveHead(Timestamp t) {
    if (m_empty) {
        m_empty = false;
        m_head = t;
        openSecond(t);
        return;
    }
    if (t <= m_head) {
        return;
    }
    if (static_cast<std::uint64_t>(t - m_head - 1) >= m_options.historySeconds) {
        // Every record in between would be a zero trimmed at once: start a new history.
        m_history.clear();
        ++m_generation;
    } else {
        for (Timestamp s = m_head + 1; s < t; ++s) {
            openSecond(s);
        }
    }
    m_head = t;
    openSecond(t);
}

void LimitsFeed::feed(std::span<const HitEvent> events) {
    if (!m_lab) {
        return;
    }
    const Count limit = m_options.limit.limit;
    for (const HitEvent& e : events) {
        moveHead(e.time);
        const std::string_view key = m_options.perKey ? std::string_view(e.key) : kAllTrafficKey;
        const std::span<const Count> accepted = m_lab->admit(key, e.time, e.count);
        const std::span<const Count> window = m_lab->lastWindowCounts();
        LimitSecond& record = m_history.back();
        for (std::size_t i = 0; i < accepted.size(); ++i) {
            record.accepted[i] = saturatingAdd(record.accepted[i], accepted[i]);
            const Count rejected = e.count - accepted[i];
            if (rejected > 0) {
                record.rejected[i] = saturatingAdd(record.rejected[i], rejected);
                m_rejects[i].add(key, rejected);
            }
            if (window[i] > record.windowMax[i]) {
                if (record.windowMax[i] <= limit && window[i] > limit) {
                    ++m_bursts[i];
                }
                record.windowMax[i] = window[i];
            }
        }
        m_requests = saturatingAdd(m_requests, e.count);
        m_dirtyFrom = std::min(m_dirtyFrom, m_head);
    }
}

void LimitsFeed::advanceTo(Timestamp now) {
    if (!m_lab || m_empty || now <= m_head) {
        return;
    }
    moveHead(now);
    m_lab->advance(now);
}

void LimitsFeed::fill(LimitsFrame& frame, const LimitsFrame* untaken, bool memory) {
    frame.options = m_options;
    frame.generation = m_generation;
    frame.empty = m_empty;
    frame.head = m_head;
    frame.requests = m_requests;
    bool rebuild = m_generation != m_filledGeneration;
    Timestamp from = m_dirtyFrom;
    if (untaken != nullptr) {
        // An untaken frame's rebuild of an older generation is this one's rebuild already.
        includeUntaken(rebuild, from, untaken->rebuild && untaken->generation == m_generation,
                       untaken->history);
    }
    frame.rebuild = rebuild;
    m_filledGeneration = m_generation;
    m_dirtyFrom = kNoChangedSecond;
    frame.names.clear();
    frame.lanes.clear();
    frame.rejectedKeys.clear();
    frame.history.clear();
    if (!m_lab) {
        return;
    }
    frame.history = historyDeltaFrom(m_history, from, frame.rebuild);
    const auto& lanes = m_lab->lanes();
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const LimitLab::Lane& lane = lanes[i];
        LimitLaneState state;
        state.name = std::string(lane.limiter->name());
        state.accepted = lane.accepted;
        state.rejected = lane.rejected;
        state.maxInAnyWindow = lane.peak.peak();
        state.maxWindowKey = std::string(lane.peak.peakKey());
        state.maxWindowEnd = lane.peak.peakTime();
        state.burstSeconds = m_bursts[i];
        if (memory) {
            m_memory[i] = lane.limiter->memoryBytes();
        }
        state.memoryBytes = m_memory[i];
        state.liveKeys = lane.limiter->liveKeys();
        state.evictedKeys = lane.limiter->evictedKeys();
        for (const SpaceSaving::Counter& c : m_rejects[i].counters()) {
            state.topRejected.push_back(KeyRejects{c.key, c.count, c.error});
        }
        std::sort(state.topRejected.begin(), state.topRejected.end(),
                  [](const KeyRejects& a, const KeyRejects& b) {
                      return a.rejected != b.rejected ? a.rejected > b.rejected : a.key < b.key;
                  });
        if (state.topRejected.size() > m_options.topKeys) {
            state.topRejected.resize(m_options.topKeys);
        }
        frame.names.push_back(state.name);
        frame.lanes.push_back(std::move(state));
    }
    for (const LimitLaneState& lane : frame.lanes) {
        for (const KeyRejects& top : lane.topRejected) {
            const auto same = [&](const RejectedKey& k) { return k.key == top.key; };
            if (std::none_of(frame.rejectedKeys.begin(), frame.rejectedKeys.end(), same)) {
                frame.rejectedKeys.push_back(RejectedKey{top.key, {}});
            }
        }
    }
    for (RejectedKey& row : frame.rejectedKeys) {
        for (const SpaceSaving& sketch : m_rejects) {
            const auto& counters = sketch.counters();
            const auto it =
                std::find_if(counters.begin(), counters.end(),
                             [&](const SpaceSaving::Counter& c) { return c.key == row.key; });
            row.rejected.push_back(it == counters.end() ? 0 : it->count);
        }
    }
    const auto most = [](const RejectedKey& k) {
        return *std::max_element(k.rejected.begin(), k.rejected.end());
    };
    std::sort(frame.rejectedKeys.begin(), frame.rejectedKeys.end(),
              [&](const RejectedKey& a, const RejectedKey& b) {
                  return most(a) != most(b) ? most(a) > most(b) : a.key < b.key;
              });
}

}  // namespace hitcounter
