// Making received bytes (keys, lines) safe to print: for terminals and for JSON.
//
// Threading: pure functions; safe from any thread.
//
// escapeForTerminal: the text as is where it is printable UTF-8; every control character
// (C0 including \t \r \n and ESC, DEL, the C1 range U+0080..U+009F) and every byte that is not
// part of valid UTF-8 becomes \xHH (one per byte), and '\' becomes "\\", so the escaping is
// unambiguous and a key cannot move the cursor, set a title or rewrite a line.
//   escapeForTerminal("caf\xc3\xa9")  == "café"
//   escapeForTerminal("a\x1b]0;x\x07") == "a\\x1b]0;x\\x07"
//   escapeForTerminal("\xff")          == "\\xff"
//
// isValidUtf8: well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
// hexBytes: two lowercase hex digits per byte: hexBytes("\xff" "a") == "ff61".
#pragma once

#include <string>
#include <string_view>

namespace hitcounter {

std::string escapeForTerminal(std::string_view text);
bool isValidUtf8(std::string_view text);
std::string hexBytes(std::string_view bytes);

}  // namespace hitcounter
