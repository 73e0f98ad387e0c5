#include "app/cli/json_writer.h"

#include <charconv>
#include <cmath>

#include "core/net/text_escape.h"

namespace hitcounter::cli {

void JsonWriter::newLine() {
    m_out += '\n';
    m_out.append(static_cast<std::size_t>(4 * m_depth), ' ');
}

void JsonWriter::startValue() {
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_depth > 0) {
        if (!m_empty)
            m_out += ',';
        newLine();
    }
    m_empty = false;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    startValue();
    m_out += jsonString(name);
    m_out += ": ";
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    startValue();
    m_out += text;
    return *this;
}

JsonWriter& JsonWriter::open(char bracket) {
    startValue();
    m_out += bracket;
    ++m_depth;
    m_empty = true;
    return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
    --m_depth;
    if (!m_empty)
        newLine();
    m_out += bracket;
    m_empty = false;
    return *this;
}

JsonWriter& JsonWriter::count(std::uint64_t value) {
    return this->value(std::to_string(value));
}

JsonWriter& JsonWriter::integer(std::int64_t value) {
    return this->value(std::to_string(value));
}

JsonWriter& JsonWriter::real(double value) {
    if (!std::isfinite(value))
        return null();
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return this->value(std::string_view(text, static_cast<std::size_t>(end - text)));
}

JsonWriter& JsonWriter::boolean(bool value) {
    return this->value(value ? "true" : "false");
}

JsonWriter& JsonWriter::string(std::string_view text) {
    return value(jsonString(text));
}

JsonWriter& JsonWriter::null() {
    return value("null");
}

std::string JsonWriter::take() {
    m_out += '\n';
    return std::move(m_out);
}

}  // namespace hitcounter::cli
