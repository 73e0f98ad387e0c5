#include "core/io/parallel_log_reader.h"

#include <algorithm>

namespace hitcounter {

ParallelLogReader::ParallelLogReader(std::istream& in, AccessLogParser parser, unsigned threads,
                                     std::size_t batchBytes)
    : m_lines(in, kMaxLogLineBytes),
      m_parser(std::move(parser)),
      m_threads(std::max(threads, 1U)),
      m_batchBytes(std::max<std::size_t>(batchBytes, 1)) {}

ParallelLogReader::~ParallelLogReader() = default;

bool ParallelLogReader::startBatch() {
    if (m_inputEnded) {
        return false;
    }
    auto batch = std::make_unique<Batch>();
    batch->text.reserve(m_batchBytes + kMaxLogLineBytes);
    while (batch->text.size() < m_batchBytes && batch->lines.size() < kBatchLines) {
        std::string_view text;
        const LineSplitter::Status status = m_lines.next(text);
        if (status == LineSplitter::Status::End) {
            m_inputEnded = true;
            break;
        }
        batch->lines.push_back(
            {m_lines.lines(), m_lines.bytesRead(), status, batch->text.size(), text.size()});
        batch->text.append(text);
    }
    if (batch->lines.empty()) {
        return false;
    }
    m_inFlight.push_back(
        std::async(std::launch::async, &ParallelLogReader::parse, std::move(batch), m_parser));
    return true;
}

std::unique_ptr<ParallelLogReader::Batch> ParallelLogReader::parse(std::unique_ptr<Batch> batch,
                                                                   AccessLogParser parser) {
    batch->parsed.resize(batch->lines.size());
    const std::string_view text = batch->text;
    for (std::size_t i = 0; i < batch->lines.size(); ++i) {
        const Line& line = batch->lines[i];
        Parsed& parsed = batch->parsed[i];
        const std::uint64_t timesRead = parser.timesRead();
        parsed.kind = readLogLine(parser, line.status, text.substr(line.offset, line.size),
                                  parsed.event, parsed.error, parsed.problem);
        parsed.readTime = parser.timesRead() != timesRead;
        parsed.utcOffset = parser.lastUtcOffset();
    }
    return batch;
}

bool ParallelLogReader::takeBatch() {
    while (m_inFlight.size() < m_threads && startBatch()) {
    }
    if (m_inFlight.empty()) {
        return false;
    }
    m_current = m_inFlight.front().get();
    m_inFlight.pop_front();
    m_next = 0;
    startBatch();  // the pipeline stays full while the owner hands these rows out
    return true;
}

TraceStatus ParallelLogReader::next(TraceRow& row) {
    for (;;) {
        if (!m_current || m_next == m_current->lines.size()) {
            if (!takeBatch()) {
                return TraceStatus::End;
            }
            continue;
        }
        const Line& line = m_current->lines[m_next];
        Parsed& parsed = m_current->parsed[m_next];
        ++m_next;
        if (parsed.readTime) {
            m_utcOffset = parsed.utcOffset;
        }
        if (parsed.kind == LogLineKind::Row) {
            row.event = std::move(parsed.event);
        }
        if (const auto counted = m_tally.count(parsed.kind, line.number, line.bytesRead,
                                               parsed.error, std::move(parsed.problem), row)) {
            return *counted;
        }
    }
}

bool ParallelLogReader::skipToLine(std::uint64_t line) {
    // As AccessLogReader: progress moves only when the line is reached.
    const TraceProgress before = m_tally.progress;
    while (m_tally.progress.lines < line) {
        if (m_current && m_next < m_current->lines.size()) {
            const Line& skipped = m_current->lines[m_next++];
            m_tally.progress.lines = skipped.number;
            m_tally.progress.bytesRead = skipped.bytesRead;
        } else if (!m_inFlight.empty()) {
            m_current = m_inFlight.front().get();
            m_inFlight.pop_front();
            m_next = 0;
        } else {
            std::string_view text;
            if (m_inputEnded || m_lines.next(text) == LineSplitter::Status::End) {
                m_inputEnded = true;
                m_tally.progress = before;
                return false;
            }
            m_tally.progress.lines = m_lines.lines();
            m_tally.progress.bytesRead = m_lines.bytesRead();
        }
    }
    return true;
}

}  // namespace hitcounter
