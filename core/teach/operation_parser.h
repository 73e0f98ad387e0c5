// Parsing the operations of a lesson: the plain one-per-line format and the LeetCode 362 input.
//
// Thread-safe (pure functions, no shared state).
//
// Plain format, one operation per line or several separated by ';', '#' starts a comment,
// keywords are case-insensitive:
//     hit 5          one hit at second 5
//     hit 7 x40      forty hits at second 7 (forty hit() calls)
//     getHits 301    ask for the hits in (301 - W, 301]
// LeetCode format (recognised when the text starts with '['), exactly two JSON arrays, read by
// the same reader as `hitcounter-cli judge` (core/io/leetcode_input.h; here an array may span
// lines):
//     ["HitCounter","hit","hit","getHits"]
//     [[],[1],[2],[2]]
// The first name must be "HitCounter" with no argument; every other name is "hit" or "getHits"
// with one timestamp argument (a fraction is floored, as in a trace).
//
// Bad input yields a TextProblem (docs/architecture.md, "Errors") naming the 1-based line and
// column of the offending token and what was expected; no partial result is returned. Limits keep a
// lesson small enough to record every step: seconds in [0, kMaxSecond], repeat in [1, kMaxRepeat],
// at most kMaxOperations operations and kMaxTotalHits hits in all.
//
// Cost: O(length of the text).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/base/text_problem.h"
#include "core/counters/window_counter.h"

namespace hitcounter::teach {

struct Operation {
    enum class Kind { Hit, GetHits };
    Kind kind = Kind::Hit;
    Timestamp second = 0;
    Count repeat = 1;  // hit() calls at `second`; always 1 for GetHits
    int line = 0;      // 1-based position in the source text, for highlighting
    int column = 0;
};

inline constexpr Timestamp kMaxSecond = 1'000'000'000'000;  // ~31700 years of seconds
inline constexpr Count kMaxRepeat = 1000;
inline constexpr std::size_t kMaxOperations = 500;
inline constexpr Count kMaxTotalHits = 10'000;

using ParseResult = std::variant<std::vector<Operation>, TextProblem>;

ParseResult parseOperations(std::string_view text);

// The plain format of `ops`, one per line (the inverse of parseOperations up to whitespace).
std::string formatOperations(const std::vector<Operation>& ops);

}  // namespace hitcounter::teach
