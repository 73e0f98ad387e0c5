// RowReader: the one interface of every reader of recorded hits (trace CSV, access logs), so
// that replay, the CLI and the GUI read any of them the same way.
//
// Not thread-safe; one owner thread. next() returns Row (row filled), BadRow (error() says
// which line and why; the next call goes on with the next line, unless error().fatal), or End.
#pragma once

#include "core/io/trace_reader_types.h"

namespace hitcounter {

class RowReader {
public:
    virtual ~RowReader() = default;

    virtual TraceStatus next(TraceRow& row) = 0;
    // The last bad row's error; kind None before any.
    virtual const TraceError& error() const = 0;
    virtual const TraceProgress& progress() const = 0;
};

}  // namespace hitcounter
