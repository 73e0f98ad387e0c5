// The LeetCode 362 ("Design Hit Counter") input, read as a stream: the one reader behind
// the judge (core/judge/leetcode_judge.h) and the teaching mode's LeetCode format
// (core/teach/operation_parser.h).
//
// Threading: pure functions, callable from any thread; no I/O but the given stream.
//
// Format: two JSON arrays, the operation names and the argument arrays, of the same length.
//     ["HitCounter","hit","hit","hit","getHits","hit","getHits","getHits"]
//     [[],[1],[2],[3],[4],[300],[300],[301]]
// By default each array sits on one line (line 1 the names, line 2 the arguments; blank lines
// are skipped; anything after the second array is an error); with `arraysMaySpanLines` any
// whitespace, line breaks included, may separate tokens. "HitCounter" comes first and only
// there, with []; "hit" and "getHits" take [timestamp], written as a trace timestamp is
// (core/io/trace_format.h: digits[.digits], the fraction floored; no sign, no exponent, at most
// 2^62 - 1; read with std::from_chars). Names are JSON strings (escapes decoded).
//
// Errors: the first problem in reading order, as a TextProblem (docs/architecture.md, "Errors")
// at its 1-based line and column (the start of the offending value, or the character where the
// JSON breaks), with the value as it was written (cut after 40 characters) and what was
// expected:
//     line 2, column 5: argument list 2 (hit) is [-1]; the timestamp is negative; expected ...
//
// Streaming: the input is read once, character by character; the names are kept as one byte
// each while the arguments are read, and each call is handed to the handler as soon as its
// argument list is read. Memory: one byte per operation (plus what the handler keeps).
// Cost: O(input size) plus the handler's work.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <variant>

#include "core/base/text_problem.h"
#include "core/base/types.h"

namespace hitcounter {

enum class LeetCodeCall : std::uint8_t { Construct, Hit, GetHits };

struct LeetCodePosition {
    long long line = 1;  // 1-based
    long long column = 1;
};

// Receives what the reader finds, in input order. Each call returns a refusal: empty accepts,
// a message (without the place) stops the reading with that problem at the position given to
// that call.
class LeetCodeHandler {
public:
    virtual ~LeetCodeHandler() = default;
    // Operation `index` (0-based; index 0 is the "HitCounter") named at `at`.
    virtual std::string name(std::size_t index, LeetCodeCall call, LeetCodePosition at) {
        (void)index, (void)call, (void)at;
        return {};
    }
    // Operation `index` with its timestamp (0 for Construct), its argument list starting at `at`.
    virtual std::string call(std::size_t index, LeetCodeCall call, Timestamp time,
                             LeetCodePosition at) = 0;
};

struct LeetCodeOptions {
    bool arraysMaySpanLines = false;
};

// Reads the whole input; nullopt when it was well formed and the handler accepted every call.
std::optional<TextProblem> readLeetCode(std::istream& in, LeetCodeHandler& handler,
                                        const LeetCodeOptions& options = {});

std::string_view leetCodeCallName(LeetCodeCall call);

}  // namespace hitcounter
