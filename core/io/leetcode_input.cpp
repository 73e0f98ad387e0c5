#include "core/io/leetcode_input.h"

#include <string_view>
#include <utility>
#include <vector>

#include "core/io/json_text.h"
#include "core/io/trace_format.h"

namespace hitcounter {

std::string_view leetCodeCallName(LeetCodeCall call) {
    return call == LeetCodeCall::Construct ? "HitCounter"
           : call == LeetCodeCall::Hit     ? "hit"
                                           : "getHits";
}

namespace {

constexpr std::size_t kShownChars = 40;
constexpr int kEnd = std::char_traits<char>::eof();

const std::string kNamesExpected =
    "an array of operation names such as [\"HitCounter\",\"hit\",\"getHits\"]";
const std::string kArgumentsExpected = "an array of argument arrays such as [[],[1],[1]]";

// The first problem; thrown inside the reader, caught by readLeetCode.
struct Problem {
    LeetCodePosition at;
    std::string message;
};

enum class Kind { String, Number, Other };
struct Value {
    Kind kind = Kind::Other;
    std::string text;  // a string's decoded text, a number as written
};

// Reads the stream one character at a time, counting lines and columns, and keeps the first
// characters of the value being read so a message can show it as it was written.
class Scanner {
public:
    Scanner(std::istream& in, bool spanLines) : m_buffer(in.rdbuf()), m_spanLines(spanLines) {}

    int peek() { return m_buffer ? m_buffer->sgetc() : kEnd; }
    int get() {
        const int c = m_buffer ? m_buffer->sbumpc() : kEnd;
        if (c == kEnd)
            return c;
        if (c == '\n') {
            ++m_at.line;
            m_at.column = 1;
        } else {
            ++m_at.column;
        }
        if (m_recording && m_raw.size() <= kShownChars)
            m_raw += static_cast<char>(c);
        return c;
    }
    // Spaces, tabs and CRs inside a line (and line breaks when arrays may span lines).
    void skipBlanks() {
        for (int c = peek(); c == ' ' || c == '\t' || c == '\r' || (m_spanLines && c == '\n');
             c = peek())
            get();
    }
    // Whole blank lines too.
    void skipBlankLines() {
        for (skipBlanks(); peek() == '\n'; skipBlanks())
            get();
    }
    bool spanLines() const { return m_spanLines; }
    // Where the next character is.
    LeetCodePosition position() const { return m_at; }

    void record() {
        m_raw.clear();
        m_recording = true;
    }
    // The recorded text (its first characters); cheap, so a message is only made on failure.
    const std::string& recorded() {
        m_recording = false;
        return m_raw;
    }

