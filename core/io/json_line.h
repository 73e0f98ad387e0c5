// forEachJsonMember: reads one JSON object (one line of a JSON-lines log) and hands each
// top-level member to a callback, with string values decoded (escapes, \uXXXX with surrogate
// pairs, to UTF-8). Nested objects and arrays are skipped as values.
//
// Thread-safe (no state). Cost: O(line length). Nesting deeper than 64 is refused.
//
// Returns false with `problem` naming the column and what was expected when the line is not
// one JSON object (trailing spaces allowed).
//
// Example: forEachJsonMember(R"({"status":404,"uri":"/a\u00e9"})", fn, problem) calls
//          fn("status", "404", false) then fn("uri", "/a\xc3\xa9", true).
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace hitcounter {

using JsonMemberFn =
    std::function<void(std::string_view name, std::string_view value, bool isString)>;

bool forEachJsonMember(std::string_view line, const JsonMemberFn& onMember, std::string& problem);

}  // namespace hitcounter
