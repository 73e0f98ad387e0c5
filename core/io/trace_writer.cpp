#include "core/io/trace_writer.h"

#include <stdexcept>
#include <string>

#include "core/base/error.h"

namespace hitcounter {

TraceWriter::TraceWriter(std::ostream& out, TraceColumns columns)
    : m_out(&out), m_columns(columns) {
    writeHeader();
}

TraceWriter::TraceWriter(const std::filesystem::path& file, TraceColumns columns)
    : m_file(std::make_unique<std::ofstream>(file, std::ios::binary | std::ios::trunc)),
      m_out(m_file.get()),
      m_columns(columns) {
    if (!*m_file)
        throw Error("cannot create trace file '" + file.string() + "'");
    writeHeader();
}

void TraceWriter::writeHeader() {
    *m_out << kTraceTimestampColumn;
    if (m_columns.key)
        *m_out << ',' << kTraceKeyColumn;
    if (m_columns.visitor)
        *m_out << ',' << kTraceVisitorColumn;
    if (m_columns.count)
        *m_out << ',' << kTraceCountColumn;
    *m_out << '\n';
}

void TraceWriter::writeField(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t");
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool edgeBlank = i < first || first == std::string_view::npos || i > last;
        *m_out << (c == ',' || c == '\r' || c == '\n' || edgeBlank ? '_' : c);
    }
}

void TraceWriter::write(const HitEvent& event) {
    if (event.time < 0 || event.time > kTraceMaxTimestamp)
        throw std::invalid_argument("trace time " + std::to_string(event.time) +
                                    " is outside [0, 2^62)");
    if (event.count == 0)
        throw std::invalid_argument("trace count must be >= 1");
    if (event.count > 1 && !m_columns.count)
        throw std::invalid_argument("a count above 1 needs the trace's count column");
    *m_out << event.time;
    if (m_columns.key) {
        *m_out << ',';
        writeField(event.key);
    }
    if (m_columns.visitor) {
        *m_out << ',';
        writeField(event.visitor);
    }
    if (m_columns.count)
        *m_out << ',' << event.count;
    *m_out << '\n';
}

void TraceWriter::write(const HitBatch& batch) {
    for (const auto& event : batch)
        write(event);
}

void TraceWriter::writeComment(std::string_view text) {
    *m_out << "# ";
    for (const char c : text)
        *m_out << (c == '\r' || c == '\n' ? ' ' : c);
    *m_out << '\n';
}

void TraceWriter::flush() {
    m_out->flush();
}

}  // namespace hitcounter
