#include "core/io/trace_reader.h"

#include <algorithm>
#include <charconv>

namespace hitcounter {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::size_t kQuoteLimit = 40;
constexpr std::string_view kCrOnly =
    " (CR-only line breaks, as old Mac files have, are not supported)";

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const auto last = s.find_last_not_of(" \t");
    return s.substr(first, last - first + 1);
}

// The field as it appears in a message: quoted and cut short so one bad line cannot flood
// the error output.
std::string quoted(std::string_view s) {
    std::string out = "'";
    out += s.substr(0, kQuoteLimit);
    if (s.size() > kQuoteLimit)
        out += "...";
    out += "'";
    return out;
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               const auto lower = [](char c) {
                   return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
               };
               return lower(x) == lower(y);
           });
}

}  // namespace

TraceReader::TraceReader(std::istream& in, std::size_t chunkBytes)
    : m_in(&in), m_chunkBytes(std::max<std::size_t>(chunkBytes, 1)) {}

TraceReader::TraceReader(std::string_view buffer) : m_data(buffer), m_eof(true) {}

TraceColumns TraceReader::columns() const {
    return {m_layout.key >= 0, m_layout.visitor >= 0, m_layout.count >= 0};
}

bool TraceReader::refill() {
    m_storage.erase(0, m_pos);
    m_pos = 0;
    const auto held = m_storage.size();
    m_storage.resize(held + m_chunkBytes);
    m_in->read(m_storage.data() + held, static_cast<std::streamsize>(m_chunkBytes));
    const auto got = static_cast<std::size_t>(m_in->gcount());
    m_storage.resize(held + got);
    m_data = m_storage;
    if (!*m_in)
        m_eof = true;
    return got > 0;
}

TraceReader::LineStatus TraceReader::nextLine(std::string_view& line, bool& terminated) {
    bool tooLong = false;
    m_droppedCr = false;
    for (;;) {
        const auto newline = m_data.find('\n', m_pos);
        const bool atEnd = newline == std::string_view::npos && m_eof;
        if (newline != std::string_view::npos || atEnd) {
            const auto end = atEnd ? m_data.size() : newline;
            if (atEnd && end == m_pos && !tooLong)
                return LineStatus::End;
            line = m_data.substr(m_pos, end - m_pos);
            m_pos = atEnd ? end : end + 1;
            terminated = !atEnd;
            m_progress.bytesRead += line.size() + (atEnd ? 0 : 1);
            ++m_progress.lines;
            return tooLong || line.size() > kMaxLineBytes ? LineStatus::TooLong : LineStatus::Line;
        }
        // No line break in what is held: drop an overlong line's head instead of growing.
        if (m_data.size() - m_pos > kMaxLineBytes) {
            m_droppedCr = m_droppedCr || m_data.find('\r', m_pos) != std::string_view::npos;
            m_progress.bytesRead += m_data.size() - m_pos;
            m_pos = m_data.size();
            tooLong = true;
        }
        refill();
    }
}

TraceStatus TraceReader::fail(TraceErrorKind kind, std::string message, bool fatal) {
    m_error = {m_progress.lines, kind, std::move(message), fatal};
    ++m_progress.badRows;
    if (fatal)
        m_done = true;
    return TraceStatus::BadRow;
}

TraceStatus TraceReader::next(TraceRow& row) {
    while (!m_done) {
        std::string_view line;
        bool terminated = false;
        const auto status = nextLine(line, terminated);
        if (status == LineStatus::End)
            break;
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        const bool holdsCr = line.find('\r') != std::string_view::npos;
        if (status == LineStatus::TooLong)
            return fail(TraceErrorKind::LineTooLong,
                        "line longer than " + std::to_string(kMaxLineBytes) + " bytes" +
                            (holdsCr || m_droppedCr ? std::string(kCrOnly) : std::string()) +
                            "; expected one short row per line",
                        !m_hasHeader);
        if (holdsCr)
            return fail(TraceErrorKind::CarriageReturn,
                        "line holds a carriage return (CR) before its end" + std::string(kCrOnly) +
                            "; expected LF or CRLF line breaks",
                        !m_hasHeader);
        if (m_progress.lines == 1 && line.starts_with(kBom))
            line.remove_prefix(kBom.size());
        line = trim(line);
        if (line.empty() || line.front() == '#')
            continue;
        if (m_hasHeader && !terminated)
            return fail(TraceErrorKind::IncompleteRow,
                        "last row " + quoted(line) +
                            " has no line break, so it may have been cut short (a full disk or "
                            "a crash while writing); expected every row to end with a line "
                            "break");
        if (m_hasHeader)
            return parseRow(line, row);
        if (parseHeader(line) == TraceStatus::BadRow)
            return TraceStatus::BadRow;
    }
    return TraceStatus::End;
}

