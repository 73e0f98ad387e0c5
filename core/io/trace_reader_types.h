// The values every RowReader returns: a row, an error naming its line, and progress. A bad row
// is read past and reported as a value (TraceError), the convention's form for a reader that
// goes on (docs/architecture.md, "Errors").
#pragma once

#include <cstdint>
#include <string>

#include "core/base/hit_event.h"

namespace hitcounter {

enum class TraceStatus { Row, BadRow, End };

enum class TraceErrorKind {
    None,
    MissingTimestampColumn,  // fatal: the header names no 'timestamp' column
    DuplicateColumn,         // fatal: the header names a column twice
    ShortRow,                // fewer fields than the header names
    LongRow,                 // more fields than the header names
    LineTooLong,             // longer than kMaxLineBytes
    MissingTimestamp,        // the timestamp field is empty
    NonNumericTimestamp,     // not digits[.digits]
    NegativeTimestamp,
    TimestampTooLarge,  // above kTraceMaxTimestamp
    BadCount,           // empty, not a whole number, or zero
    CountTooLarge,      // above 2^64 - 1
    IncompleteRow,      // the last row has no line break: it may have been cut short
    CarriageReturn,     // a CR inside a line (fatal in the header: CR-only line breaks)
    // Access logs (access_log_reader.h):
    UnrecognisedFormat,  // fatal: the first lines match no known format
    LogLineMismatch,     // the line does not follow the log format
    BadLogTime,          // the time field is not a valid time of its syntax
    MissingKeyField,     // the field the key is taken from is absent or empty
    CorruptInput,        // fatal: the compressed input cannot be decoded
    TimeTooFarAhead,     // far ahead of the rows before it and not followed (time_jump_check.h)
    BadMeasure,          // a bytes or response-time field that is not one (measure_fields.h)
    // Not an error: the line parsed, but the filter refused it (AccessLogParser::setFilter);
    // readers skip it and count it in TraceProgress::filtered.
    Filtered,
};

struct TraceError {
    std::uint64_t line = 0;  // 1-based physical line in the input
    TraceErrorKind kind = TraceErrorKind::None;
    std::string message;  // the problem and what was expected, without the line
    bool fatal = false;
};

struct TraceRow {
    HitEvent event;
    std::uint64_t line = 0;
};

struct TraceProgress {
    std::uint64_t bytesRead = 0;  // bytes consumed up to the end of the last line returned
    std::uint64_t lines = 0;      // physical lines consumed, blank and comment lines included
    std::uint64_t rows = 0;       // good rows returned
    std::uint64_t badRows = 0;    // bad rows returned (a fatal header error counts as one)
    std::uint64_t filtered = 0;   // lines the filter refused (HitFileOptions::filter)
};

}  // namespace hitcounter
