// quotedField: a field's text as a message quotes it ("time '32/Oct/2000:13:55:36 -0700' is
// not a date", "bytes '12k' is not a whole number"): in single quotes, its first `limit` bytes
// with control characters (and DEL) shown as '?', and "..." before the closing quote when cut,
// so no field can reach a terminal raw or make a message unbounded.
//
// Thread-safe (no state). Cost: O(limit).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hitcounter {

std::string quotedField(std::string_view text, std::size_t limit);

}  // namespace hitcounter
