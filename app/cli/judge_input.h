// The LeetCode 362 ("Design Hit Counter") test format, read as a stream and run, for
// `hitcounter-cli judge` and its fuzz target. Qt Core only (QString messages); no other I/O
// than the given stream.
//
// Threading: pure functions, callable from any thread.
//
// Format: line 1 is a JSON array of operation names, line 2 a JSON array of argument arrays of
// the same length. Blank lines are skipped; anything after line 2 is an error. An array may
// not span lines.
//     ["HitCounter","hit","hit","hit","getHits","hit","getHits","getHits"]
//     [[],[1],[2],[3],[4],[300],[300],[301]]
// "HitCounter" must come first and only there, with []; "hit" and "getHits" take [timestamp],
// written as a trace timestamp is (trace_format.h: digits[.digits], the fraction floored; no
// sign, no exponent, at most 2^62 - 1). The answer is a compact JSON array with null for
// "HitCounter" and "hit" and the count for "getHits":  [null,null,null,null,3,null,4,3]
//
// Errors: the first problem in reading order, on the line where it is (1-based, counting
// blank lines), with the position in the array when it matters, the value as it was written
// (cut after 40 characters) and what was expected, e.g.
//     line 2: argument list 5 (getHits) is ["x"]; the timestamp is not a number; expected ...
//
// Streaming: the input is read once, character by character; the operation names are kept as
// one byte each while line 2 is read, and each call runs as soon as its argument list is read.
// Memory: one byte per operation plus the answer text (10^7 calls: about 60 MB), never the
// input. Cost: O(input size) plus one counter call per operation.
#pragma once

#include <QString>
#include <istream>
#include <string>
#include <variant>

#include "core/counters/window_counter.h"

namespace hitcounter::cli {

struct JudgeError {
    long long line = 0;
    QString message;  // without the line, e.g. "unknown operation 'foo' at position 3; ..."

    QString describe() const { return QStringLiteral("line %1: %2").arg(line).arg(message); }
};

// Reads the whole input from `in`, running each call on `counter` (fresh, as "HitCounter"
// constructed it). Returns the compact JSON answer array, without a line break, or the first
// problem.
std::variant<std::string, JudgeError> runJudge(std::istream& in, WindowCounter& counter);

}  // namespace hitcounter::cli
