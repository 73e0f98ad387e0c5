// HitFile: opens any file of recorded hits (hitcounter's trace CSV or a web server's access
// log, plain or gzip-compressed) and reads it as one RowReader. The one entry point replay,
// `limit` and the GUI use to read recorded traffic.
//
// Not thread-safe; one owner. Memory: constant (a 64 KiB head for detection, the reader's
// chunk, zlib's state).
//
// Compression is recognised by the gzip magic bytes, not the name (standard input too). The format
// is given (HitFileOptions) or detected from the first lines (detectHitFileFormat):
//  - trace CSV when the first line that is neither blank nor a '#' comment names a
//    `timestamp` column;
//  - otherwise combined, common or JSON lines, the first that more than half of the first
//    (up to 10) non-blank lines parse as (combined is tried before common: a combined line
//    also parses as common);
//  - otherwise trace CSV if the first line has a comma (the CSV reader then says what its
//    header lacks).
// A file that is none of these fails to open with one message naming what its first line was.
// With a filter (HitFileOptions::filter) only the lines it accepts are rows; the rest are
// counted in progress().filtered.
// A row dated far ahead of the rows before it and not followed by the next one (a line dated
// 2099 in a log of today) is a bad row of kind TimeTooFarAhead, not the new newest time
// (time_jump_check.h, HitFileOptions::maxTimeJump).
// After the last row, a corrupt gzip stream is reported as one fatal BadRow (kind
// CorruptInput). A truncated one (a copy cut short) is not an error: every line before the cut
// is read, the line the cut went through is not a row (nor a bad row), and once next() has
// returned End, truncatedAtLine() names that line (or the line after the last whole one).
// truncationText() says it for people: "truncated at line 1608: 1,607 lines replayed".
//
// Example:
//     HitFile file("access.log.2.gz", {});     // detects "combined (gzip)"
//     for (TraceRow row; file.next(row) != TraceStatus::End;) ...
#pragma once

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/error.h"
#include "core/io/access_log_parser.h"
#include "core/io/gzip_limits.h"
#include "core/io/row_reader.h"
#include "core/io/time_jump_check.h"

