// The LeetCode 362 ("Design Hit Counter") test format, parsed and run, for `hitcounter-cli
// judge` and its fuzz target. Qt Core only (QJsonDocument); no I/O.
//
// Threading: pure functions, callable from any thread.
//
// Format: line 1 is a JSON array of operation names, line 2 a JSON array of argument arrays of
// the same length. Blank lines are skipped; anything after line 2 is an error.
//     ["HitCounter","hit","hit","hit","getHits","hit","getHits","getHits"]
//     [[],[1],[2],[3],[4],[300],[300],[301]]
// "HitCounter" must come first and only there, with []; "hit" and "getHits" take [timestamp],
// a whole number in [0, 2^62). The answer is a compact JSON array with null for "HitCounter"
// and "hit" and the count for "getHits":  [null,null,null,null,3,null,4,3]
//
// Errors name the input line (1-based, counting blank lines), the position in the array when
// it matters, and what was expected, e.g.
//     line 2: argument list 5 (getHits) is ["x"]; expected [timestamp] with a whole number >= 0
// Cost: O(input size) to parse; running is one counter call per operation.
#pragma once

#include <QByteArray>
#include <QString>
#include <variant>
#include <vector>

#include "core/counters/window_counter.h"

namespace hitcounter::cli {

struct JudgeCall {
    enum class Op { Construct, Hit, GetHits };
    Op op = Op::Construct;
    Timestamp time = 0;  // Hit and GetHits only
};

struct JudgeError {
    int line = 0;
    QString message;  // without the line, e.g. "unknown operation 'foo' at position 3; ..."

    QString describe() const { return QStringLiteral("line %1: %2").arg(line).arg(message); }
};

using JudgeProgram = std::vector<JudgeCall>;

std::variant<JudgeProgram, JudgeError> parseJudgeInput(const QByteArray& input);

// Runs the calls on `counter` (fresh, as "HitCounter" constructed it) and returns the compact
// JSON answer array, without a line break.
QByteArray runJudge(const JudgeProgram& program, WindowCounter& counter);

}  // namespace hitcounter::cli
