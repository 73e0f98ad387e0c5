// The LeetCode 362 judge: the problem's calls, read by the one LeetCode reader
// (core/io/leetcode_input.h), answered by any counting policy. `hitcounter-cli judge` is this
// function on stdin.
//
// Threading: a pure function of its stream and counter; callable from any thread.
// Errors: the reader's (a TextProblem at a line and column); the counter never fails.
#pragma once

#include <istream>
#include <string>
#include <variant>

#include "core/base/text_problem.h"
#include "core/counters/window_counter.h"
#include "core/io/leetcode_input.h"

namespace hitcounter {

// The judge: runs each call on `counter` (fresh, as "HitCounter" constructed it) and returns the
// compact JSON answer array without a line break, null for "HitCounter" and "hit" and the count
// for "getHits" ("[null,null,null,null,3,null,4,3]"), or the first problem. Memory: one byte
// per operation plus the answer text (10^7 calls: about 60 MB), never the input.
std::variant<std::string, TextProblem> answerLeetCode(std::istream& in, WindowCounter& counter);

}  // namespace hitcounter
