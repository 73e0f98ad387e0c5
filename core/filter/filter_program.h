// The compiled form of a filter expression, shared by its parser (filter_parser.cpp) and its
// evaluator (record_filter.cpp); not part of the folder's interface.
//
// Immutable once compiled; see record_filter.h for threading and cost.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <re2/re2.h>

#include "core/base/text_problem.h"
#include "core/filter/record_filter.h"

namespace hitcounter {

struct FilterNode {
    enum class Kind : std::uint8_t { And, Or, Not, Equals, StatusClass, Matches };
    Kind kind = Kind::Equals;
    FilterField field = FilterField::Status;  // Equals, StatusClass, Matches
    std::vector<std::size_t> operands;        // And, Or: two or more; Not: one
    std::string value;                        // Equals
    char statusClass = 0;                     // StatusClass: '1'..'5'
    std::unique_ptr<const re2::RE2> regex;    // Matches
    std::int64_t column = 0;                  // where the field is named (comparisons)
};

struct RecordFilter::Program {
    std::string text;
    std::vector<FilterNode> nodes;  // operands before the node that uses them
    std::size_t root = 0;
    FilterFields fields;
};

// The program, or the first problem in `text`.
std::variant<std::unique_ptr<RecordFilter::Program>, TextProblem> compileFilter(
    std::string_view text);

}  // namespace hitcounter
