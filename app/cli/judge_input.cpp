#include "app/cli/judge_input.h"

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/io/trace_format.h"

namespace hitcounter::cli {

namespace {

constexpr std::size_t kShownChars = 40;
constexpr int kEnd = std::char_traits<char>::eof();

const QString kNamesExpected =
    QStringLiteral("an array of operation names such as [\"HitCounter\",\"hit\",\"getHits\"]");
const QString kArgumentsExpected =
    QStringLiteral("an array of argument arrays such as [[],[1],[1]]");

enum class Op : std::uint8_t { Construct, Hit, GetHits };

// The first problem; thrown inside the reader, caught by runJudge.
struct Problem {
    long long line = 0;
    QString message;
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
    explicit Scanner(std::istream& in) : m_buffer(in.rdbuf()) {}

    int peek() { return m_buffer ? m_buffer->sgetc() : kEnd; }
    int get() {
        const int c = m_buffer ? m_buffer->sbumpc() : kEnd;
        if (c == kEnd)
            return c;
        if (c == '\n') {
            ++m_line;
            m_column = 0;
        } else {
            ++m_column;
        }
        if (m_recording && m_raw.size() <= kShownChars)
            m_raw += static_cast<char>(c);
        return c;
    }
    // Spaces, tabs and CRs inside a line.
    void skipBlanks() {
        for (int c = peek(); c == ' ' || c == '\t' || c == '\r'; c = peek())
            get();
    }
    // Whole blank lines too.
    void skipBlankLines() {
        for (skipBlanks(); peek() == '\n'; skipBlanks())
            get();
    }
    long long line() const { return m_line; }

    void record() {
        m_raw.clear();
        m_recording = true;
    }
    // The recorded text (its first characters); cheap, so a message is only made on failure.
    const std::string& recorded() {
        m_recording = false;
        return m_raw;
    }

    [[noreturn]] void fail(const QString& message) const { throw Problem{m_line, message}; }
    // Invalid JSON at the next character.
    [[noreturn]] void invalid(const QString& expected) {
        const int c = peek();
        const QString what = c == kEnd   ? QStringLiteral("the input ends")
                             : c == '\n' ? QStringLiteral("the line ends")
                                         : QStringLiteral("unexpected '%1'").arg(QChar(c));
        fail(QStringLiteral("invalid JSON at column %1 (%2); expected %3")
                 .arg(m_column + 1)
                 .arg(what, expected));
    }

private:
    std::streambuf* m_buffer;
    long long m_line = 1;
    long long m_column = 0;
    bool m_recording = false;
    std::string m_raw;
};

// A value as it was written, for a message: cut after kShownChars characters.
QString shown(const std::string& raw) {
    const bool cut = raw.size() > kShownChars;
    return QString::fromUtf8(raw.data(), qsizetype(cut ? kShownChars : raw.size())) +
           (cut ? QStringLiteral("...") : QString());
}

bool isDigit(int c) {
    return c >= '0' && c <= '9';
}

// -digits[.digits][e[+-]digits], as JSON writes numbers (leading zeros allowed).
bool isNumberToken(std::string_view s) {
    std::size_t i = s.starts_with('-') ? 1 : 0;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
        return i > from;
    };
    if (!digits())
        return false;
    if (i < s.size() && s[i] == '.' && (++i, !digits()))
        return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == s.size();
}

void appendUtf8(std::string& out, unsigned code) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xc0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
        out += static_cast<char>(0xe0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (code & 0x3f));
    }
}

