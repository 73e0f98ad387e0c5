#include "core/io/access_log_reader.h"

namespace hitcounter {

AccessLogReader::AccessLogReader(std::istream& in, AccessLogParser parser)
    : m_lines(in, kMaxLineBytes), m_parser(std::move(parser)) {}

AccessLogReader::AccessLogReader(std::string_view buffer, AccessLogParser parser)
    : m_lines(buffer, kMaxLineBytes), m_parser(std::move(parser)) {}

TraceStatus AccessLogReader::fail(TraceErrorKind kind, std::string message) {
    m_error = {m_lines.lines(), kind, std::move(message), false};
    ++m_progress.badRows;
    return TraceStatus::BadRow;
}

bool AccessLogReader::skipToLine(std::uint64_t line) {
    std::string_view text;
    while (m_lines.lines() < line) {
        if (m_lines.next(text) == LineSplitter::Status::End)
            return false;
    }
    m_progress.lines = m_lines.lines();
    m_progress.bytesRead = m_lines.bytesRead();
    return true;
}

TraceStatus AccessLogReader::next(TraceRow& row) {
    for (;;) {
        std::string_view line;
        const auto status = m_lines.next(line);
        m_progress.lines = m_lines.lines();
        m_progress.bytesRead = m_lines.bytesRead();
        switch (status) {
            case LineSplitter::Status::End:
                return TraceStatus::End;
            case LineSplitter::Status::TooLong:
                return fail(TraceErrorKind::LineTooLong,
                            "line longer than " + std::to_string(kMaxLineBytes) +
                                " bytes; expected one request per line");
            case LineSplitter::Status::Incomplete:
                return fail(TraceErrorKind::IncompleteRow,
                            "the last line has no line break (cut off while written?); skipped");
            case LineSplitter::Status::Line:
                break;
        }
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            continue;
        const auto kind = m_parser.parse(line, row.event, m_problem);
        if (kind == TraceErrorKind::Filtered) {
            ++m_progress.filtered;
            continue;
        }
        if (kind != TraceErrorKind::None)
            return fail(kind, m_problem);
        row.line = m_lines.lines();
        ++m_progress.rows;
        return TraceStatus::Row;
    }
}

}  // namespace hitcounter
