// Lesson files: a lesson as the learner left it, in a small documented text format (issue 16,
// build 5; docs/teaching.md "Lesson files").
//
// Thread-safe (pure functions and plain values).
//
// Format, UTF-8 text; header lines "key value" until the line "operations:", then the
// operations verbatim in the editor's syntax (operation_parser.h):
//     # hitcounter lesson 1          first line, exactly (the format's version)
//     lesson example10               optional: the built-in lesson it started from (its kind,
//                                    L and limiters for a rate-limit lesson)
//     window 10                      W in seconds, 5 to 300
//     step 4                         the step shown
//     answer 4 3                     optional, repeatable: the learner answered 3 at step 4
//     practice 42                    optional: a practice with this seed
//     variant compare=>=,index=t%W,reset=second,store=second+count
//                                    optional: the ring the learner built (ring_variant.h)
//     operations:
//     hit 1
//     ...
//     code:                          optional (issue 24): the learner's JavaScript of the
//     class HitCounter { ... }       Code tab, verbatim to the end of the file
// Blank lines and lines starting with '#' in the header are ignored. Errors (a TextProblem,
// docs/architecture.md "Errors") name the 1-based line of the file (an operation's error too)
// and what was expected.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/base/text_problem.h"
#include "core/teach/operation_parser.h"
#include "core/teach/ring_variant.h"

namespace hitcounter::teach {

inline constexpr std::string_view kLessonFileMagic = "# hitcounter lesson 1";
inline constexpr std::string_view kLessonFileCodeLine = "code:";

struct LessonFile {
    std::string lesson;  // a lessons() id, or empty
    std::chrono::seconds window{10};
    std::size_t step = 0;
    std::map<std::size_t, Count> answers;  // step -> the learner's answer
    std::optional<std::uint64_t> practiceSeed;
    std::optional<RingVariant> variant;  // the learner's built ring (issue 16, build 4)
    std::string operations;
    std::optional<std::string> code;  // the learner's JavaScript (issue 24, the Code tab)
    friend bool operator==(const LessonFile&, const LessonFile&) = default;
};

std::string writeLessonFile(const LessonFile& file);

// The file, or the first error (its line counts from 1 at the magic line). The operations are
// checked with parseOperations, the lesson id against lessons(), the step against the number
// of operations.
std::variant<LessonFile, TextProblem> readLessonFile(std::string_view text);

}  // namespace hitcounter::teach
