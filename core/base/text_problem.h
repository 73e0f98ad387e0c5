// TextProblem: what is wrong at a place in a user's text, for readers that refuse the text at
// its first problem and return it as a value: std::variant<T, TextProblem> (operations, lesson
// files, ring variants, LeetCode input, a learner's source). The convention it belongs to is
// stated once in docs/architecture.md, "Errors".
//
// Value type, thread-safe. The place is 1-based; 0 when there is none (a one-line text has no
// line; an error of a whole line has no column). The message says the problem and what was
// expected, without the place; the reader's caller adds what only it knows (the file's name).
//
// Example: TextProblem{3, 5, "expected a second after 'hit'"}.describe()
//              == "line 3, column 5: expected a second after 'hit'"
//          TextProblem{3, 0, "SyntaxError: Expected token `;'"}.describe()
//              == "line 3: SyntaxError: Expected token `;'"
//          TextProblem{0, 0, "index: expected t%W or t%(W+1)"}.describe() == the message
#pragma once

#include <cstdint>
#include <string>

namespace hitcounter {

struct TextProblem {
    std::int64_t line = 0;
    std::int64_t column = 0;
    std::string message;

    std::string describe() const {
        if (line <= 0) {
            return message;
        }
        std::string place = "line " + std::to_string(line);
        if (column > 0) {
            place += ", column " + std::to_string(column);
        }
        return place + ": " + message;
    }

    friend bool operator==(const TextProblem&, const TextProblem&) = default;
};

}  // namespace hitcounter
