// LimiterTimeline: runs a rate-limit lesson's requests through the real limiters
// (core/limiters/) and records what each one holds after every step, for the teaching view.
//
// Not thread-safe to build; once built it is an immutable value, safe to read from any thread.
//
// Every `hit t xN` is N requests of one key at second t, given to KeyedLimiter<FixedWindow>,
// <SlidingLog>, <SlidingCounter> and <TokenBucket> alike (L = limit, W = window); a
// `getHits t` makes no request: it moves the limiters' clock to t, so the learner can watch
// windows close and tokens refill. frames()[0] is the start (every key fresh), frames()[k] the
// state after operation k, as seen at the limiters' clock. Each frame has one lane per name
// given to the constructor (in that order) with that algorithm's decision, its state and the
// reason in one sentence; the frame's narration joins the reasons.
//
// Cost: O(operations x (lanes + live log runs)) time and memory.
//
// Example, L = 2, W = 60, names {fixed, log}, requests 58, 59, 60, 61:
//     frames()[3].lanes[0]: accepted 1 ("fixed"; window [60, 120) held 0 of 2)
//     frames()[3].lanes[1]: rejected 1 ("log"; 58 and 59 are in (0, 60]), log = {(58,1),(59,1)}
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/limiters/rate_limiter.h"
#include "core/teach/frame.h"
#include "core/teach/operation_parser.h"

namespace hitcounter::teach {

// One request (or a batch at one second) and how a lane decided it.
struct LimiterDecision {
    Timestamp second = 0;
    Count accepted = 0;
    Count rejected = 0;
};

struct LimiterLane {
    std::string name;                         // "fixed", "log", "counter", "bucket"
    std::optional<LimiterDecision> decision;  // this step's; empty for getHits and the start
    Count accepted = 0;                       // so far
    Count rejected = 0;
    // fixed and counter: floor(clock / W) and the accepted count of that window; counter also
    // the previous window's and the weighted sum prev x (W - clock mod W) + curr x W.
    std::int64_t window = 0;
    Count current = 0;
    Count previous = 0;
    Count weighted = 0;
    // log: the accepted seconds still inside (clock - W, clock], oldest first, and the runs
    // that left it during this step.
    std::vector<Pair> log;
    std::vector<Pair> expired;
    // bucket: tokens in units of 1/W token, in [0, L x W], and what was left after each
    // request so far (the write-up's table, issue 24: 1.00, 0.97, 0.63, 0.30, 0.30).
    Count tokenUnits = 0;
    std::vector<Count> tokensLeft;
    std::string reason;
};

struct LimiterFrame {
    std::size_t step = 0;
    std::optional<Operation> op;
    std::optional<Timestamp> clock;  // the limiters' clock; empty at the start
    std::vector<LimiterLane> lanes;
    std::string narration;
};

// "0.97": `units` of 1/W token, rounded to hundredths.
std::string tokensText(Count units, std::int64_t w);

class LimiterTimeline {
public:
    // Throws std::invalid_argument for an unknown or repeated name, for L * W beyond 2^63
    // (lessons are small) or for L, W out of range (checkRateLimit).
    LimiterTimeline(std::vector<Operation> operations, RateLimit limit,
                    std::vector<std::string> names);

    RateLimit limit() const { return m_limit; }
    const std::vector<std::string>& names() const { return m_names; }
    const std::vector<Operation>& operations() const { return m_operations; }
    const std::vector<LimiterFrame>& frames() const { return m_frames; }
    // Every request decision up to and including step k, per lane: decisions(k)[lane].
    std::vector<std::vector<LimiterDecision>> decisions(std::size_t step) const;

private:
    std::vector<Operation> m_operations;
    RateLimit m_limit;
    std::vector<std::string> m_names;
    std::vector<LimiterFrame> m_frames;
};

}  // namespace hitcounter::teach
