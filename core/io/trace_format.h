// The trace CSV format shared by TraceReader and TraceWriter (full description: docs/formats.md).
//
//     # comment lines start with '#'; blank lines are skipped
//     timestamp,key,visitor,count      <- header: 'timestamp' required, the others optional,
//     1,home,u1,1                         any order; unknown columns are ignored
//     2.75,about,u2,3                  <- fractions are floored: second 2, 3 hits
//
// Fields are separated by ',' and trimmed of spaces and tabs; there is no quoting, so a key or
// visitor cannot hold ',' or a line break (TraceWriter replaces them with '_').
#pragma once

#include <cstdint>
#include <string_view>

#include "core/base/types.h"

namespace hitcounter {

inline constexpr std::string_view kTraceTimestampColumn = "timestamp";
inline constexpr std::string_view kTraceKeyColumn = "key";
inline constexpr std::string_view kTraceVisitorColumn = "visitor";
inline constexpr std::string_view kTraceCountColumn = "count";

// The largest timestamp a trace may hold (the counters' contract: 0 <= t < 2^62).
inline constexpr Timestamp kTraceMaxTimestamp = (Timestamp{1} << 62) - 1;

// The one timestamp syntax of traces (TraceReader) and judge input (hitcounter-cli judge):
// seconds written as digits[.digits], the fraction floored ("17.25" is second 17). No sign,
// no exponent (1e3), no spaces; "-5" is recognised only to say it is negative.
enum class TimestampProblem { None, NotANumber, Exponent, Negative, TooLarge };
struct ParsedTimestamp {
    Timestamp time = 0;  // valid when problem == None
    TimestampProblem problem = TimestampProblem::None;
};
ParsedTimestamp parseTimestamp(std::string_view text);
// One or more of 0-9 and nothing else (the whole parts of timestamps, counts).
bool isDigits(std::string_view text);
// What is wrong and what was expected, e.g. "is negative; expected seconds >= 0".
std::string_view timestampProblemText(TimestampProblem problem);

// Which optional columns a trace has; 'timestamp' is always present.
struct TraceColumns {
    bool key = true;
    bool visitor = true;
    bool count = true;

    friend bool operator==(const TraceColumns&, const TraceColumns&) = default;
};

}  // namespace hitcounter
