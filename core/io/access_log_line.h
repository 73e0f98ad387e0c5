// What a reader of an access log does with each line LineSplitter gives it, in one place, so
// that AccessLogReader (one thread) and ParallelLogReader (lines parsed by several threads)
// read a log exactly alike. readLogLine() reads one line (any thread, with a parser of its
// own); LogLineTally counts the lines, in the file's order, into the reader's progress and
// last error.
//
// A line is: a row (parsed into a HitEvent); blank (only spaces and tabs, skipped); refused
// by the parser's filter (skipped, counted in progress().filtered); or bad (a line too long,
// the input's last line without its '\n', a line that does not parse: a BadRow naming the
// line and the problem). A '\r' before the '\n' is dropped.
//
// Threading: readLogLine is a function of its arguments (the parser is the caller's);
// LogLineTally is a value owned by one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/io/access_log_parser.h"
#include "core/io/line_splitter.h"
#include "core/io/trace_reader_types.h"

namespace hitcounter {

enum class LogLineKind { Row, Blank, Filtered, Bad };

// The longest line an access log may have: one request per line.
inline constexpr std::size_t kMaxLogLineBytes = 64 * 1024;

// Reads `line` (with the status the splitter gave it) with `parser`: Row fills `event`; Bad
// sets `error` and `problem`.
LogLineKind readLogLine(AccessLogParser& parser, LineSplitter::Status status, std::string_view line,
                        HitEvent& event, TraceErrorKind& error, std::string& problem);

struct LogLineTally {
    TraceProgress progress;
    TraceError error;

    // Counts line number `line`, after which `bytesRead` bytes were read, read as `kind`: a
    // Row (`row.line` set) or a Bad line (`error` set to `kind` and `problem`) is what the
    // reader returns (Row, BadRow); a Blank or Filtered one is read past (nullopt).
    std::optional<TraceStatus> count(LogLineKind kind, std::uint64_t line, std::uint64_t bytesRead,
                                     TraceErrorKind errorKind, std::string problem, TraceRow& row);
};

}  // namespace hitcounter
