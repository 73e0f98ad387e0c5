// TraceReader: a streaming reader of the trace CSV format (trace_format.h, docs/formats.md).
//
// Not thread-safe; one owner thread calls it (a replay source's worker, or the CLI's main).
//
// Semantics: next() returns the rows one at a time, in file order. A bad row is not fatal:
// next() returns TraceStatus::BadRow, error() names its line and the problem, and the following
// call goes on with the next line (callers in strict mode stop there). A bad header is fatal
// (error().fatal): the reader then returns End. A file with no header at all (empty, or only
// blank and comment lines) is an empty trace, not an error.
// Every row ends with a line break (LF or CRLF): a last row without one may have been cut
// short (a full disk, a crash while writing; "12345" cut to "12" would count 12 hits), so it
// is a bad row (IncompleteRow), never read as a smaller count. A CR left inside a line is a
// bad row (CarriageReturn); in the header, or a line too long before the header, it is fatal,
// so a trace with CR-only line breaks (one long line) is an error, not an empty trace.
//
// Memory: constant. A stream is read in chunks of chunkBytes; at most one line (capped at
// kMaxLineBytes, a longer line is a bad row and is skipped without being held) plus one chunk
// is buffered, so a 1 GB file streams in a few hundred KiB. A buffer given as std::string_view
// is parsed in place (the fuzz target's entry point); it must outlive the reader.
// Cost: O(bytes) overall.
//
// Example:
//     std::istringstream in("timestamp,count\n5,2\nx,1\n7.9,1\n");  // each row ends in \n
//     TraceReader reader(in);
//     TraceRow row;
//     reader.next(row);  // Row:    row.event = {5, "", "", 2}, row.line = 2
//     reader.next(row);  // BadRow: error() = {line 3, NonNumericTimestamp, "timestamp 'x' ..."}
//     reader.next(row);  // Row:    row.event.time = 7 (floored), row.line = 4
//     reader.next(row);  // End;    progress() = {bytesRead 30, lines 4, rows 2, badRows 1}
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

#include "core/io/row_reader.h"
#include "core/io/trace_format.h"

namespace hitcounter {

class TraceReader final : public RowReader {
public:
    static constexpr std::size_t kDefaultChunkBytes = 64 * 1024;
    static constexpr std::size_t kMaxLineBytes = 64 * 1024;

    // Reads `in` in chunks; `in` must outlive the reader.
    explicit TraceReader(std::istream& in, std::size_t chunkBytes = kDefaultChunkBytes);
    // Parses an in-memory buffer in place; `buffer` must outlive the reader.
    explicit TraceReader(std::string_view buffer);

    TraceReader(const TraceReader&) = delete;
    TraceReader& operator=(const TraceReader&) = delete;

    // Fills `row` and returns Row; or returns BadRow (see error()); or End when the input is
    // exhausted (or after a fatal error). `row` is only written on Row.
    TraceStatus next(TraceRow& row) override;

    // The last bad row's error; kind None before any.
    const TraceError& error() const override { return m_error; }
    const TraceProgress& progress() const override { return m_progress; }
    bool skipToLine(std::uint64_t line) override;
    // Whether the header was read (false for an empty trace until the header line is reached).
    bool hasHeader() const { return m_hasHeader; }
    // The optional columns the header names; meaningful once hasHeader().
    TraceColumns columns() const;

private:
    enum class LineStatus { Line, TooLong, End };
    // Column index of each known field in a row; -1 when absent.
    struct Layout {
        int timestamp = -1;
        int key = -1;
        int visitor = -1;
        int count = -1;
        std::size_t fields = 0;
    };

    // `terminated`: the line ended with a line break (not the end of the input).
    LineStatus nextLine(std::string_view& line, bool& terminated);
    bool refill();
    TraceStatus fail(TraceErrorKind kind, std::string message, bool fatal = false);
    TraceStatus parseHeader(std::string_view line);
    TraceStatus parseRow(std::string_view line, TraceRow& row);

    std::istream* m_in = nullptr;
    std::size_t m_chunkBytes = kDefaultChunkBytes;
    std::string m_storage;  // stream mode: the unconsumed tail of what was read
    std::string_view m_data;
    std::size_t m_pos = 0;
    bool m_eof = false;
    bool m_done = false;
    bool m_droppedCr = false;  // the dropped head of the current too-long line held a CR

    bool m_hasHeader = false;
    Layout m_layout;
    TraceError m_error;
    TraceProgress m_progress;
};

}  // namespace hitcounter
