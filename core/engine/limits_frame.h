// LimitsOptions and LimitsFrame: what the Rate limits view asks the counting thread for and
// what it gets back once per frame (plain values, like EngineFrame, which carries one).
//
// The lab (core/limiters/limit_lab.h) runs on the counting thread (limits_feed.h); only this
// summary crosses to the GUI: per second and per algorithm the accepted and rejected requests
// and the largest window count of one key (a boundary burst where it passes L), plus each
// algorithm's totals, max_in_any_window, memory and the keys it rejected most.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "core/base/types.h"
#include "core/limiters/rate_limiter.h"

namespace hitcounter {

struct LimitsOptions {
    bool enabled = false;  // off: the counting thread does no limiter work at all
    RateLimit limit{100, std::chrono::seconds{60}};
    bool perKey = true;  // false: all traffic is one key (kAllTrafficKey)
    std::vector<std::string> algorithms = {"fixed", "log", "counter", "bucket"};
    std::size_t historySeconds = 3600;  // per-second records kept (bounded memory)
    std::size_t topKeys = 8;            // keys rejected most, per algorithm

    friend bool operator==(const LimitsOptions&, const LimitsOptions&) = default;
};

// The key every request is limited under when LimitsOptions::perKey is false.
inline constexpr const char* kAllTrafficKey = "(all traffic)";

// One second of the lab, per algorithm (in LimitsFrame::names order). Late requests count at
// the newest second, where the limiters decide them.
struct LimitSecond {
    Timestamp second = 0;
    std::vector<Count> accepted;
    std::vector<Count> rejected;
    // The largest number of accepted requests of one key in (t - W, t] at an accept in this
    // second (0 if none): above L, the algorithm let a burst through here.
    std::vector<Count> windowMax;
};

struct KeyRejects {
    std::string key;
    Count rejected = 0;  // an upper bound if error > 0 (space-saving sketch)
    Count error = 0;
};

// One algorithm's state at the head.
struct LimitLaneState {
    std::string name;
    Count accepted = 0;
    Count rejected = 0;
    Count maxInAnyWindow = 0;  // as `hitcounter-cli limit --json`'s max_in_any_window
    std::string maxWindowKey;
    Timestamp maxWindowEnd = 0;
    Count burstSeconds = 0;       // seconds with a key over L in its window since the restart
    std::size_t memoryBytes = 0;  // the limiter's (as the CLI's memory_bytes)
    std::size_t liveKeys = 0;
    Count evictedKeys = 0;
    std::vector<KeyRejects> topRejected;  // most rejected first, ties by key
};

// A key among the most rejected, with every algorithm's rejected count (0: not among that
// algorithm's monitored keys, so at most its sketch's smallest count).
struct RejectedKey {
    std::string key;
    std::vector<Count> rejected;  // per algorithm
};

struct LimitsFrame {
    LimitsOptions options;         // what this lab runs with
    std::uint64_t generation = 0;  // +1 at every restart (new options) and reset (seek, source)
    bool empty = true;             // no request since the (re)start
    Timestamp head = 0;            // the newest second seen
    Count requests = 0;
    std::vector<std::string> names;
    std::vector<LimitLaneState> lanes;
    // The union of every algorithm's topRejected, most rejected (by any algorithm) first.
    std::vector<RejectedKey> rejectedKeys;
    // As EngineFrame::history: if rebuild, forget every record; then replace or append these
    // (the records that changed since the previous frame, oldest first, up to the head).
    bool rebuild = false;
    std::vector<LimitSecond> history;
};

}  // namespace hitcounter
