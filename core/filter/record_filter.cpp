#include "core/filter/record_filter.h"

#include <utility>

#include "core/filter/filter_program.h"

namespace hitcounter {

namespace {

// True when `test` holds for one of the comma-separated tags in `tags` (none when empty).
template <typename Test>
bool anyTag(std::string_view tags, const Test& test) {
    if (tags.empty())
        return false;
    for (std::size_t start = 0;;) {
        const auto comma = tags.find(',', start);
        if (test(tags.substr(start, comma - start)))
            return true;
        if (comma == std::string_view::npos)
            return false;
        start = comma + 1;
    }
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool evaluate(const RecordFilter::Program& program, std::size_t at, const FilterRecord& record) {
    const FilterNode& node = program.nodes[at];
    const auto test = [&](const auto& one) {
        return node.field == FilterField::Tag ? anyTag(record.tags, one)
                                              : one(record.value(node.field));
    };
    switch (node.kind) {
        case FilterNode::Kind::And:
            for (const std::size_t operand : node.operands)
                if (!evaluate(program, operand, record))
                    return false;
            return true;
        case FilterNode::Kind::Or:
            for (const std::size_t operand : node.operands)
                if (evaluate(program, operand, record))
                    return true;
            return false;
        case FilterNode::Kind::Not:
            return !evaluate(program, node.operands.front(), record);
        case FilterNode::Kind::Equals:
            return test([&](std::string_view text) { return text == node.value; });
        case FilterNode::Kind::StatusClass:
            return test([&](std::string_view s) {
                return s.size() == 3 && s[0] == node.statusClass && isDigit(s[1]) && isDigit(s[2]);
            });
        case FilterNode::Kind::Matches:
            return test([&](std::string_view text) {
                return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *node.regex);
            });
    }
    return false;
}

}  // namespace

std::variant<RecordFilter, TextProblem> RecordFilter::parse(std::string_view text) {
    auto compiled = compileFilter(text);
    if (auto* problem = std::get_if<TextProblem>(&compiled))
        return std::move(*problem);
    return RecordFilter(std::move(std::get<std::unique_ptr<Program>>(compiled)));
}

RecordFilter::RecordFilter(std::unique_ptr<const Program> program)
    : m_program(std::move(program)) {}
RecordFilter::RecordFilter(RecordFilter&&) noexcept = default;
RecordFilter& RecordFilter::operator=(RecordFilter&&) noexcept = default;
RecordFilter::~RecordFilter() = default;

bool RecordFilter::matches(const FilterRecord& record) const {
    return evaluate(*m_program, m_program->root, record);
}

const std::string& RecordFilter::text() const {
    return m_program->text;
}

FilterFields RecordFilter::fields() const {
    return m_program->fields;
}

std::optional<TextProblem> RecordFilter::missingField(FilterFields available,
                                                      std::string_view lines) const {
    const FilterNode* first = nullptr;
    for (const FilterNode& node : m_program->nodes) {
        const bool comparison = node.column > 0;
        if (comparison && !available.has(node.field) && (!first || node.column < first->column))
            first = &node;
    }
    if (!first)
        return std::nullopt;
    return TextProblem{0, first->column,
                       "field '" + std::string(filterFieldName(first->field)) + "' is not in " +
                           std::string(lines) +
                           (available.empty() ? " (they have no fields to filter on)"
                                              : " (they have " + available.names() + ")")};
}

std::string describeFilterProblem(const TextProblem& problem) {
    return "column " + std::to_string(problem.column) + ": " + problem.message;
}

}  // namespace hitcounter
