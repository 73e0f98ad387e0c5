// The questions of a rate-limit lesson (issue 24: Predict with the four limiters): before each
// single request, which of the limiters accept it; a wrong answer names, per limiter, the
// mistake behind it and gives the limiter's reason.
//
// Thread-safe (pure functions and plain values).
//
// Mistakes, by limiter and by which way the guess was wrong:
//     fixed    said rejected: "forgetting that a fixed window starts empty"
//              said accepted: "a fixed window already full"
//     log      said accepted: "forgetting the requests of the last W seconds"
//              said rejected: "keeping requests W or more seconds old"
//     counter  either way:    "the weighted previous window"
//     bucket   said rejected: "forgetting the refill"
//              said accepted: "less than one token left"
// Example, limit-burst (L = 2 per 60): the request at 60 is accepted by the fixed window only
// (the log holds 58 and 59, the counter weighs 2 x 60 = L x W, the bucket has 0.07 of a
// token); answering "rejected" for the fixed window is "forgetting that a fixed window starts
// empty", with its reason "second 60 is in window [60, 120), which had accepted 0 of 2".
#pragma once

#include <string>
#include <vector>

#include "core/teach/limiter_timeline.h"

namespace hitcounter::teach {

struct LimiterQuestion {
    std::size_t step = 0;        // the frame that answers it
    Timestamp second = 0;        // the request's
    std::vector<bool> accepted;  // per lane, in the timeline's order
    std::string prompt;          // "The request at 60: which limiters accept it?"
};

// One question per single request (a batch "hit t xN" is not asked), in step order.
std::vector<LimiterQuestion> limiterQuestions(const LimiterTimeline& timeline);

struct LimiterVerdict {
    bool right = false;
    std::vector<std::string> mistakes;  // one per limiter answered wrong, in lane order
    std::string text;                   // for the learner: what was wrong, and why
};

// `guess` has one entry per lane: true for "accepts".
LimiterVerdict diagnoseLimiters(const LimiterTimeline& timeline, const LimiterQuestion& question,
                                const std::vector<bool>& guess);

// "fixed window", "sliding log", "sliding window counter", "token bucket".
std::string limiterTitle(const std::string& name);

}  // namespace hitcounter::teach
