// The filter grammar of record_filter.h, parsed by recursive descent: one function per level
// of precedence. `and` and `or` chains become one node each, so the depth of the tree (and of
// the evaluation's recursion) grows only with parentheses and `not`, which are bounded.
#include <cstdint>
#include <string>
#include <utility>

#include "core/filter/filter_program.h"

namespace hitcounter {

namespace {

constexpr int kMaxNesting = 64;  // parentheses and nots inside each other, at most

struct Token {
    enum class Kind { Word, Quoted, Open, Close, Operator, End };
    Kind kind = Kind::End;
    std::string text;  // a quoted text without its quotes and escapes
    std::int64_t column = 0;
};

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isWordChar(char c) {
    return !isBlank(c) && c != '(' && c != ')' && c != '\'' && c != '"' && c != '=' && c != '!' &&
           c != '~';
}

std::string quoted(std::string_view text) {
    return "'" + std::string(text) + "'";
}

// What a token is, for "found ..." in a message.
std::string shown(const Token& token) {
    return token.kind == Token::Kind::End ? std::string("the end") : quoted(token.text);
}

// Splits the text into tokens; refuses an unterminated quote or a lone '!'.
class Lexer {
public:
    explicit Lexer(std::string_view text) : m_text(text) {}

    std::variant<Token, TextProblem> next() {
        while (m_at < m_text.size() && isBlank(m_text[m_at]))
            ++m_at;
        Token token;
        token.column = static_cast<std::int64_t>(m_at) + 1;
        if (m_at == m_text.size())
            return token;
        const char c = m_text[m_at];
        if (c == '(' || c == ')') {
            token.kind = c == '(' ? Token::Kind::Open : Token::Kind::Close;
            token.text = std::string(1, c);
            ++m_at;
        } else if (c == '=' || c == '~') {
            token.kind = Token::Kind::Operator;
            token.text = std::string(1, c);
            ++m_at;
        } else if (c == '!') {
            if (m_at + 1 == m_text.size() || (m_text[m_at + 1] != '=' && m_text[m_at + 1] != '~'))
                return TextProblem{0, token.column,
                                   "expected != or !~, found " + quoted(m_text.substr(m_at, 2))};
            token.kind = Token::Kind::Operator;
            token.text = std::string(m_text.substr(m_at, 2));
            m_at += 2;
        } else if (c == '\'' || c == '"') {
            token.kind = Token::Kind::Quoted;
            for (++m_at; m_at < m_text.size() && m_text[m_at] != c; ++m_at) {
                if (m_text[m_at] == '\\' && m_at + 1 < m_text.size() &&
                    (m_text[m_at + 1] == c || m_text[m_at + 1] == '\\'))
                    ++m_at;
                token.text += m_text[m_at];
            }
            if (m_at == m_text.size())
                return TextProblem{0, token.column,
                                   "expected a closing " + std::string(1, c) +
                                       " for the quote opened here, found the end"};
            ++m_at;
        } else {
            token.kind = Token::Kind::Word;
            const std::size_t start = m_at;
            while (m_at < m_text.size() && isWordChar(m_text[m_at]))
                ++m_at;
            token.text = std::string(m_text.substr(start, m_at - start));
        }
        return token;
    }

private:
    std::string_view m_text;
    std::size_t m_at = 0;
};

bool isKeyword(const Token& token, std::string_view word) {
    return token.kind == Token::Kind::Word && token.text == word;
}

// A status value of `=`: a class ('5' for 5xx), or an exact status; nullopt when it is
// neither.
std::optional<char> statusClassOfValue(std::string_view value) {
    if (value.size() == 3 && value[0] >= '1' && value[0] <= '5' &&
        (value[1] == 'x' || value[1] == 'X') && (value[2] == 'x' || value[2] == 'X'))
        return value[0];
    return std::nullopt;
}

bool isStatus(std::string_view value) {
    return value.size() == 3 && value[0] >= '1' && value[0] <= '5' && value[1] >= '0' &&
           value[1] <= '9' && value[2] >= '0' && value[2] <= '9';
}

class Parser {
public:
    explicit Parser(std::string_view text) : m_lexer(text) {
        m_program = std::make_unique<RecordFilter::Program>();
        m_program->text = std::string(text);
    }

    std::variant<std::unique_ptr<RecordFilter::Program>, TextProblem> run() {
        if (!advance())
            return std::move(*m_problem);
        const auto root = parseOr();
        if (!root)
            return std::move(*m_problem);
        if (m_token.kind != Token::Kind::End)
            return TextProblem{0, m_token.column,
                               "expected 'and', 'or' or the end, found " + shown(m_token)};
        m_program->root = *root;
        return std::move(m_program);
    }

private:
    bool advance() {
        auto next = m_lexer.next();
        if (auto* problem = std::get_if<TextProblem>(&next)) {
            m_problem = std::move(*problem);
            return false;
        }
        m_token = std::move(std::get<Token>(next));
        return true;
    }

    std::optional<std::size_t> fail(std::int64_t column, std::string message) {
        m_problem = TextProblem{0, column, std::move(message)};
        return std::nullopt;
    }

