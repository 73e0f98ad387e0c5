#include "core/io/access_log_line.h"

namespace hitcounter {

LogLineKind readLogLine(AccessLogParser& parser, LineSplitter::Status status, std::string_view line,
                        HitEvent& event, TraceErrorKind& error, std::string& problem) {
    switch (status) {
        case LineSplitter::Status::TooLong:
            error = TraceErrorKind::LineTooLong;
            problem = "line longer than " + std::to_string(kMaxLogLineBytes) +
                      " bytes; expected one request per line";
            return LogLineKind::Bad;
        case LineSplitter::Status::Incomplete:
            error = TraceErrorKind::IncompleteRow;
            problem = "the last line has no line break (cut off while written?); skipped";
            return LogLineKind::Bad;
        case LineSplitter::Status::Line:
        case LineSplitter::Status::End:
            break;
    }
    if (line.ends_with('\r'))
        line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos)
        return LogLineKind::Blank;
    error = parser.parse(line, event, problem);
    if (error == TraceErrorKind::Filtered)
        return LogLineKind::Filtered;
    return error == TraceErrorKind::None ? LogLineKind::Row : LogLineKind::Bad;
}

std::optional<TraceStatus> LogLineTally::count(LogLineKind kind, std::uint64_t line,
                                               std::uint64_t bytesRead, TraceErrorKind errorKind,
                                               std::string problem, TraceRow& row) {
    progress.lines = line;
    progress.bytesRead = bytesRead;
    switch (kind) {
        case LogLineKind::Row:
            row.line = line;
            ++progress.rows;
            return TraceStatus::Row;
        case LogLineKind::Bad:
            error = {line, errorKind, std::move(problem), false};
            ++progress.badRows;
            return TraceStatus::BadRow;
        case LogLineKind::Filtered:
            ++progress.filtered;
            return std::nullopt;
        case LogLineKind::Blank:
            return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace hitcounter