bool TraceReader::skipToLine(std::uint64_t line) {
    TraceRow row;
    // The header, and what next() reads after it: the first row, on or before `line`.
    while (!m_hasHeader && !m_done && m_progress.lines < line) {
        if (next(row) == TraceStatus::End)
            return false;
    }
    std::string_view text;
    bool terminated = false;
    while (m_progress.lines < line) {
        if (m_done || nextLine(text, terminated) == LineStatus::End)
            return false;
    }
    return true;
}

TraceStatus TraceReader::parseHeader(std::string_view line) {
    Layout layout;
    std::size_t index = 0;
    for (std::size_t start = 0;; ++index) {
        const auto comma = line.find(',', start);
        const auto name = trim(line.substr(start, comma - start));
        for (auto [column, slot] : {std::pair{kTraceTimestampColumn, &layout.timestamp},
                                    std::pair{kTraceKeyColumn, &layout.key},
                                    std::pair{kTraceVisitorColumn, &layout.visitor},
                                    std::pair{kTraceCountColumn, &layout.count}}) {
            if (!equalsIgnoringCase(name, column))
                continue;
            if (*slot >= 0)
                return fail(TraceErrorKind::DuplicateColumn,
                            "header names column '" + std::string(column) +
                                "' twice; expected each column once",
                            true);
            *slot = static_cast<int>(index);
        }
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    if (layout.timestamp < 0)
        return fail(TraceErrorKind::MissingTimestampColumn,
                    "header " + quoted(line) +
                        " has no 'timestamp' column; expected a header line such as "
                        "timestamp,key,visitor,count",
                    true);
    layout.fields = index + 1;
    m_layout = layout;
    m_hasHeader = true;
    return TraceStatus::Row;
}

TraceStatus TraceReader::parseRow(std::string_view line, TraceRow& row) {
    std::string_view timestamp, key, visitor, count;
    std::size_t fields = 0;
    for (std::size_t start = 0;; ++fields) {
        const auto comma = line.find(',', start);
        const auto field = trim(line.substr(start, comma - start));
        const auto index = static_cast<int>(fields);
        if (index == m_layout.timestamp)
            timestamp = field;
        else if (index == m_layout.key)
            key = field;
        else if (index == m_layout.visitor)
            visitor = field;
        else if (index == m_layout.count)
            count = field;
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    ++fields;
    if (fields != m_layout.fields)
        return fail(fields < m_layout.fields ? TraceErrorKind::ShortRow : TraceErrorKind::LongRow,
                    (fields < m_layout.fields ? "short row: " : "long row: ") +
                        std::to_string(fields) + " fields; expected " +
                        std::to_string(m_layout.fields) + " as the header names");

    if (timestamp.empty())
        return fail(TraceErrorKind::MissingTimestamp,
                    "timestamp is empty; expected seconds such as 17 or 17.25");
    const ParsedTimestamp parsed = parseTimestamp(timestamp);
    if (parsed.problem != TimestampProblem::None) {
        const auto kind =
            parsed.problem == TimestampProblem::Negative   ? TraceErrorKind::NegativeTimestamp
            : parsed.problem == TimestampProblem::TooLarge ? TraceErrorKind::TimestampTooLarge
                                                           : TraceErrorKind::NonNumericTimestamp;
        return fail(kind, "timestamp " + quoted(timestamp) + " " +
                              std::string(timestampProblemText(parsed.problem)));
    }
    const Timestamp time = parsed.time;

    Count n = 1;
    if (m_layout.count >= 0) {
        if (!isDigits(count))
            return fail(TraceErrorKind::BadCount,
                        "count " + quoted(count) + " is not a whole number; expected a count >= 1");
        const auto [cEnd, cError] = std::from_chars(count.data(), count.data() + count.size(), n);
        if (cError != std::errc{})
            return fail(TraceErrorKind::CountTooLarge, "count " + quoted(count) +
                                                           " is too large; expected at most " +
                                                           std::to_string(~Count{0}));
        if (n == 0)
            return fail(TraceErrorKind::BadCount, "count is 0; expected a count >= 1");
    }

    row.event.time = time;
    row.event.key.assign(key);
    row.event.visitor.assign(visitor);
    row.event.count = n;
    row.line = m_progress.lines;
    ++m_progress.rows;
    return TraceStatus::Row;
}

}  // namespace hitcounter
