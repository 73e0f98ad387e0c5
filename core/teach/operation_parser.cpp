#include "core/teach/operation_parser.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace hitcounter::teach {

std::string ParseError::describe() const {
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message;
}

namespace {

struct Position {
    int line = 1;
    int column = 1;
};

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// A whole number in [0, max]; nullopt when `digits` is not one (sign, letters, too large).
std::optional<std::int64_t> parseNumber(std::string_view digits, std::int64_t max) {
    if (digits.empty() || digits.size() > 19) {
        return std::nullopt;
    }
    std::int64_t value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        value = value * 10 + (c - '0');
        if (value > max) {
            return std::nullopt;
        }
    }
    return value;
}

std::string secondProblem(std::string_view token) {
    if (!token.empty() && token.front() == '-') {
        return "'" + std::string(token) + "' is negative: seconds start at 0";
    }
    return "'" + std::string(token) + "' is not a second (a whole number from 0 to " +
           std::to_string(kMaxSecond) + ")";
}

// Counts operations and hits against the limits; returns the message when one is exceeded.
class Budget {
public:
    std::optional<std::string> take(const Operation& op) {
        if (++m_operations > kMaxOperations) {
            return "too many operations: a lesson holds at most " + std::to_string(kMaxOperations);
        }
        if (op.kind == Operation::Kind::Hit) {
            m_hits += op.repeat;
            if (m_hits > kMaxTotalHits) {
                return "too many hits: a lesson holds at most " + std::to_string(kMaxTotalHits) +
                       " in all";
            }
        }
        return std::nullopt;
    }

private:
    std::size_t m_operations = 0;
    Count m_hits = 0;
};

struct Token {
    std::string_view text;
    int column = 0;
};

std::vector<Token> splitWords(std::string_view segment, int firstColumn) {
    std::vector<Token> tokens;
    std::size_t i = 0;
    while (i < segment.size()) {
        if (std::isspace(static_cast<unsigned char>(segment[i]))) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < segment.size() && !std::isspace(static_cast<unsigned char>(segment[i]))) {
            ++i;
        }
        tokens.push_back({segment.substr(start, i - start), firstColumn + static_cast<int>(start)});
    }
    return tokens;
}

// One "keyword second [xN]" segment; its tokens are non-empty.
std::variant<Operation, ParseError> parseSegment(const std::vector<Token>& tokens, int line) {
    const Token& keyword = tokens[0];
    const std::string name = lower(keyword.text);
    Operation op;
    op.line = line;
    op.column = keyword.column;
    if (name == "hit") {
        op.kind = Operation::Kind::Hit;
    } else if (name == "gethits") {
        op.kind = Operation::Kind::GetHits;
    } else {
        return ParseError{
            line, keyword.column,
            "unknown operation '" + std::string(keyword.text) + "': expected 'hit' or 'getHits'"};
    }
    if (tokens.size() < 2) {
        const int after = keyword.column + static_cast<int>(keyword.text.size());
        return ParseError{line, after,
                          "expected a second after '" + std::string(keyword.text) + "'"};
    }
    const std::optional<std::int64_t> second = parseNumber(tokens[1].text, kMaxSecond);
    if (!second) {
        return ParseError{line, tokens[1].column, secondProblem(tokens[1].text)};
    }
    op.second = *second;
    std::size_t next = 2;
    if (next < tokens.size() && (tokens[next].text[0] == 'x' || tokens[next].text[0] == 'X')) {
        const Token& repeat = tokens[next];
        if (op.kind == Operation::Kind::GetHits) {
            return ParseError{line, repeat.column, "getHits takes no repeat count"};
        }
        const std::optional<std::int64_t> n =
            parseNumber(repeat.text.substr(1), static_cast<std::int64_t>(kMaxRepeat));
        if (!n || *n < 1) {
            return ParseError{line, repeat.column,
                              "'" + std::string(repeat.text) + "' is not a repeat count: write x" +
                                  "N with N from 1 to " + std::to_string(kMaxRepeat)};
        }
        op.repeat = static_cast<Count>(*n);
        ++next;
    }
    if (next < tokens.size()) {
        return ParseError{line, tokens[next].column,
                          "unexpected '" + std::string(tokens[next].text) +
                              "' after the operation (one operation per line or ';')"};
    }
    return op;
}

