#include "core/io/trace_format.h"

#include <algorithm>
#include <charconv>

namespace hitcounter {

bool isDigits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

ParsedTimestamp parseTimestamp(std::string_view text) {
    const bool negative = text.starts_with('-');
    if (negative)
        text.remove_prefix(1);
    const auto dot = text.find('.');
    const auto whole = text.substr(0, dot);
    if (!isDigits(whole) || (dot != std::string_view::npos && !isDigits(text.substr(dot + 1)))) {
        const bool exponent = !text.empty() && text.front() >= '0' && text.front() <= '9' &&
                              text.find_first_of("eE") != std::string_view::npos;
        return {0, exponent ? TimestampProblem::Exponent : TimestampProblem::NotANumber};
    }
    if (negative)
        return {0, TimestampProblem::Negative};
    std::uint64_t seconds = 0;
    const auto [end, error] = std::from_chars(whole.data(), whole.data() + whole.size(), seconds);
    if (error != std::errc{} || seconds > static_cast<std::uint64_t>(kTraceMaxTimestamp))
        return {0, TimestampProblem::TooLarge};
    return {static_cast<Timestamp>(seconds), TimestampProblem::None};
}

std::string_view timestampProblemText(TimestampProblem problem) {
    switch (problem) {
        case TimestampProblem::None:
            return "is valid";
        case TimestampProblem::NotANumber:
            return "is not a number; expected seconds such as 17 or 17.25";
        case TimestampProblem::Exponent:
            return "has an exponent; expected plain seconds such as 1000 or 17.25";
        case TimestampProblem::Negative:
            return "is negative; expected seconds >= 0";
        case TimestampProblem::TooLarge:
            return "is too large; expected at most 4611686018427387903 (2^62 - 1)";
    }
    return {};
}

}  // namespace hitcounter
