#include "core/alert/alert_rule.h"

#include <charconv>
#include <cmath>

namespace hitcounter {

namespace {

constexpr std::size_t kMaxNameBytes = 64;
constexpr std::chrono::seconds kMaxHoldFor{7 * 86'400};

bool isNameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isNameChar(char c) {
    return isNameStart(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

std::string_view comparisonText(AlertComparison c) {
    switch (c) {
        case AlertComparison::Above:
            return ">";
        case AlertComparison::AtLeast:
            return ">=";
        case AlertComparison::Below:
            return "<";
        case AlertComparison::AtMost:
            return "<=";
    }
    return "?";
}

bool upward(AlertComparison c) {
    return c == AlertComparison::Above || c == AlertComparison::AtLeast;
}

bool compare(double value, AlertComparison c, double threshold) {
    switch (c) {
        case AlertComparison::Above:
            return value > threshold;
        case AlertComparison::AtLeast:
            return value >= threshold;
        case AlertComparison::Below:
            return value < threshold;
        case AlertComparison::AtMost:
            return value <= threshold;
    }
    return false;
}

}  // namespace

std::optional<AlertRule::Node::Kind> functionKind(std::string_view word) {
    using Kind = AlertRule::Node::Kind;
    static constexpr std::pair<std::string_view, Kind> kFunctions[] = {
        {"count", Kind::Hits}, {"rate", Kind::Rate}, {"bytes", Kind::Bytes}, {"p50", Kind::P50},
        {"p90", Kind::P90},    {"p99", Kind::P99},   {"max", Kind::Max}};
    for (const auto& [name, kind] : kFunctions)
        if (word == name)
            return kind;
    return std::nullopt;
}

bool isMeasure(AlertRule::Node::Kind kind) {
    using Kind = AlertRule::Node::Kind;
    return kind == Kind::Bytes || kind == Kind::P50 || kind == Kind::P90 || kind == Kind::P99 ||
           kind == Kind::Max;
}

// Recursive descent over the text with a cursor; the first problem ends the parse.
class AlertRuleParser {
public:
    explicit AlertRuleParser(std::string_view text) : m_text(text) {}

    std::variant<AlertRule, TextProblem> run() {
        m_rule.m_text = std::string(m_text);
        if (m_text.size() > AlertRule::kMaxTextBytes)
            return TextProblem{0, std::int64_t(AlertRule::kMaxTextBytes) + 1,
                               "expected a rule of at most " +
                                   std::to_string(AlertRule::kMaxTextBytes) + " bytes"};
        if (!name() || !expression() || !condition(m_rule.m_comparison, m_rule.m_threshold) ||
            !holdFor() || !clear())
            return *m_problem;
        skipBlanks();
        if (m_at < m_text.size())
            return problemHere("expected 'for', 'clear' or the end of the rule, found " +
                               shownHere());
        return std::move(m_rule);
    }

private:
    // [NAME ':']: a name is a word followed by ':' (count( and rate( are not).
    bool name() {
        skipBlanks();
        const std::size_t start = m_at;
        std::size_t end = start;
        while (end < m_text.size() &&
               (end == start ? isNameStart(m_text[end]) || isDigit(m_text[end])
                             : isNameChar(m_text[end])))
            ++end;
        std::size_t colon = end;
        while (colon < m_text.size() && m_text[colon] == ' ')
            ++colon;
        if (end == start || colon >= m_text.size() || m_text[colon] != ':')
            return true;
        if (end - start > kMaxNameBytes)
            return fail(start,
                        "expected a name of at most " + std::to_string(kMaxNameBytes) + " bytes");
        m_rule.m_name = std::string(m_text.substr(start, end - start));
        m_at = colon + 1;
        return true;
    }

    std::optional<std::size_t> expressionNode(int depth) {
        auto left = term(depth);
        while (left) {
            skipBlanks();
            if (!peekAny("+-"))
                return left;
            const char op = m_text[m_at++];
            const auto right = term(depth);
            if (!right)
                return std::nullopt;
            left =
                operation(op == '+' ? AlertRule::Node::Kind::Add : AlertRule::Node::Kind::Subtract,
                          *left, *right);
        }
        return left;
    }

    bool expression() { return expressionNode(0).has_value(); }

    std::optional<std::size_t> term(int depth) {
        auto left = factor(depth);
        while (left) {
            skipBlanks();
            if (!peekAny("*/"))
                return left;
            const char op = m_text[m_at++];
            const auto right = factor(depth);
            if (!right)
                return std::nullopt;
            left = operation(
                op == '*' ? AlertRule::Node::Kind::Multiply : AlertRule::Node::Kind::Divide, *left,
                *right);
        }
        return left;
    }

    std::optional<std::size_t> factor(int depth) {
        skipBlanks();
        if (m_at < m_text.size() && m_text[m_at] == '(') {
            const std::size_t opening = m_at++;
            if (depth + 1 > AlertRule::kMaxNesting) {
                fail(opening, "expected at most " + std::to_string(AlertRule::kMaxNesting) +
                                  " nested parentheses");
                return std::nullopt;
            }
            const auto inner = expressionNode(depth + 1);
            if (!inner)
                return std::nullopt;
            skipBlanks();
            if (m_at >= m_text.size() || m_text[m_at] != ')') {
                fail(m_at, "expected an operator or ')' to close the '(' at column " +
                               std::to_string(opening + 1) + ", found " + shownHere());
                return std::nullopt;
            }
            ++m_at;
            return inner;
        }
        if (m_at < m_text.size() && isDigit(m_text[m_at])) {
            const auto value = number();
            if (!value)
                return std::nullopt;
            return add({.kind = AlertRule::Node::Kind::Number, .number = *value});
        }
        const std::size_t start = m_at;
        const std::string_view word = wordHere();
        if (const auto kind = functionKind(word)) {
            m_at += word.size();
            const auto series = seriesOf(word);
            if (!series)
                return std::nullopt;
            return add({.kind = *kind, .series = *series});
        }
        fail(start,
             "expected a number, a function (count, rate, bytes, p50, p90, p99, max) or '(', "
             "found " +
                 shownHere());
        return std::nullopt;
    }

    // '(' SERIES ')' after count or rate: the index of its filter, -1 for *.
    std::optional<int> seriesOf(std::string_view function) {
        skipBlanks();
        if (m_at >= m_text.size() || m_text[m_at] != '(') {
            fail(m_at, "expected '(' after " + std::string(function) + ", found " + shownHere());
            return std::nullopt;
        }
        const std::size_t opening = m_at++;
        const std::size_t start = m_at;
        int depth = 1;
        while (m_at < m_text.size()) {
            const char c = m_text[m_at];
            if (c == '\'' || c == '"') {
                for (++m_at; m_at < m_text.size() && m_text[m_at] != c; ++m_at)
                    if (m_text[m_at] == '\\')
                        ++m_at;
            } else if (c == '(') {
                ++depth;
            } else if (c == ')' && --depth == 0) {
                break;
            }
            ++m_at;
        }
        if (m_at >= m_text.size()) {
            fail(opening, "expected ')' to close " + std::string(function) + "( at column " +
                              std::to_string(opening + 1) + ", found the end");
            return std::nullopt;
        }
        const std::string_view inner = m_text.substr(start, m_at - start);
        ++m_at;
        const std::size_t first = inner.find_first_not_of(' ');
        if (first == std::string_view::npos) {
            fail(start, "expected a filter or * inside " + std::string(function) + "()");
            return std::nullopt;
        }
        const std::size_t last = inner.find_last_not_of(' ');
        const std::string_view filterText = inner.substr(first, last - first + 1);
        if (filterText == "*")
            return -1;
        auto parsed = RecordFilter::parse(filterText);
        if (auto* problem = std::get_if<TextProblem>(&parsed)) {
            const std::size_t at = start + first;
            fail(problem->column > 0 ? at + std::size_t(problem->column - 1) : at,
                 problem->message);
            return std::nullopt;
        }
        auto& filters = m_rule.m_filters;
        for (std::size_t i = 0; i < filters.size(); ++i)
            if (filters[i].text() == filterText)
                return int(i);
        filters.push_back(std::move(std::get<RecordFilter>(parsed)));
        return int(filters.size() - 1);
    }

    // CMP NUMBER ['%'].
    bool condition(AlertComparison& comparison, double& threshold) {
        skipBlanks();
        if (!peekAny("<>"))
            return fail(m_at, "expected >, >=, < or <= after the expression, found " + shownHere());
        const bool above = m_text[m_at++] == '>';
        const bool orEqual = m_at < m_text.size() && m_text[m_at] == '=';
        if (orEqual)
            ++m_at;
        comparison = above ? (orEqual ? AlertComparison::AtLeast : AlertComparison::Above)
                           : (orEqual ? AlertComparison::AtMost : AlertComparison::Below);
        skipBlanks();
        const auto value = number();
        if (!value)
            return false;
        threshold = *value;
        if (m_at < m_text.size() && m_text[m_at] == '%') {
            ++m_at;
            threshold /= 100;
        }
        return true;
    }

    // ['for' DURATION].
    bool holdFor() {
        if (!keyword("for"))
            return true;
        const std::size_t start = m_at;
        const auto value = number();
        if (!value)
            return false;
        const std::string_view units = "smh";
        const std::size_t unit = m_at < m_text.size() ? units.find(m_text[m_at]) : units.npos;
        if (unit == units.npos || (m_at + 1 < m_text.size() && isNameChar(m_text[m_at + 1])))
            return fail(m_at,
                        "expected s, m or h after the duration's number, found " + shownHere());
        ++m_at;
        const double seconds = *value * (unit == 0 ? 1 : unit == 1 ? 60 : 3600);
        if (seconds != std::floor(seconds) || seconds > double(kMaxHoldFor.count()))
            return fail(start, "expected a whole number of seconds from 0s to 7 days");
        m_rule.m_for = std::chrono::seconds(std::int64_t(seconds));
        return true;
    }

    // ['clear' CMP NUMBER ['%']], on the other side of the threshold.
    bool clear() {
        if (!keyword("clear"))
            return true;
        const std::size_t start = m_at;
        std::pair<AlertComparison, double> c;
        if (!condition(c.first, c.second))
            return false;
        const AlertComparison fire = m_rule.m_comparison;
        // At an equal threshold, one of the two must exclude it: `>= 10 clear <= 10` would
        // both hold and clear at 10 and flap every second.
        const bool bothInclusive =
            (fire == AlertComparison::AtLeast || fire == AlertComparison::AtMost) &&
            (c.first == AlertComparison::AtLeast || c.first == AlertComparison::AtMost);
        const bool otherSide = (upward(fire) ? !upward(c.first) && c.second <= m_rule.m_threshold
                                             : upward(c.first) && c.second >= m_rule.m_threshold) &&
                               !(bothInclusive && c.second == m_rule.m_threshold);
        if (!otherSide)
            return fail(start, std::string("expected a clear condition on the other side of ") +
                                   std::string(comparisonText(fire)) + " " +
                                   shortNumber(m_rule.m_threshold) + " (" +
                                   (upward(fire) ? "< or <= at most " : "> or >= at least ") +
                                   shortNumber(m_rule.m_threshold) + "), found " +
                                   std::string(m_text.substr(start, m_at - start)));
        m_rule.m_clear = c;
        return true;
    }

    std::optional<double> number() {
        const std::size_t start = m_at;
        while (m_at < m_text.size() && (isDigit(m_text[m_at]) || m_text[m_at] == '.'))
            ++m_at;
        double value = 0;
        const char* first = m_text.data() + start;
        const char* last = m_text.data() + m_at;
        const auto [end, error] = std::from_chars(first, last, value);
        if (start == m_at || error != std::errc() || end != last || !std::isfinite(value)) {
            m_at = start;
            fail(start, "expected a number, found " + shownHere());
            return std::nullopt;
        }
        return value;
    }

    static std::string shortNumber(double value) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", value);
        return text;
    }

    std::size_t add(AlertRule::Node node) {
        m_rule.m_nodes.push_back(node);
        return m_rule.m_nodes.size() - 1;
    }

    std::size_t operation(AlertRule::Node::Kind kind, std::size_t left, std::size_t right) {
        return add({.kind = kind, .left = left, .right = right});
    }

    std::string_view wordHere() const {
        std::size_t end = m_at;
        while (end < m_text.size() && isNameChar(m_text[end]))
            ++end;
        return m_text.substr(m_at, end - m_at);
    }

    // Whether `word` comes next (after blanks); if so, steps past it and the blanks after.
    bool keyword(std::string_view word) {
        skipBlanks();
        if (wordHere() != word)
            return false;
        m_at += word.size();
        skipBlanks();
        return true;
    }

    bool peekAny(std::string_view chars) const {
        return m_at < m_text.size() && chars.find(m_text[m_at]) != std::string_view::npos;
    }

    void skipBlanks() {
        while (m_at < m_text.size() && (m_text[m_at] == ' ' || m_text[m_at] == '\t'))
            ++m_at;
    }

    std::string shownHere() const {
        if (m_at >= m_text.size())
            return "the end";
        const std::string_view rest = m_text.substr(m_at, 20);
        std::string shown = "'";
        for (const char c : rest)
            shown += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
        return shown + (m_text.size() - m_at > 20 ? "...'" : "'");
    }

    bool fail(std::size_t at, std::string message) {
        if (!m_problem)
            m_problem = TextProblem{0, std::int64_t(at) + 1, std::move(message)};
        return false;
    }

    TextProblem problemHere(std::string message) {
        fail(m_at, std::move(message));
        return *m_problem;
    }

    std::string_view m_text;
    std::size_t m_at = 0;
    AlertRule m_rule;
    std::optional<TextProblem> m_problem;
};

std::variant<AlertRule, TextProblem> AlertRule::parse(std::string_view text) {
    return AlertRuleParser(text).run();
}

double AlertRule::value(const std::vector<SeriesWindow>& series, const SeriesWindow& all,
                        double windowSeconds) const {
    const double undefined = std::nan("");
    std::vector<double> values(m_nodes.size());
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {  // operands come before their operator
        const Node& n = m_nodes[i];
        const SeriesWindow& w = n.series < 0 ? all : series.at(std::size_t(n.series));
        const MeasuresSummary& m = w.measures;
        double& v = values[i];
        switch (n.kind) {
            case Node::Kind::Number:
                v = n.number;
                break;
            case Node::Kind::Hits:
                v = w.hits;
                break;
            case Node::Kind::Rate:
                v = w.hits / windowSeconds;
                break;
            case Node::Kind::Bytes:
                v = double(m.bytes);
                break;
            case Node::Kind::P50:
                v = m.hasTimes() ? m.p50 : undefined;
                break;
            case Node::Kind::P90:
                v = m.hasTimes() ? m.p90 : undefined;
                break;
            case Node::Kind::P99:
                v = m.hasTimes() ? m.p99 : undefined;
                break;
            case Node::Kind::Max:
                v = m.hasTimes() ? m.max : undefined;
                break;
            case Node::Kind::Add:
                v = values[n.left] + values[n.right];
                break;
            case Node::Kind::Subtract:
                v = values[n.left] - values[n.right];
                break;
            case Node::Kind::Multiply:
                v = values[n.left] * values[n.right];
                break;
            case Node::Kind::Divide:
                v = values[n.right] == 0 ? undefined : values[n.left] / values[n.right];
                break;
        }
    }
    return values.empty() ? undefined : values.back();
}

bool AlertRule::measures(int series) const {
    for (const Node& n : m_nodes)
        if (isMeasure(n.kind) && n.series == series)
            return true;
    return false;
}

bool AlertRule::readsResponseTimes() const {
    for (const Node& n : m_nodes)
        if (isMeasure(n.kind) && n.kind != Node::Kind::Bytes)
            return true;
    return false;
}

bool AlertRule::holds(double value) const {
    return !std::isnan(value) && compare(value, m_comparison, m_threshold);
}

bool AlertRule::clears(double value) const {
    if (std::isnan(value))
        return true;
    return m_clear ? compare(value, m_clear->first, m_clear->second) : !holds(value);
}

std::string describeAlertProblem(const TextProblem& problem) {
    return problem.column > 0 ? "column " + std::to_string(problem.column) + ": " + problem.message
                              : problem.message;
}

}  // namespace hitcounter
