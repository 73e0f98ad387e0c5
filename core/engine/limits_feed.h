// LimitsFeed: the Rate limits lab on the counting thread. EngineWorker feeds it the same
// batches as the Engine (after the epoch check), so the limiters run in lockstep with the
// counters, reset on the same Reset markers and are rebuilt by the same seek fast-forward.
//
// Not thread-safe; owned by the counting thread (engine_worker.h). Only LimitsFrame values
// (limits_frame.h) leave it.
//
// Semantics:
//  - Disabled (the default): feed() does nothing; frames say enabled == false.
//  - feed(events): every event is n = count requests of its key (or of kAllTrafficKey when
//    options.perKey is false) at its time, given to a LimitLab (limit_lab.h) in event order:
//    the decisions are those of `hitcounter-cli limit` on the same rows.
//  - Per-second records, contiguous from the first second, the newest (head) open: accepted,
//    rejected and the largest window count of one key, per algorithm. A late request counts
//    at the head (where the limiters decide it). At most options.historySeconds records; a
//    jump longer than that starts a new history (frames then say rebuild).
//  - restart(options): a new lab with new options from this point of the stream (nothing
//    before it is replayed here; the GUI replays a trace by a seek). reset(): a Reset marker:
//    the same options, every request forgotten.
//  - advanceTo(t): a live source's quiet seconds (head and eviction move without requests).
//  - Memory: the lab (bounded by the keys active in the last 2W, see rate_limiter.h), one
//    SpaceSaving of kRejectCounters per algorithm, and the bounded history.
//
// Example (L = 2, W = 60, fixed and log, one key "a" at 58, 59, 60, 61):
//     frame: fixed accepted 4, windowMax 3 at 60 and 4 at 61 (bursts); log accepted 2 rejected 2
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <vector>

#include "core/base/hit_event.h"
#include "core/engine/limits_frame.h"
#include "core/limiters/limit_lab.h"
#include "core/sketches/space_saving.h"

namespace hitcounter {

class LimitsFeed {
public:
    // Counters of the rejected-keys sketch per algorithm (exact up to this many keys).
    static constexpr std::size_t kRejectCounters = 64;

    // Throws std::invalid_argument (unknown algorithm, L or W out of range) if enabled.
    explicit LimitsFeed(LimitsOptions options = {});
    ~LimitsFeed();

    void restart(LimitsOptions options);
    void reset();
    void feed(std::span<const HitEvent> events);
    void advanceTo(Timestamp now);

    const LimitsOptions& options() const { return m_options; }
    bool enabled() const { return m_lab != nullptr; }
    bool empty() const { return m_empty; }
    // The lab (nullptr when disabled).
    const LimitLab* lab() const { return m_lab.get(); }
    const std::deque<LimitSecond>& history() const { return m_history; }

    // Fills `frame` with the changes since the last fill (or everything after a restart,
    // reset or history jump). `untaken`: the previous frame if the GUI has not taken it yet
    // (this frame replaces it, so it carries its changes too). With memory == false the
    // memory figures (O(keys) to compute) are the last computed ones.
    void fill(LimitsFrame& frame, const LimitsFrame* untaken, bool memory = true);

private:
    void openSecond(Timestamp t);
    void moveHead(Timestamp t);

    LimitsOptions m_options;
    std::unique_ptr<LimitLab> m_lab;
    std::vector<SpaceSaving> m_rejects;  // per lane
    std::vector<Count> m_bursts;         // per lane: seconds with windowMax > L
    std::deque<LimitSecond> m_history;
    bool m_empty = true;
    Timestamp m_head = 0;
    Count m_requests = 0;
    std::uint64_t m_generation = 0;
    std::uint64_t m_filledGeneration = UINT64_MAX;  // the generation the last fill() saw
    Timestamp m_dirtyFrom;
    std::vector<std::size_t> m_memory;  // per lane, the last computed
};

}  // namespace hitcounter
