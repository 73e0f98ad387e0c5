#include "core/teach/operation_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <sstream>

#include "core/io/leetcode_input.h"

namespace hitcounter::teach {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// A whole number in [0, max]; nullopt when `digits` is not one (sign, letters, too large).
std::optional<std::int64_t> parseNumber(std::string_view digits, std::int64_t max) {
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
        return std::nullopt;
    }
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc{} || end != digits.data() + digits.size() || value > max) {
        return std::nullopt;
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

// Counts operations and hits against the limits; returns the message when one is exceeded
// (empty: taken).
class Budget {
public:
    std::string take(const Operation& op) {
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
        return {};
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
std::variant<Operation, TextProblem> parseSegment(const std::vector<Token>& tokens, int line) {
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
        return TextProblem{
            line, keyword.column,
            "unknown operation '" + std::string(keyword.text) + "': expected 'hit' or 'getHits'"};
    }
    if (tokens.size() < 2) {
        const int after = keyword.column + static_cast<int>(keyword.text.size());
        return TextProblem{line, after,
                           "expected a second after '" + std::string(keyword.text) + "'"};
    }
    const std::optional<std::int64_t> second = parseNumber(tokens[1].text, kMaxSecond);
    if (!second) {
        return TextProblem{line, tokens[1].column, secondProblem(tokens[1].text)};
    }
    op.second = *second;
    std::size_t next = 2;
    if (next < tokens.size() && (tokens[next].text[0] == 'x' || tokens[next].text[0] == 'X')) {
        const Token& repeat = tokens[next];
        if (op.kind == Operation::Kind::GetHits) {
            return TextProblem{line, repeat.column, "getHits takes no repeat count"};
        }
        const std::optional<std::int64_t> n =
            parseNumber(repeat.text.substr(1), static_cast<std::int64_t>(kMaxRepeat));
        if (!n || *n < 1) {
            return TextProblem{line, repeat.column,
                               "'" + std::string(repeat.text) + "' is not a repeat count: write x" +
                                   "N with N from 1 to " + std::to_string(kMaxRepeat)};
        }
        op.repeat = static_cast<Count>(*n);
        ++next;
    }
    if (next < tokens.size()) {
        return TextProblem{line, tokens[next].column,
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
                if (auto* error = std::get_if<TextProblem>(&parsed)) {
                    return *error;
                }
                const Operation& op = std::get<Operation>(parsed);
                if (std::string problem = budget.take(op); !problem.empty()) {
                    return TextProblem{line, op.column, std::move(problem)};
                }
                ops.push_back(op);
            }
            segmentStart = segmentEnd + 1;
        }
        lineStart = lineEnd + 1;
    }
    return ops;
}

// The LeetCode input through the one reader (core/io/leetcode_input.h), arrays allowed to span
// lines (a pasted lesson may be wrapped); each call becomes an Operation at its name.
class LeetCodeLesson : public LeetCodeHandler {
public:
    std::string name(std::size_t index, LeetCodeCall call, LeetCodePosition at) override {
        if (index == 0) {
            return {};
        }
        Operation op;
        op.kind = call == LeetCodeCall::Hit ? Operation::Kind::Hit : Operation::Kind::GetHits;
        op.line = static_cast<int>(at.line);
        op.column = static_cast<int>(at.column);
        if (std::string problem = m_budget.take(op); !problem.empty()) {
            return problem;
        }
        m_ops.push_back(op);
        return {};
    }

    std::string call(std::size_t index, LeetCodeCall, Timestamp time, LeetCodePosition) override {
        if (index == 0) {
            return {};
        }
        if (time > kMaxSecond) {
            return "second " + std::to_string(time) +
                   " is too large: a lesson's seconds go up to " + std::to_string(kMaxSecond);
        }
        m_ops[index - 1].second = time;
        return {};
    }

    std::vector<Operation> take() { return std::move(m_ops); }

private:
    std::vector<Operation> m_ops;
    Budget m_budget;
};

ParseResult parseLeetCode(std::string_view text) {
    std::istringstream in{std::string(text)};
    LeetCodeLesson lesson;
    if (auto error = readLeetCode(in, lesson, {.arraysMaySpanLines = true})) {
        return *std::move(error);
    }
    return lesson.take();
}

}  // namespace

ParseResult parseOperations(std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '[') {
        return parseLeetCode(text);
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
