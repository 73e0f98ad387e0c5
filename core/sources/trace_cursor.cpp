#include "core/sources/trace_cursor.h"

#include <stdexcept>

namespace hitcounter {

TraceCursor::TraceCursor(const std::filesystem::path& file, const std::string& prefix,
                         const TraceIndexEntry& at)
    : m_file(file, std::ios::binary) {
    if (!m_file) {
        throw std::runtime_error(file.string() + ": cannot open the trace");
    }
    if (at.offset == 0) {
        m_reader = std::make_unique<TraceReader>(m_file);
        return;
    }
    m_file.seekg(static_cast<std::streamoff>(at.offset));
    m_spliced = std::make_unique<SplicedStreambuf>(prefix, *m_file.rdbuf());
    m_stream = std::make_unique<std::istream>(m_spliced.get());
    m_reader = std::make_unique<TraceReader>(*m_stream);
    TraceRow skipped;
    m_reader->next(skipped);  // the prefix's first row (or bad row), already read before
}

}  // namespace hitcounter
