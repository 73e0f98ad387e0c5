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
// csvField: one RFC 4180 field of a CSV row printed to a terminal or a file: the text
// escaped as by escapeForTerminal (so no line break, ESC or BEL survives and bad bytes stay
// distinct as \xHH), then, if it holds ',' or '"', quoted with '"' and each '"' doubled.
//   csvField("home")        == "home"
//   csvField("a,b")         == "\"a,b\""
//   csvField("x\n1,evil,9") == "\"x\\x0a1,evil,9\""
//   csvField("say \"hi\"")  == "\"say \"\"hi\"\"\""
//
// jsonString: a JSON string literal, quotes included. Valid UTF-8 is written as is ('"', '\'
// and control characters escaped as JSON requires); any other text is first escaped by
// escapeForTerminal, so the key of the one byte 0xff is the JSON string "\\xff" (its value the
// four characters \xff): readable, and never the same as another key of bad bytes. (Outputs that
// must also tell such a key from the valid UTF-8 text "\xff" name the bytes in a separate hex
// field; see docs.)
//
// isValidUtf8: well-formed UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF).
// hexBytes: two lowercase hex digits per byte: hexBytes("\xff" "a") == "ff61".
#pragma once

#include <string>
#include <string_view>

namespace hitcounter {

std::string escapeForTerminal(std::string_view text);
std::string csvField(std::string_view text);
std::string jsonString(std::string_view text);
bool isValidUtf8(std::string_view text);
std::string hexBytes(std::string_view bytes);

}  // namespace hitcounter