std::string readString(Scanner& s) {
    s.get();  // the opening quote
    std::string text;
    for (;;) {
        const int c = s.peek();
        if (c == kEnd || c == '\n' || (c >= 0 && c < 0x20))
            s.invalid(QStringLiteral("the string to end with '\"'"));
        s.get();
        if (c == '"')
            return text;
        if (c != '\\') {
            text += static_cast<char>(c);
            continue;
        }
        const int e = s.peek();
        const std::string_view simple = "\"\\/bfnrt";
        const std::string_view meaning = "\"\\/\b\f\n\r\t";
        if (const auto at = simple.find(static_cast<char>(e)); e != kEnd && at != simple.npos) {
            s.get();
            text += meaning[at];
        } else if (e == 'u') {
            s.get();
            unsigned code = 0;
            for (int k = 0; k < 4; ++k) {
                const int h = s.peek();
                const int value = isDigit(h)               ? h - '0'
                                  : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                                  : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                                           : -1;
                if (value < 0)
                    s.invalid(QStringLiteral("four hex digits after \\u"));
                s.get();
                code = code * 16 + unsigned(value);
            }
            appendUtf8(text, code);
        } else {
            s.invalid(QStringLiteral("an escape such as \\\" or \\n"));
        }
    }
}

// Skips a nested array or object (on this line), strings inside included.
void skipNested(Scanner& s) {
    int depth = 0;
    do {
        const int c = s.peek();
        if (c == kEnd || c == '\n')
            s.invalid(QStringLiteral("the array or object to close on this line"));
        if (c == '"') {
            readString(s);
            continue;
        }
        s.get();
        depth += (c == '[' || c == '{') ? 1 : (c == ']' || c == '}') ? -1 : 0;
    } while (depth > 0);
}

Value readValue(Scanner& s, const QString& expected) {
    const int c = s.peek();
    if (c == '"')
        return {Kind::String, readString(s)};
    if (c == '[' || c == '{') {
        skipNested(s);
        return {Kind::Other, {}};
    }
    if (c == '-' || isDigit(c)) {
        std::string token;
        for (int d = s.peek(); d != kEnd && std::string_view("0123456789+-.eE").find(char(d)) !=
                                                std::string_view::npos;
             d = s.peek())
            token += static_cast<char>(s.get());
        if (!isNumberToken(token))
            s.fail(QStringLiteral("invalid JSON: '%1' is not a number; expected %2")
                       .arg(QString::fromStdString(token).left(kShownChars), expected));
        return {Kind::Number, token};
    }
    if (c >= 'a' && c <= 'z') {
        std::string word;
        for (int d = s.peek(); d >= 'a' && d <= 'z'; d = s.peek())
            word += static_cast<char>(s.get());
        if (word == "true" || word == "false" || word == "null")
            return {Kind::Other, word};
    }
    s.invalid(expected);
}

void expectArrayStart(Scanner& s, const QString& expected) {
    const int c = s.peek();
    if (c == '[') {
        s.get();
        return;
    }
    if (c == '{' || c == '"' || c == '-' || isDigit(c) || c == 't' || c == 'f' || c == 'n')
        s.fail(QStringLiteral("not a JSON array; expected %1").arg(expected));
    s.invalid(expected);
}

// After an array's ']': only blanks until the line ends.
void expectLineEnd(Scanner& s) {
    s.skipBlanks();
    if (s.peek() == '\n')
        s.get();
    else if (s.peek() != kEnd)
        s.invalid(QStringLiteral("the line to end after the array"));
}

// Reads ',' (true: another element follows) or ']' (false).
bool nextElement(Scanner& s) {
    s.skipBlanks();
    const int c = s.peek();
    if (c != ',' && c != ']')
        s.invalid(QStringLiteral("',' or ']'"));
    s.get();
    s.skipBlanks();
    return c == ',';
}

Op operation(Scanner& s, const Value& name, const std::string& raw, std::size_t index) {
    const bool isString = name.kind == Kind::String;
    if (isString && name.text == "HitCounter") {
        if (index == 0)
            return Op::Construct;
        s.fail(QStringLiteral("\"HitCounter\" at position %1; expected it only at position 1")
                   .arg(index + 1));
    }
    if (index == 0)
        s.fail(QStringLiteral("operation 1 is %1; expected \"HitCounter\"").arg(shown(raw)));
    if (isString && name.text == "hit")
        return Op::Hit;
    if (isString && name.text == "getHits")
        return Op::GetHits;
    s.fail(QStringLiteral("unknown operation %1 at position %2; expected \"HitCounter\", \"hit\" "
                          "or \"getHits\"")
               .arg(shown(raw))
               .arg(index + 1));
}

