#include "core/sources/bad_lines.h"

#include <cstdio>

#include "core/base/saturating.h"

namespace hitcounter {

void BadLineLog::add(BadLine line) {
    if (line.line.size() > kMaxLineBytes) {
        line.line.resize(kMaxLineBytes);
    }
    std::lock_guard lock(m_mutex);
    m_total = saturatingAdd(m_total, 1);
    m_lines.push_back(std::move(line));
    if (m_lines.size() > kMaxLines) {
        m_lines.pop_front();
    }
}

std::vector<BadLine> BadLineLog::recent() const {
    std::lock_guard lock(m_mutex);
    return {m_lines.begin(), m_lines.end()};
}

std::uint64_t BadLineLog::total() const {
    std::lock_guard lock(m_mutex);
    return m_total;
}

std::string quoteLine(std::string_view line, std::size_t limit) {
    std::string out = "\"";
    for (std::size_t i = 0; i < line.size() && i < limit; ++i) {
        const auto c = static_cast<unsigned char>(line[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else {
            out += static_cast<char>(c);
        }
    }
    out += line.size() > limit ? "\"..." : "\"";
    return out;
}

}  // namespace hitcounter