ParseResult parsePlain(std::string_view text) {
    std::vector<Operation> ops;
    Budget budget;
    int line = 0;
    std::size_t lineStart = 0;
    while (lineStart <= text.size()) {
        ++line;
        std::size_t lineEnd = text.find('\n', lineStart);
        if (lineEnd == std::string_view::npos) {
            lineEnd = text.size();
        }
        std::string_view content = text.substr(lineStart, lineEnd - lineStart);
        content = content.substr(0, content.find('#'));
        std::size_t segmentStart = 0;
        while (segmentStart <= content.size()) {
            std::size_t segmentEnd = content.find(';', segmentStart);
            if (segmentEnd == std::string_view::npos) {
                segmentEnd = content.size();
            }
            const std::vector<Token> tokens =
                splitWords(content.substr(segmentStart, segmentEnd - segmentStart),
                           static_cast<int>(segmentStart) + 1);
            if (!tokens.empty()) {
                auto parsed = parseSegment(tokens, line);
                if (auto* error = std::get_if<ParseError>(&parsed)) {
                    return *error;
                }
                const Operation& op = std::get<Operation>(parsed);
                if (auto problem = budget.take(op)) {
                    return ParseError{line, op.column, *problem};
                }
                ops.push_back(op);
            }
            segmentStart = segmentEnd + 1;
        }
        lineStart = lineEnd + 1;
    }
    return ops;
}

// A strict reader for exactly the two-array LeetCode input; no general JSON.
class LeetCodeReader {
public:
    explicit LeetCodeReader(std::string_view text) : m_text(text) {}

    ParseResult read() {
        std::vector<std::pair<std::string, Position>> names;
        std::vector<std::pair<std::vector<std::string_view>, Position>> args;
        if (!readNames(names) || !readArgs(args)) {
            return *m_error;
        }
        skipSpace();
        if (m_index < m_text.size()) {
            return errorHere("unexpected text after the two arrays");
        }
        return build(names, args);
    }

private:
    ParseResult build(const std::vector<std::pair<std::string, Position>>& names,
                      const std::vector<std::pair<std::vector<std::string_view>, Position>>& args) {
        if (names.size() != args.size()) {
            const Position where =
                names.size() > args.size() ? names[args.size()].second : args[names.size()].second;
            return ParseError{where.line, where.column,
                              "the arrays differ in length: " + std::to_string(names.size()) +
                                  " names but " + std::to_string(args.size()) + " argument lists"};
        }
        if (names.empty() || names[0].first != "HitCounter" || !args[0].first.empty()) {
            const Position where = names.empty() ? Position{1, 1} : names[0].second;
            return ParseError{where.line, where.column,
                              "the first call must be \"HitCounter\" with no argument []"};
        }
        std::vector<Operation> ops;
        Budget budget;
        for (std::size_t i = 1; i < names.size(); ++i) {
            const auto& [name, at] = names[i];
            Operation op;
            op.line = at.line;
            op.column = at.column;
            if (name == "hit") {
                op.kind = Operation::Kind::Hit;
            } else if (name == "getHits") {
                op.kind = Operation::Kind::GetHits;
            } else {
                return ParseError{at.line, at.column,
                                  "unknown call \"" + name + "\": expected \"hit\" or \"getHits\""};
            }
            const auto& [values, argsAt] = args[i];
            if (values.size() != 1) {
                return ParseError{argsAt.line, argsAt.column,
                                  "\"" + name + "\" takes exactly one second, like [5]"};
            }
            const std::optional<std::int64_t> second = parseNumber(values[0], kMaxSecond);
            if (!second) {
                return ParseError{argsAt.line, argsAt.column, secondProblem(values[0])};
            }
            op.second = *second;
            if (auto problem = budget.take(op)) {
                return ParseError{at.line, at.column, *problem};
            }
            ops.push_back(op);
        }
        return ops;
    }

