// The documented mistakes a learner's hit counter can make (issue 24; docs/teaching.md "The
// Code tab" lists them), and how the lockstep check recognises each one.
//
// Thread-safe (constants and pure functions).
//
// Three mistakes give wrong answers; each has a model, a counter written with that mistake,
// run on the same chronological calls: a mistake is named when one of its models answers every
// getHits the learner's counter answered, the same way (so a counter that is wrong in another
// way is not given a wrong name):
//     inclusive_edge   `<=` at the edge: second t - W counted, as if the window were
//                      [t - W, t]. Models: the exact window [t - W, t], and a ring of W
//                      slots comparing s.second >= t - W (its slot t mod W is also t's).
//     count_only       the slots store only a count, no second: every hit ever made stays
//                      counted (a ring of counts only, never reset).
//     no_reset         the slots store the second but a reused slot keeps its old count: a
//                      ring of W (second, count) slots that never resets.
// Two give right answers at a cost that grows with the traffic; the growth probes show them
// (the counter gets N hits at second 1, then getHits(1), then getHits(1 + 2W)):
//     unbounded_array  memory grows with hits that left the window long ago: after
//                      getHits(1 + 2W) it holds at least 4 more bytes per extra hit.
//     linear_pop       a getHits does work that grows with the hits held: getHits(1), which
//                      removes nothing, costs at least half an operation more per extra hit,
//                      or popping the hits costs more per hit the more there are (3 times
//                      as much per hit at the largest N as at the smallest).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/teach/operation_parser.h"

namespace hitcounter::teach {

enum class MistakeId { InclusiveEdge, CountOnly, NoReset, UnboundedArray, LinearPop };

struct MistakeInfo {
    MistakeId id;
    std::string_view name;   // the JSON name: "inclusive_edge", ...
    std::string_view title;  // "<= at the edge"
    std::string_view why;    // one sentence: what goes wrong and the fix
};

// In the order above.
const std::vector<MistakeInfo>& documentedMistakes();
const MistakeInfo& mistakeInfo(MistakeId id);

// The answers a mistake's models give to `ops` (one entry per getHits, in order): one list per
// model. Empty for the two performance mistakes.
std::vector<std::vector<Count>> modelAnswers(MistakeId id, const std::vector<Operation>& ops,
                                             std::chrono::seconds window);

// One growth probe: N hits at second 1, then getHits(1) (removes nothing) and
// getHits(1 + 2W) (every hit has left the window).
struct GrowthPoint {
    std::size_t hits = 0;
    std::uint64_t idleOperations = 0;     // getHits(1)
    std::uint64_t poppingOperations = 0;  // getHits(1 + 2W)
    std::size_t bytesHeld = 0;            // after getHits(1)
    std::size_t bytesAfter = 0;           // after getHits(1 + 2W)
};

// The hit counts of the probes, smallest first.
const std::vector<std::size_t>& growthProbeSizes();
// The probe of `hits` as operations ("hit 1 xN; getHits 1; getHits 1+2W").
std::vector<Operation> growthProbe(std::size_t hits, std::chrono::seconds window);

// Which performance mistake the growth points show (unbounded_array first), with the numbers
// that show it in one sentence; nullopt when neither.
struct GrowthVerdict {
    MistakeId id;
    std::string evidence;
    std::vector<Operation> probe;  // the smallest sequence that shows it
};
std::optional<GrowthVerdict> growthMistake(const std::vector<GrowthPoint>& points,
                                           std::chrono::seconds window);

}  // namespace hitcounter::teach