    [[noreturn]] void fail(const std::string& message) const { throw Problem{m_at, message}; }
    [[noreturn]] static void failAt(LeetCodePosition at, const std::string& message) {
        throw Problem{at, message};
    }
    // Invalid JSON at the next character.
    [[noreturn]] void invalid(const std::string& expected) {
        const int c = peek();
        const std::string what = c == kEnd   ? "the input ends"
                                 : c == '\n' ? "the line ends"
                                             : "unexpected '" + std::string(1, char(c)) + "'";
        fail("invalid JSON (" + what + "); expected " + expected);
    }

private:
    std::streambuf* m_buffer;
    bool m_spanLines;
    LeetCodePosition m_at;
    bool m_recording = false;
    std::string m_raw;
};

// A value as it was written, for a message: cut after kShownChars characters.
std::string shown(const std::string& raw) {
    return raw.size() > kShownChars ? raw.substr(0, kShownChars) + "..." : raw;
}

bool isDigit(int c) {
    return c >= '0' && c <= '9';
}

// After a backslash inside a string: one escape, decoded onto `text`.
void readEscape(Scanner& s, std::string& text) {
    switch (decodeJsonEscape(s, text)) {
        case JsonEscapeError::None:
            return;
        case JsonEscapeError::UnknownEscape:
            s.invalid("an escape such as \\\" or \\n");
        case JsonEscapeError::NotFourHexDigits:
            s.invalid("four hex digits after \\u");
    }
}

std::string readString(Scanner& s) {
    s.get();  // the opening quote
    std::string text;
    for (;;) {
        const int c = s.peek();
        if (c == kEnd || c == '\n' || (c >= 0 && c < 0x20))
            s.invalid("the string to end with '\"'");
        s.get();
        if (c == '"')
            return text;
        if (c == '\\')
            readEscape(s, text);
        else
            text += static_cast<char>(c);
    }
}

// Skips a nested array or object, strings inside included (on this line unless arrays may span
// lines).
void skipNested(Scanner& s) {
    int depth = 0;
    do {
        const int c = s.peek();
        if (c == kEnd || (c == '\n' && !s.spanLines()))
            s.invalid("the array or object to close on this line");
        if (c == '"') {
            readString(s);
            continue;
        }
        s.get();
        depth += (c == '[' || c == '{') ? 1 : (c == ']' || c == '}') ? -1 : 0;
    } while (depth > 0);
}

Value readValue(Scanner& s, const std::string& expected) {
    const int c = s.peek();
    if (c == '"')
        return {Kind::String, readString(s)};
    if (c == '[' || c == '{') {
        skipNested(s);
        return {Kind::Other, {}};
    }
    if (c == '-' || isDigit(c)) {
        const LeetCodePosition at = s.position();
        std::string token;
        for (int d = s.peek(); d != kEnd && std::string_view("0123456789+-.eE").find(char(d)) !=
                                                std::string_view::npos;
             d = s.peek())
            token += static_cast<char>(s.get());
        if (!isJsonNumber(token))
            Scanner::failAt(at, "invalid JSON: '" + token.substr(0, kShownChars) +
                                    "' is not a number; expected " + expected);
        return {Kind::Number, token};
    }
    if (c >= 'a' && c <= 'z') {
        const LeetCodePosition at = s.position();
        std::string word;
        for (int d = s.peek(); d >= 'a' && d <= 'z'; d = s.peek())
            word += static_cast<char>(s.get());
        if (word == "true" || word == "false" || word == "null")
            return {Kind::Other, word};
        Scanner::failAt(at, "invalid JSON (unexpected '" + word.substr(0, kShownChars) +
                                "'); expected " + expected);
    }
    s.invalid(expected);
}

void expectArrayStart(Scanner& s, const std::string& expected) {
    const int c = s.peek();
    if (c == '[') {
        s.get();
        return;
    }
    if (c == '{' || c == '"' || c == '-' || isDigit(c) || c == 't' || c == 'f' || c == 'n')
        s.fail("not a JSON array; expected " + expected);
    s.invalid(expected);
}

// After an array's ']': only blanks until the line ends (anything, when arrays may span lines:
// the next token is checked by what reads it).
void expectLineEnd(Scanner& s) {
    s.skipBlanks();
    if (s.spanLines())
        return;
    if (s.peek() == '\n')
        s.get();
    else if (s.peek() != kEnd)
        s.invalid("the line to end after the array");
}

// Reads ',' (true: another element follows) or ']' (false).
bool nextElement(Scanner& s) {
    s.skipBlanks();
    const int c = s.peek();
    if (c != ',' && c != ']')
        s.invalid("',' or ']'");
    s.get();
    s.skipBlanks();
    return c == ',';
}

LeetCodeCall operation(const Value& name, const std::string& raw, std::size_t index,
                       LeetCodePosition at) {
    const bool isString = name.kind == Kind::String;
    if (isString && name.text == "HitCounter") {
        if (index == 0)
            return LeetCodeCall::Construct;
        Scanner::failAt(at, "\"HitCounter\" at position " + std::to_string(index + 1) +
                                "; expected it only at position 1");
    }
    if (index == 0)
        Scanner::failAt(at, "operation 1 is " + shown(raw) + "; expected \"HitCounter\"");
    if (isString && name.text == "hit")
        return LeetCodeCall::Hit;
    if (isString && name.text == "getHits")
        return LeetCodeCall::GetHits;
    Scanner::failAt(at, "unknown operation " + shown(raw) + " at position " +
                            std::to_string(index + 1) +
                            "; expected \"HitCounter\", \"hit\" or \"getHits\"");
}

void check(const std::string& refusal, LeetCodePosition at) {
    if (!refusal.empty())
        Scanner::failAt(at, refusal);
}

std::vector<LeetCodeCall> readOperations(Scanner& s, LeetCodeHandler& handler) {
    expectArrayStart(s, kNamesExpected);
    s.skipBlanks();
    if (s.peek() == ']')
        s.fail("no operations; expected \"HitCounter\" first");
    std::vector<LeetCodeCall> ops;
    do {
        const LeetCodePosition at = s.position();
        s.record();
        const Value name = readValue(s, "an operation name such as \"hit\"");
        const LeetCodeCall call = operation(name, s.recorded(), ops.size(), at);
        check(handler.name(ops.size(), call, at), at);
        ops.push_back(call);
    } while (nextElement(s));
    expectLineEnd(s);
    return ops;
}

// An argument list: whether it is an array, how many values it holds, the first one.
struct ArgumentList {
    bool isArray = false;
    std::size_t size = 0;
    Value first;
};

ArgumentList readArgumentList(Scanner& s) {
    const std::string expected = "an argument list such as [] or [1]";
    if (s.peek() != '[') {
        readValue(s, expected);
        return {};
    }
    s.get();
    s.skipBlanks();
    ArgumentList list{true, 0, {}};
    if (s.peek() == ']') {
        s.get();
        return list;
    }
    do {
        Value value = readValue(s, expected);
        if (list.size++ == 0)
            list.first = std::move(value);
    } while (nextElement(s));
    return list;
}

// The timestamp of call `index` from its argument list (`raw` as written, starting at `at`).
Timestamp timestampOf(LeetCodeCall op, std::size_t index, const ArgumentList& list,
                      const std::string& raw, LeetCodePosition at) {
    const auto fail = [&](const std::string& problem) {
        Scanner::failAt(at, "argument list " + std::to_string(index + 1) + " (" +
                                std::string(leetCodeCallName(op)) + ") is " + shown(raw) + "; " +
                                problem);
    };
    if (op == LeetCodeCall::Construct) {
        if (!list.isArray || list.size != 0)
            fail("expected []");
        return 0;
    }
    if (!list.isArray || list.size != 1)
        fail("expected [timestamp]");
    if (list.first.kind != Kind::Number)
        fail("the timestamp is not a number; expected [timestamp] with seconds such as 17");
    const ParsedTimestamp time = parseTimestamp(list.first.text);
    if (time.problem != TimestampProblem::None)
        fail("the timestamp " + std::string(timestampProblemText(time.problem)));
    return time.time;
}

void readArguments(Scanner& s, const std::vector<LeetCodeCall>& ops, LeetCodeHandler& handler) {
    expectArrayStart(s, kArgumentsExpected);
    s.skipBlanks();
    std::size_t count = 0;
    LeetCodePosition closedAt = s.position();
    if (s.peek() == ']') {
        s.get();
    } else {
        do {
            const LeetCodePosition at = s.position();
            if (count == ops.size())
                s.fail("more argument lists than the " + std::to_string(ops.size()) +
                       " operation(s); expected one list per operation");
            s.record();
            const ArgumentList list = readArgumentList(s);
            const Timestamp time = timestampOf(ops[count], count, list, s.recorded(), at);
            check(handler.call(count, ops[count], time, at), at);
            ++count;
            s.skipBlanks();
            closedAt = s.position();
        } while (nextElement(s));
    }
    if (count != ops.size())
        Scanner::failAt(closedAt, std::to_string(count) + " argument lists for " +
                                      std::to_string(ops.size()) +
                                      " operations; expected one list per operation");
    expectLineEnd(s);
}

}  // namespace

std::optional<TextProblem> readLeetCode(std::istream& in, LeetCodeHandler& handler,
                                        const LeetCodeOptions& options) {
    Scanner s(in, options.arraysMaySpanLines);
    try {
        s.skipBlankLines();
        if (s.peek() == kEnd)
            return TextProblem{1, 1, "empty input; expected " + kNamesExpected};
        const std::vector<LeetCodeCall> ops = readOperations(s, handler);
        s.skipBlankLines();
        if (s.peek() == kEnd)
            s.fail("missing the second line; expected " + kArgumentsExpected);
        readArguments(s, ops, handler);
        s.skipBlankLines();
        if (s.peek() != kEnd)
            s.fail(
                "unexpected text after the argument line; expected two lines (operation names, "
                "then arguments)");
        return std::nullopt;
    } catch (const Problem& problem) {
        return TextProblem{problem.at.line, problem.at.column, problem.message};
    }
}

}  // namespace hitcounter