namespace hitcounter {

class GzipStreambuf;
class SplicedStreambuf;

enum class HitFileFormat { Auto, Trace, Common, Combined, JsonLines, LogFormat };

// "auto", "trace", "common", "combined", "json"; nullopt for anything else. (LogFormat is chosen
// by giving HitFileOptions::logFormat.)
std::optional<HitFileFormat> hitFileFormatFromName(std::string_view name);
std::string_view hitFileFormatName(HitFileFormat format);

// A time may jump ahead by this much before the jump must be confirmed by the next row
// (time_jump_check.h): one day.
inline constexpr std::chrono::seconds kDefaultMaxTimeJump{86'400};

struct HitFileOptions {
    HitFileFormat format = HitFileFormat::Auto;
    std::string logFormat;  // an nginx log_format string; when not empty, it is the format
    AccessLogKey key = AccessLogKey::Path;
    GzipLimits gzip;  // how far a gzip file may inflate (gzip_streambuf.h)
    std::chrono::seconds maxTimeJump = kDefaultMaxTimeJump;  // 0: no check
    // Only the lines it accepts are rows (AccessLogParser::setFilter); null: every line. A
    // trace CSV has no fields to filter: opening one with a filter fails.
    std::shared_ptr<const RecordFilter> filter;
    // Each row's HitEvent::series says which of them accept its line
    // (AccessLogParser::setSeries); null: none. A trace CSV fails to open with series too.
    std::shared_ptr<const SeriesFilters> series;
    // Access logs: their lines are parsed on this many threads (ParallelLogReader, the same
    // rows as one); 1: on the reading thread (AccessLogReader). Trace CSVs are read on one.
    unsigned parseThreads = 1;
};

// The parser of an access log of `format` (Common, Combined, JsonLines, or LogFormat with
// options.logFormat) with options.key and options.filter. Throws std::invalid_argument (a bad
// log format, a key or a filter field the format lacks).
AccessLogParser accessLogParserFor(HitFileFormat format, const HitFileOptions& options);

// The format of a file whose first bytes are `head`; nullopt with `problem` set when none fits.
std::optional<HitFileFormat> detectHitFileFormat(std::string_view head, std::string& problem);

// Opening failed: the message names the file and the problem (an Error: docs/architecture.md,
// "Errors").
class HitFileError : public Error {
public:
    using Error::Error;
};

class HitFile final : public RowReader {
public:
    // Throws HitFileError (cannot open, not a regular file: a FIFO or a device is refused
    // without blocking (regular_file.h), unrecognised format, bad --log-format, a key the
    // format lacks).
    HitFile(const std::filesystem::path& path, const HitFileOptions& options);
    // Reads a stream that cannot seek (standard input); `name` is used in messages. `in` must
    // outlive the HitFile.
    HitFile(std::istream& in, const std::string& name, const HitFileOptions& options);
    ~HitFile() override;

    HitFile(const HitFile&) = delete;
    HitFile& operator=(const HitFile&) = delete;

    TraceStatus next(TraceRow& row) override;
    // RowReader::skipToLine; the time jump check goes on as before the skip (see resumeAfter).
    bool skipToLine(std::uint64_t line) override;
    // On a HitFile just opened: skips to `line` as skipToLine() and goes on as if the rows
    // up to it had been read, `head` the newest time among them (the time jump check's head).
    // With `line` the TraceRow::line of a row an earlier pass over the same file returned,
    // next() then returns exactly the rows that followed it there (a row after a time jump,
    // read ahead then, is read again: the check sees it as it did).
    bool resumeAfter(std::uint64_t line, Timestamp head);
    const TraceError& error() const override;
    const TraceProgress& progress() const override;
    // The first line the file lost to a truncated gzip stream, once the end was reached.
    std::optional<std::uint64_t> truncatedAtLine() const { return m_truncatedAt; }
    std::optional<int> utcOffset() const override { return m_reader->utcOffset(); }

    HitFileFormat format() const { return m_format; }
    bool compressed() const { return m_gzip != nullptr; }
    // e.g. "combined log format (gzip)".
    std::string description() const;
    // Bytes of the file itself consumed so far (compressed bytes for gzip), for progress bars.
    std::uint64_t fileBytesRead() const;

private:
    void open(std::streambuf& raw, const std::string& name, const HitFileOptions& options);
    // The file's next row, before the time jump check.
    TraceStatus readRow(TraceRow& row);
    const TraceError& readError() const;

    std::unique_ptr<std::streambuf> m_file;          // the file's descriptor (openRegularFile)
    std::unique_ptr<SplicedStreambuf> m_rawSpliced;  // gzip: the sniffed bytes, then the rest
    std::unique_ptr<GzipStreambuf> m_gzip;
    std::unique_ptr<SplicedStreambuf> m_spliced;
    std::unique_ptr<std::istream> m_stream;
    std::unique_ptr<RowReader> m_reader;
    HitFileFormat m_format = HitFileFormat::Auto;
    TraceError m_streamError;  // set once the decompression failed
    bool m_streamErrorReported = false;
    std::optional<std::uint64_t> m_truncatedAt;
    bool m_cutLineSkipped = false;  // the reader counted the cut line as a bad row
    TraceProgress m_progress;       // the reader's, less the line a truncation cut
    TimeJumpCheck m_timeJumps;
    mutable TraceProgress m_checkedProgress;  // m_progress with the time jumps as bad rows
};

// "truncated at line 1608: 1,607 lines replayed" (rows: the good rows read before the cut).
std::string truncationText(std::uint64_t line, std::uint64_t rows);

}  // namespace hitcounter
