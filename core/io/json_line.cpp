#include "core/io/json_line.h"

namespace hitcounter {

namespace {

constexpr int kMaxDepth = 64;

class JsonScanner {
public:
    JsonScanner(std::string_view text, std::string& problem) : m_text(text), m_problem(problem) {}

    bool object(const JsonMemberFn& onMember) {
        skipSpace();
        if (!consume('{'))
            return fail("expected '{' (one JSON object per line)");
        skipSpace();
        if (consume('}'))
            return end();
        for (;;) {
            skipSpace();
            std::string name;
            if (!string(name))
                return false;
            skipSpace();
            if (!consume(':'))
                return fail("expected ':' after a member name");
            skipSpace();
            if (peek() == '"') {
                std::string value;
                if (!string(value))
                    return false;
                onMember(name, value, true);
            } else {
                const auto start = m_pos;
                if (!skipValue(0))
                    return false;
                onMember(name, m_text.substr(start, m_pos - start), false);
            }
            skipSpace();
            if (consume('}'))
                return end();
            if (!consume(','))
                return fail("expected ',' or '}'");
        }
    }

private:
    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }
    bool consume(char c) {
        if (peek() != c || m_pos >= m_text.size())
            return false;
        ++m_pos;
        return true;
    }
    void skipSpace() {
        while (m_pos < m_text.size() &&
               (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\r'))
            ++m_pos;
    }
    bool fail(const char* what) {
        m_problem = std::string(what) + " at column " + std::to_string(m_pos + 1);
        return false;
    }
    bool end() {
        skipSpace();
        return m_pos == m_text.size() || fail("expected the end of the line after the object");
    }

    static void appendUtf8(std::string& out, unsigned cp) {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    bool hex4(unsigned& value) {
        if (m_pos + 4 > m_text.size())
            return fail("expected four hex digits after \\u");
        value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = m_text[m_pos++];
            value <<= 4;
            if (c >= '0' && c <= '9')
                value |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                value |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                value |= unsigned(c - 'A' + 10);
            else
                return fail("expected four hex digits after \\u");
        }
        return true;
    }

    bool string(std::string& out) {
        if (!consume('"'))
            return fail("expected '\"'");
        for (;;) {
            if (m_pos >= m_text.size())
                return fail("unterminated string");
            const char c = m_text[m_pos++];
            if (c == '"')
                return true;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_text.size())
                return fail("unterminated string");
            const char e = m_text[m_pos++];
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    unsigned cp = 0;
                    if (!hex4(cp))
                        return false;
                    if (cp >= 0xD800 && cp < 0xDC00 && m_text.substr(m_pos, 2) == "\\u") {
                        m_pos += 2;
                        unsigned low = 0;
                        if (!hex4(low))
                            return false;
                        cp = (low >= 0xDC00 && low < 0xE000)
                                 ? 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
                                 : 0xFFFD;
                    } else if (cp >= 0xD800 && cp < 0xE000) {
                        cp = 0xFFFD;  // a lone surrogate has no UTF-8 form
                    }
                    appendUtf8(out, cp);
                    break;
                }
                default:
                    --m_pos;
                    return fail("unknown escape in a string");
            }
        }
    }

    bool skipValue(int depth) {
        if (depth > kMaxDepth)
            return fail("JSON nested too deeply");
        const char c = peek();
        if (c == '"') {
            std::string ignored;
            return string(ignored);
        }
        if (c == '{' || c == '[') {
            const char close = c == '{' ? '}' : ']';
            ++m_pos;
            skipSpace();
            if (consume(close))
                return true;
            for (;;) {
                skipSpace();
                if (c == '{') {
                    std::string ignored;
                    if (!string(ignored))
                        return false;
                    skipSpace();
                    if (!consume(':'))
                        return fail("expected ':' after a member name");
                    skipSpace();
                }
                if (!skipValue(depth + 1))
                    return false;
                skipSpace();
                if (consume(close))
                    return true;
                if (!consume(','))
                    return fail(c == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
            }
        }
        const auto start = m_pos;
        while (m_pos < m_text.size()) {
            const char d = m_text[m_pos];
            const bool scalar = (d >= '0' && d <= '9') || (d >= 'a' && d <= 'z') || d == '-' ||
                                d == '+' || d == '.' || d == 'E';
            if (!scalar)
                break;
            ++m_pos;
        }
        const auto word = m_text.substr(start, m_pos - start);
        if (word.empty())
            return fail("expected a value");
        if (word == "true" || word == "false" || word == "null")
            return true;
        if ((word[0] >= '0' && word[0] <= '9') || word[0] == '-')
            return true;
        m_pos = start;
        return fail("expected a value");
    }

    std::string_view m_text;
    std::string& m_problem;
    std::size_t m_pos = 0;
};

}  // namespace

bool forEachJsonMember(std::string_view line, const JsonMemberFn& onMember, std::string& problem) {
    return JsonScanner(line, problem).object(onMember);
}

}  // namespace hitcounter
