// AccessLogReader: a streaming RowReader over an access log, one AccessLogParser per line.
//
// Not thread-safe; one owner. Memory: constant (LineSplitter: one chunk plus one line of at
// most kMaxLineBytes). Cost: O(bytes).
//
// Lines (access_log_line.h, which ParallelLogReader shares): blank lines are skipped; a '\r'
// before '\n' is dropped; a line that does not parse is a BadRow (error() names the line and
// the problem) and reading goes on; a last line without its '\n' is a BadRow of kind
// IncompleteRow (a log cut off mid-write; a live log is read by the follow source, which waits
// for the rest instead); a line the parser's filter refuses is skipped and counted in
// progress().filtered.
//
// Example:
//     std::istringstream in("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.0\" 200 5\n");
//     AccessLogReader reader(in, AccessLogParser(LogFormat::common(), AccessLogKey::Path));
//     reader.next(row);  // Row: {971211336, "/", "1.2.3.4", 1}, row.line = 1
#pragma once

#include <istream>
#include <string>

#include "core/io/access_log_line.h"
#include "core/io/access_log_parser.h"
#include "core/io/line_splitter.h"
#include "core/io/row_reader.h"

namespace hitcounter {

class AccessLogReader final : public RowReader {
public:
    static constexpr std::size_t kMaxLineBytes = kMaxLogLineBytes;

    AccessLogReader(std::istream& in, AccessLogParser parser);
    // Parses an in-memory buffer in place; it must outlive the reader.
    AccessLogReader(std::string_view buffer, AccessLogParser parser);

    TraceStatus next(TraceRow& row) override;
    const TraceError& error() const override { return m_tally.error; }
    const TraceProgress& progress() const override { return m_tally.progress; }
    bool skipToLine(std::uint64_t line) override;
    std::optional<int> utcOffset() const override { return m_parser.lastUtcOffset(); }

private:
    LineSplitter m_lines;
    AccessLogParser m_parser;
    std::string m_problem;
    LogLineTally m_tally;
};

}  // namespace hitcounter
