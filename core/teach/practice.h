// Practice: seeded random operations for the learner to predict, and feedback that names the
// mistake (issue 16, build 3).
//
// Thread-safe (pure functions and plain values).
//
// practiceOperations(seed, window, level) writes a short random lesson (12 to 16 operations) in
// the plain format of operation_parser.h: mostly increasing seconds with repeats, and at the
// default level at least one late hit inside the window, one hit too late to count, one gap
// longer than W, one getHits into the past and one exactly W after an earlier hit (the
// boundary), besides getHits at the head. The same seed, W and level always give the same text
// (std::mt19937_64, no library distribution whose output may differ between libraries).
//
// Questions, one per operation, over the ring, the deque and the naive vector: every getHits
// (its answer); every accepted hit that lands on a written slot (the slot's count after the
// hit: a reset shows as a count that starts again); every other accepted hit (the deque's pairs
// after it: one per distinct second in the window); every hit too late to count (the naive
// vector's calls after it: it keeps every accepted call and only those). The prompts never say
// which case it is. diagnose() compares a wrong guess with what common mistakes would give, at
// the frame of the question:
//     GetHits: off by one at t - W (counting the boundary second t - W too), counting stale
//              slots (every written slot up to t), forgetting the late hits, counting the
//              dropped hits;
//     SlotCount: forgetting the reset (adding to the stale count);
//     DequePairs: keeping the stale pairs (not popping the pairs that left the window), a pair
//              per hit (instead of one per second);
//     VectorCalls: recording a hit that is too late to count, a vector that forgets (only the
//              calls in the window).
// Example, W = 10, "hit 5; hit 6; getHits 15": a guess of 2 for getHits(15) is "off by one at
// t - W: second 5 is not in (5, 15]".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/teach/timeline.h"

namespace hitcounter::teach {

// Three levels of difficulty; each has the kinds of the ones before it, at least once each:
//     WarmUp      in-order hits with repeats and getHits at the head, a gap longer than W
//     Boundary    + a getHits exactly W after an earlier hit (the open end of the window)
//     OutOfOrder  + a late hit inside the window, a hit too late to count, a getHits into
//                 the past (the default: every kind of question)
enum class PracticeLevel { WarmUp = 1, Boundary = 2, OutOfOrder = 3 };
std::string_view levelName(PracticeLevel level);  // "warm-up", "the boundary", "out of order"

std::string practiceOperations(std::uint64_t seed, std::chrono::seconds window,
                               PracticeLevel level = PracticeLevel::OutOfOrder);

struct Question {
    enum class Kind { GetHits, SlotCount, DequePairs, VectorCalls };
    Kind kind = Kind::GetHits;
    std::size_t step = 0;  // the frame that answers it
    std::string prompt;    // "What will getHits(15) return?"
    Count answer = 0;
};

// The questions of `timeline`, in step order.
std::vector<Question> questions(const Timeline& timeline);

// "getHits", "slot_count", "deque_pairs", "vector_calls" (teach --json's `kind`).
std::string_view kindName(Question::Kind kind);

struct Verdict {
    bool right = false;
    std::string mistake;  // empty when right, or when no known mistake gives the guess
    std::string text;     // one sentence for the learner, naming the mistake when known
};

Verdict diagnose(const Timeline& timeline, const Question& question, Count guess);

// A running score.
struct Score {
    int asked = 0;
    int right = 0;
    void add(const Verdict& v) {
        ++asked;
        right += v.right ? 1 : 0;
    }
    std::string text() const;  // "3 of 4 right"
};

}  // namespace hitcounter::teach