std::vector<Op> readOperations(Scanner& s) {
    expectArrayStart(s, kNamesExpected);
    s.skipBlanks();
    if (s.peek() == ']')
        s.fail(QStringLiteral("no operations; expected \"HitCounter\" first"));
    std::vector<Op> ops;
    do {
        s.record();
        const Value name = readValue(s, QStringLiteral("an operation name such as \"hit\""));
        ops.push_back(operation(s, name, s.recorded(), ops.size()));
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
    const QString expected = QStringLiteral("an argument list such as [] or [1]");
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

std::string_view opName(Op op) {
    return op == Op::Construct ? "HitCounter" : op == Op::Hit ? "hit" : "getHits";
}

// Runs call `index` with its argument list (`raw` as written); appends its answer.
void runCall(Scanner& s, Op op, std::size_t index, const ArgumentList& list, const std::string& raw,
             WindowCounter& counter, std::string& answers) {
    const auto fail = [&](const QString& problem) {
        s.fail(QStringLiteral("argument list %1 (%2) is %3; %4")
                   .arg(index + 1)
                   .arg(QString::fromLatin1(opName(op).data(), qsizetype(opName(op).size())),
                        shown(raw), problem));
    };
    if (op == Op::Construct) {
        if (!list.isArray || list.size != 0)
            fail(QStringLiteral("expected []"));
        answers += "null";
        return;
    }
    if (!list.isArray || list.size != 1)
        fail(QStringLiteral("expected [timestamp]"));
    if (list.first.kind != Kind::Number)
        fail(
            QStringLiteral("the timestamp is not a number; expected [timestamp] with seconds "
                           "such as 17"));
    const ParsedTimestamp time = parseTimestamp(list.first.text);
    if (time.problem != TimestampProblem::None) {
        const auto problem = timestampProblemText(time.problem);
        fail(QStringLiteral("the timestamp ") +
             QString::fromLatin1(problem.data(), qsizetype(problem.size())));
    }
    if (op == Op::Hit) {
        counter.hit(time.time);
        answers += "null";
    } else {
        answers += std::to_string(counter.count(time.time));
    }
}

std::string runArguments(Scanner& s, const std::vector<Op>& ops, WindowCounter& counter) {
    expectArrayStart(s, kArgumentsExpected);
    s.skipBlanks();
    std::string answers = "[";
    std::size_t count = 0;
    if (s.peek() == ']') {
        s.get();
    } else {
        do {
            if (count == ops.size())
                s.fail(QStringLiteral("more argument lists than the %1 operation(s); expected one "
                                      "list per operation")
                           .arg(ops.size()));
            s.record();
            const ArgumentList list = readArgumentList(s);
            if (count > 0)
                answers += ',';
            runCall(s, ops[count], count, list, s.recorded(), counter, answers);
            ++count;
        } while (nextElement(s));
    }
    if (count != ops.size())
        s.fail(QStringLiteral("%1 argument lists for %2 operations; expected one list per "
                              "operation")
                   .arg(count)
                   .arg(ops.size()));
    expectLineEnd(s);
    return answers + ']';
}

}  // namespace

std::variant<std::string, JudgeError> runJudge(std::istream& in, WindowCounter& counter) {
    Scanner s(in);
    try {
        s.skipBlankLines();
        if (s.peek() == kEnd)
            return JudgeError{1, QStringLiteral("empty input; expected %1").arg(kNamesExpected)};
        const long long namesLine = s.line();
        const std::vector<Op> ops = readOperations(s);
        s.skipBlankLines();
        if (s.peek() == kEnd)
            return JudgeError{
                namesLine + 1,
                QStringLiteral("missing the second line; expected %1").arg(kArgumentsExpected)};
        std::string answers = runArguments(s, ops, counter);
        s.skipBlankLines();
        if (s.peek() != kEnd)
            s.fail(
                QStringLiteral("unexpected text after the argument line; expected two lines "
                               "(operation names, then arguments)"));
        return answers;
    } catch (const Problem& problem) {
        return JudgeError{problem.line, problem.message};
    }
}

}  // namespace hitcounter::cli
