#include "core/io/access_log_reader.h"

namespace hitcounter {

AccessLogReader::AccessLogReader(std::istream& in, AccessLogParser parser)
    : m_lines(in, kMaxLineBytes), m_parser(std::move(parser)) {}

AccessLogReader::AccessLogReader(std::string_view buffer, AccessLogParser parser)
    : m_lines(buffer, kMaxLineBytes), m_parser(std::move(parser)) {}

bool AccessLogReader::skipToLine(std::uint64_t line) {
    std::string_view text;
    while (m_lines.lines() < line) {
        if (m_lines.next(text) == LineSplitter::Status::End)
            return false;
    }
    m_tally.progress.lines = m_lines.lines();
    m_tally.progress.bytesRead = m_lines.bytesRead();
    return true;
}

TraceStatus AccessLogReader::next(TraceRow& row) {
    for (;;) {
        std::string_view line;
        const auto status = m_lines.next(line);
        if (status == LineSplitter::Status::End)
            return TraceStatus::End;
        TraceErrorKind error = TraceErrorKind::None;
        const LogLineKind kind = readLogLine(m_parser, status, line, row.event, error, m_problem);
        if (const auto counted =
                m_tally.count(kind, m_lines.lines(), m_lines.bytesRead(), error, m_problem, row))
            return *counted;
    }
}

}  // namespace hitcounter
