#include "core/io/json_line.h"

#include "core/io/json_text.h"

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

    // The text as decodeJsonEscape reads it (core/io/json_text.h).
    struct Cursor {
        JsonScanner& scanner;
        int peek() const {
            return scanner.atEnd() ? -1 : static_cast<unsigned char>(scanner.peek());
        }
        void get() { ++scanner.m_pos; }
    };
    bool atEnd() const { return m_pos >= m_text.size(); }

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
            Cursor cursor{*this};
            switch (decodeJsonEscape(cursor, out)) {
                case JsonEscapeError::None:
                    break;
                case JsonEscapeError::UnknownEscape:
                    return fail(atEnd() ? "unterminated string" : "unknown escape in a string");
                case JsonEscapeError::NotFourHexDigits:
                    return fail("expected four hex digits after \\u");
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
        if (isJsonNumber(word))
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
