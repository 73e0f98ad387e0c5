// The label value a key gets in the exposition: valid UTF-8, bounded in length, and distinct
// for distinct keys in all but contrived cases (the caller merges the rare collision, see
// hot_key_windows.h and key_families.h).
//
// Threading: pure functions; safe from any thread.
//
// keyLabel(key, maxBytes):
//  - A key that is valid UTF-8 is its own label value (the renderer escapes '\' '"' and
//    newline as the format asks; nothing else needs escaping).
//  - A key that is not valid UTF-8 cannot be a label value as it is, and replacing its bad
//    bytes with U+FFFD would merge keys; it is written as listen's report writes keys
//    (text_escape.h): printable UTF-8 as is, every control character and bad byte as the four
//    characters \xHH, and '\' as "\\". "\xff" (one byte) becomes the text \xff.
//  - A value longer than maxBytes (>= 32) is cut at a UTF-8 boundary and ends in "~" and 16
//    hex digits of a 64-bit FNV-1a hash of the whole key, so two long keys with the same
//    beginning keep apart: at most maxBytes bytes in all.
// Cost: O(key bytes).
//
// Example: keyLabel("home") == "home"; keyLabel("a\xffz") == "a\\xffz" (the text a\xffz);
//          keyLabel(std::string(10000, 'x'), 64) == 47 x's + "~" + 16 hex digits
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hitcounter::metrics {

inline constexpr std::size_t kDefaultLabelBytes = 1024;

std::string keyLabel(std::string_view key, std::size_t maxBytes = kDefaultLabelBytes);

}  // namespace hitcounter::metrics