    std::size_t add(FilterNode node) {
        m_program->nodes.push_back(std::move(node));
        return m_program->nodes.size() - 1;
    }

    // parseAnd ('or' parseAnd)*, or the same one level down.
    std::optional<std::size_t> parseChain(FilterNode::Kind kind, std::string_view keyword) {
        const bool isOr = kind == FilterNode::Kind::Or;
        auto first = isOr ? parseChain(FilterNode::Kind::And, "and") : parseNot();
        if (!first || !isKeyword(m_token, keyword))
            return first;
        FilterNode chain;
        chain.kind = kind;
        chain.operands.push_back(*first);
        while (isKeyword(m_token, keyword)) {
            if (!advance())
                return std::nullopt;
            const auto operand = isOr ? parseChain(FilterNode::Kind::And, "and") : parseNot();
            if (!operand)
                return std::nullopt;
            chain.operands.push_back(*operand);
        }
        return add(std::move(chain));
    }

    std::optional<std::size_t> parseOr() { return parseChain(FilterNode::Kind::Or, "or"); }

    std::optional<std::size_t> parseNot() {
        if (!isKeyword(m_token, "not") && m_token.kind != Token::Kind::Open)
            return parseComparison();
        if (m_depth == kMaxNesting)
            return fail(m_token.column, "expected at most " + std::to_string(kMaxNesting) +
                                            " parentheses and nots inside each other, found "
                                            "more");
        ++m_depth;
        const Token opening = m_token;
        if (!advance())
            return std::nullopt;
        std::optional<std::size_t> node;
        if (opening.kind == Token::Kind::Open) {
            node = parseOr();
            if (node && m_token.kind != Token::Kind::Close)
                return fail(m_token.column,
                            "expected 'and', 'or' or ')' to close the '(' at column " +
                                std::to_string(opening.column) + ", found " + shown(m_token));
            if (node && !advance())
                return std::nullopt;
        } else if (const auto operand = parseNot()) {
            FilterNode negation;
            negation.kind = FilterNode::Kind::Not;
            negation.operands.push_back(*operand);
            node = add(std::move(negation));
        }
        --m_depth;
        return node;
    }

    std::optional<std::size_t> parseComparison() {
        const Token name = m_token;
        const bool keyword =
            isKeyword(name, "and") || isKeyword(name, "or") || isKeyword(name, "not");
        if (name.kind != Token::Kind::Word || keyword)
            return fail(name.column,
                        "expected a field name (status, method, path, vhost, client, name or "
                        "tag), found " +
                            shown(name));
        const auto field = filterFieldFromName(name.text);
        if (!field)
            return fail(name.column, "unknown field " + quoted(name.text) +
                                         "; expected status, method, path, vhost, client, "
                                         "name or tag");
        if (!advance())
            return std::nullopt;
        const Token op = m_token;
        if (op.kind != Token::Kind::Operator)
            return fail(op.column, "expected =, !=, ~ or !~ after " + quoted(name.text) +
                                       ", found " + shown(op));
        if (!advance())
            return std::nullopt;
        const Token value = m_token;
        if (value.kind != Token::Kind::Word && value.kind != Token::Kind::Quoted)
            return fail(value.column, "expected a value after " + quoted(name.text + op.text) +
                                          ", found " + shown(value));
        if (!advance())
            return std::nullopt;
        FilterNode comparison;
        comparison.field = *field;
        comparison.column = name.column;
        const bool regex = op.text.back() == '~';
        if (regex) {
            RE2::Options options;
            options.set_log_errors(false);
            comparison.kind = FilterNode::Kind::Matches;
            comparison.regex = std::make_unique<const re2::RE2>(value.text, options);
            if (!comparison.regex->ok())
                return fail(value.column, "expected a regular expression (RE2 syntax), found " +
                                              quoted(value.text) + ": " +
                                              comparison.regex->error());
        } else if (*field == FilterField::Status) {
            if (const auto statusClass = statusClassOfValue(value.text)) {
                comparison.kind = FilterNode::Kind::StatusClass;
                comparison.statusClass = *statusClass;
            } else if (!isStatus(value.text)) {
                return fail(value.column,
                            "expected a status from 100 to 599 such as 404, or a class such "
                            "as 5xx, found " +
                                quoted(value.text));
            }
        }
        if (comparison.kind == FilterNode::Kind::Equals)
            comparison.value = value.text;
        m_program->fields.add(*field);
        const std::size_t node = add(std::move(comparison));
        if (op.text.front() != '!')
            return node;
        FilterNode negation;
        negation.kind = FilterNode::Kind::Not;
        negation.operands.push_back(node);
        return add(std::move(negation));
    }

    Lexer m_lexer;
    Token m_token;
    std::unique_ptr<RecordFilter::Program> m_program;
    std::optional<TextProblem> m_problem;
    int m_depth = 0;
};

}  // namespace

std::variant<std::unique_ptr<RecordFilter::Program>, TextProblem> compileFilter(
    std::string_view text) {
    return Parser(text).run();
}

}  // namespace hitcounter
