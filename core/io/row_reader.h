// RowReader: the one interface of every reader of recorded hits (trace CSV, access logs), so
// that replay, the CLI and the GUI read any of them the same way.
//
// Not thread-safe; one owner thread. next() returns Row (row filled), BadRow (error() says
// which line and why; the next call goes on with the next line, unless error().fatal), or End.
#pragma once

#include <optional>

#include "core/io/trace_reader_types.h"

namespace hitcounter {

class RowReader {
public:
    virtual ~RowReader() = default;

    virtual TraceStatus next(TraceRow& row) = 0;
    // The last bad row's error; kind None before any.
    virtual const TraceError& error() const = 0;
    virtual const TraceProgress& progress() const = 0;
    // Reads on, without parsing the rows, until `line` physical lines have been read (a line an
    // earlier pass over the same input returned a row on: TraceRow::line), so that next() goes
    // on with the line after it; a trace's header is still read. The rows and bad rows skipped
    // are not counted in progress(). False if the input ends first.
    virtual bool skipToLine(std::uint64_t line) = 0;
    // The UTC offset the last row's time was written with (an access log's `+1200`), in
    // seconds east of UTC; nullopt if it names none (a trace CSV's unix seconds).
    virtual std::optional<int> utcOffset() const { return std::nullopt; }
};

}  // namespace hitcounter
