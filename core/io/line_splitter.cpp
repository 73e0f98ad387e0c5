#include "core/io/line_splitter.h"

#include <algorithm>

namespace hitcounter {

LineSplitter::LineSplitter(std::istream& in, std::size_t maxLineBytes, std::size_t chunkBytes)
    : m_in(&in), m_maxLineBytes(maxLineBytes), m_chunkBytes(std::max<std::size_t>(chunkBytes, 1)) {}

LineSplitter::LineSplitter(std::string_view buffer, std::size_t maxLineBytes)
    : m_maxLineBytes(maxLineBytes), m_data(buffer), m_eof(true) {}

void LineSplitter::refill() {
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
}

LineSplitter::Status LineSplitter::next(std::string_view& line) {
    bool tooLong = false;
    for (;;) {
        const auto newline = m_data.find('\n', m_pos);
        if (newline != std::string_view::npos) {
            line = m_data.substr(m_pos, newline - m_pos);
            m_pos = newline + 1;
            m_bytesRead += line.size() + 1;
            ++m_lines;
            if (tooLong || line.size() > m_maxLineBytes) {
                line = {};
                return Status::TooLong;
            }
            return Status::Line;
        }
        if (m_eof) {
            if (m_pos == m_data.size() && !tooLong)
                return Status::End;
            line = m_data.substr(m_pos);
            m_bytesRead += line.size();
            m_pos = m_data.size();
            ++m_lines;
            if (tooLong || line.size() > m_maxLineBytes) {
                line = {};
                return Status::TooLong;
            }
            return Status::Incomplete;
        }
        // No line break in what is held: drop an overlong line's head instead of growing.
        if (m_data.size() - m_pos > m_maxLineBytes) {
            m_bytesRead += m_data.size() - m_pos;
            m_pos = m_data.size();
            tooLong = true;
        }
        refill();
    }
}

}  // namespace hitcounter
