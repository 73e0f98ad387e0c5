// ParallelLogReader: an access-log RowReader whose lines are parsed by several threads, for
// large logs (a day of a busy server) on every core. The owner thread reads the stream
// (inflating a gzip stream there: one inflating thread feeding the parsers) and cuts it into
// lines with LineSplitter, in batches of about batchBytes; up to `threads` batches are parsed
// at once, each on a thread of its own with its own copy of the parser; next() hands their
// rows out in the file's order. Every row, bad row (its line, kind and message), progress()
// and utcOffset() is what AccessLogReader gives on the same input, call by call: both read
// each line with access_log_line.h.
//
// Threading: one owner thread, as every RowReader. The reader starts its threads
// (std::async) and waits for them: next() for the batch it hands out, the destructor for the
// batches in flight (at most `threads`, milliseconds each).
// Memory: at most threads + 1 batches (their text, at most batchBytes plus one line, and
// their parsed rows) and one line of at most kMaxLogLineBytes in the splitter.
// Cost: O(bytes); the parsing (most of it) spread over the threads, the splitting and the
// rows' hand-out on the owner's; one thread started per batch (tens of microseconds against
// milliseconds of parsing).
// skipToLine() passes over the lines read ahead (their parsing is wasted), then reads on.
//
// Example: ParallelLogReader reader(in, AccessLogParser(LogFormat::combined(), key), 4);
//          while (reader.next(row) != TraceStatus::End) ...  // AccessLogReader's rows
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <future>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/io/access_log_line.h"
#include "core/io/access_log_parser.h"
#include "core/io/line_splitter.h"
#include "core/io/row_reader.h"

namespace hitcounter {

class ParallelLogReader final : public RowReader {
public:
    static constexpr std::size_t kBatchBytes = std::size_t{1} << 20;
    static constexpr std::size_t kBatchLines = 32768;  // a log of blank lines stays bounded too

    // `threads` >= 1 (0 is taken as 1). `in` must outlive the reader.
    ParallelLogReader(std::istream& in, AccessLogParser parser, unsigned threads,
                      std::size_t batchBytes = kBatchBytes);
    ~ParallelLogReader() override;

    ParallelLogReader(const ParallelLogReader&) = delete;
    ParallelLogReader& operator=(const ParallelLogReader&) = delete;

    TraceStatus next(TraceRow& row) override;
    const TraceError& error() const override { return m_tally.error; }
    const TraceProgress& progress() const override { return m_tally.progress; }
    bool skipToLine(std::uint64_t line) override;
    std::optional<int> utcOffset() const override { return m_utcOffset; }

private:
    struct Line {
        std::uint64_t number = 0;     // LineSplitter::lines() after it
        std::uint64_t bytesRead = 0;  // LineSplitter::bytesRead() after it
        LineSplitter::Status status = LineSplitter::Status::Line;
        std::size_t offset = 0;  // its text in Batch::text
        std::size_t size = 0;
    };
    struct Parsed {
        LogLineKind kind = LogLineKind::Blank;
        TraceErrorKind error = TraceErrorKind::None;
        std::string problem;
        HitEvent event;
        bool readTime = false;  // the line's time was read: utcOffset is its offset
        std::optional<int> utcOffset;
    };
    struct Batch {
        std::string text;
        std::vector<Line> lines;
        std::vector<Parsed> parsed;  // by line, once parsed
    };

    // Reads the next batch of lines and starts parsing it; false at the end of the input.
    bool startBatch();
    // Makes the oldest batch in flight the current one, once parsed; false if none is.
    bool takeBatch();
    static std::unique_ptr<Batch> parse(std::unique_ptr<Batch> batch, AccessLogParser parser);

    LineSplitter m_lines;
    const AccessLogParser m_parser;  // each batch parses with a copy
    const unsigned m_threads;
    const std::size_t m_batchBytes;
    bool m_inputEnded = false;
    std::unique_ptr<Batch> m_current;
    std::size_t m_next = 0;  // the current batch's next line
    LogLineTally m_tally;
    std::optional<int> m_utcOffset;
    std::deque<std::future<std::unique_ptr<Batch>>> m_inFlight;  // last: waited for first
};

}  // namespace hitcounter
