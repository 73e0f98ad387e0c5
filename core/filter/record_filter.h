// RecordFilter: a filter expression (`status=5xx and path~'^/api/'`) parsed once and then
// asked of every parsed line (a FilterRecord) whether the line counts. The grammar is
// documented for users in docs/filters.md; in short:
//
//     expr       := or
//     or         := and ('or' and)*
//     and        := not ('and' not)*
//     not        := 'not' not | '(' expr ')' | comparison
//     comparison := FIELD ('=' | '!=' | '~' | '!~') VALUE
//     VALUE      := a bare word (no blank, quote, parenthesis, '=', '!' or '~'), or a text in
//                   '...' or "..." where a backslash escapes the quote and itself and any
//                   other backslash stays (so regular expressions keep their \d)
//
//  - Precedence: not binds tighter than and, and tighter than or; parentheses group.
//    The keywords are lower case; a FIELD is a name of filter_record.h.
//  - `F=V` is true when the field's text is exactly V (bytes, case-sensitive); an absent field
//    is the empty text. `status=5xx` (1xx..5xx, x or X) is a class: a three-digit status whose
//    first digit is 5; any other status value must be a status from 100 to 599.
//  - `F~RE` is true when RE2 finds the regular expression anywhere in the field's text
//    (unanchored: write ^ and $ to anchor). RE2 runs in time linear in the text, never
//    backtracking; each regular expression is compiled once, by parse().
//  - `F!=V` is `not F=V`, and `F!~RE` is `not F~RE`.
//  - tag: `tag=V` is true when one of the line's tags is V, `tag~RE` when one matches RE;
//    a line without tags has none to match.
//
// Threading: parse() from any thread; a RecordFilter is immutable once made, and matches() may
// be called from any number of threads at once (RE2 matching is thread-safe). Share it as a
// std::shared_ptr<const RecordFilter>.
// Cost: matches() is O(expression size x field length), no allocation; and/or short-circuit.
// Errors: parse() returns a TextProblem (docs/architecture.md, "Errors") whose column (1-based,
// in bytes) is where the problem is, its message what was expected and what was found.
//
// Example:
//     auto parsed = RecordFilter::parse("status=404 and not path~'^/static/'");
//     const auto& filter = std::get<RecordFilter>(parsed);
//     FilterRecord r;  r.status = "404";  r.path = "/missing";
//     filter.matches(r);   // true
//     RecordFilter::parse("status=5xx and")   // TextProblem{0, 15, "expected a field name
//                                             //   (...), found the end"}
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/base/text_problem.h"
#include "core/filter/filter_record.h"

namespace hitcounter {

class RecordFilter {
public:
    static std::variant<RecordFilter, TextProblem> parse(std::string_view text);

    RecordFilter(RecordFilter&&) noexcept;
    RecordFilter& operator=(RecordFilter&&) noexcept;
    ~RecordFilter();

    bool matches(const FilterRecord& record) const;

    // The expression as given.
    const std::string& text() const;
    // Every field the expression names.
    FilterFields fields() const;
    // Where the expression first names a field `available` lacks: a TextProblem at that column,
    // "field 'status' is not in statsd lines (they have name and tag)", `lines` naming the
    // source's lines; nullopt when every field it names is available.
    std::optional<TextProblem> missingField(FilterFields available, std::string_view lines) const;

    struct Program;  // the compiled expression (record_filter.cpp)

private:
    explicit RecordFilter(std::unique_ptr<const Program> program);
    std::unique_ptr<const Program> m_program;
};

// "column 15: expected a field name ..., found the end": a problem of a filter for people.
std::string describeFilterProblem(const TextProblem& problem);

}  // namespace hitcounter