    bool readNames(std::vector<std::pair<std::string, Position>>& names) {
        if (!expect('[', "expected '[' to open the array of call names")) {
            return false;
        }
        skipSpace();
        if (peek() == ']') {
            ++m_index;
            return true;
        }
        while (true) {
            skipSpace();
            const Position at = position();
            if (!expect('"', "expected a quoted call name like \"hit\"")) {
                return false;
            }
            const std::size_t start = m_index;
            while (m_index < m_text.size() && m_text[m_index] != '"' && m_text[m_index] != '\n') {
                if (m_text[m_index] == '\\') {
                    return fail("escapes are not allowed in a call name");
                }
                ++m_index;
            }
            if (peek() != '"') {
                return fail("unterminated string: expected '\"'");
            }
            names.emplace_back(std::string(m_text.substr(start, m_index - start)), at);
            ++m_index;
            if (!listContinues("expected ',' or ']' after a call name")) {
                return !m_error;
            }
        }
    }

    bool readArgs(std::vector<std::pair<std::vector<std::string_view>, Position>>& args) {
        if (!expect('[', "expected '[' to open the array of arguments")) {
            return false;
        }
        skipSpace();
        if (peek() == ']') {
            ++m_index;
            return true;
        }
        while (true) {
            skipSpace();
            const Position at = position();
            if (!expect('[', "expected an argument list like [5] or []")) {
                return false;
            }
            std::vector<std::string_view> values;
            skipSpace();
            if (peek() == ']') {
                ++m_index;
            } else {
                while (true) {
                    skipSpace();
                    const std::size_t start = m_index;
                    if (peek() == '-') {
                        ++m_index;
                    }
                    while (m_index < m_text.size() &&
                           std::isdigit(static_cast<unsigned char>(m_text[m_index]))) {
                        ++m_index;
                    }
                    if (m_index == start || (m_index == start + 1 && m_text[start] == '-')) {
                        m_index = start;
                        return fail("expected an integer second");
                    }
                    values.push_back(m_text.substr(start, m_index - start));
                    if (!listContinues("expected ',' or ']' after a second")) {
                        if (m_error) {
                            return false;
                        }
                        break;
                    }
                }
            }
            args.emplace_back(std::move(values), at);
            if (!listContinues("expected ',' or ']' after an argument list")) {
                return !m_error;
            }
        }
    }

    // After an element: true on ',', false on ']' (consumed), false with m_error otherwise.
    bool listContinues(const char* problem) {
        skipSpace();
        if (peek() == ',') {
            ++m_index;
            return true;
        }
        if (peek() == ']') {
            ++m_index;
            return false;
        }
        fail(problem);
        return false;
    }

    bool expect(char c, const char* problem) {
        skipSpace();
        if (peek() != c) {
            return fail(problem);
        }
        ++m_index;
        return true;
    }

    bool fail(const std::string& message) {
        m_error = errorHere(message);
        return false;
    }

    ParseError errorHere(const std::string& message) const {
        const Position at = position();
        return ParseError{at.line, at.column, message};
    }

    char peek() const { return m_index < m_text.size() ? m_text[m_index] : '\0'; }

    void skipSpace() {
        while (m_index < m_text.size() &&
               std::isspace(static_cast<unsigned char>(m_text[m_index]))) {
            ++m_index;
        }
    }

    Position position() const {
        Position at;
        for (std::size_t i = 0; i < m_index && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++at.line;
                at.column = 1;
            } else {
                ++at.column;
            }
        }
        return at;
    }

    std::string_view m_text;
    std::size_t m_index = 0;
    std::optional<ParseError> m_error;
};

}  // namespace

ParseResult parseOperations(std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '[') {
        return LeetCodeReader(text).read();
    }
    return parsePlain(text);
}

std::string formatOperations(const std::vector<Operation>& ops) {
    std::string out;
    for (const Operation& op : ops) {
        out += op.kind == Operation::Kind::Hit ? "hit " : "getHits ";
        out += std::to_string(op.second);
        if (op.repeat > 1) {
            out += " x" + std::to_string(op.repeat);
        }
        out += '\n';
    }
    return out;
}

}  // namespace hitcounter::teach
