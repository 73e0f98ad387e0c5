// The pieces of JSON text both JSON readers share (core/io/json_line.h for JSON-lines logs,
// core/io/leetcode_input.h for the LeetCode input), so that they decode strings and accept
// numbers alike.
//
// decodeJsonEscape reads one escape after its backslash from a character reader and appends
// its UTF-8 to `out`. \uXXXX is a UTF-16 unit: a high surrogate followed by \u and a low one
// makes one 4-byte character; a surrogate without its other half becomes U+FFFD (it has no
// UTF-8 form), and an escape after a lone high half is decoded as itself. Errors leave the
// reader at the offending character (not consumed).
//
// The reader: `int peek()` (the next byte as 0..255, negative at the end) and `get()` (consumes
// it). Thread-safe (no state). Cost: O(escape length); a run of lone surrogates is one loop, not
// a recursion.
//
// Example: on the text `ud83d\ude00"` (after the backslash) it appends "\xf0\x9f\x98\x80" and
//          leaves the reader at the closing quote.
#pragma once

#include <string>
#include <string_view>

namespace hitcounter {

enum class JsonEscapeError { None, UnknownEscape, NotFourHexDigits };

// `code` (at most 0x10FFFF, not a surrogate) as UTF-8.
void appendUtf8(std::string& out, char32_t code);

// -digits[.digits][(e|E)[+-]digits], as JSON writes numbers (leading zeros allowed).
bool isJsonNumber(std::string_view token);

namespace json_detail {

int hexDigitValue(int c);  // -1 when c is not a hex digit

template <class Reader>
long readFourHexDigits(Reader& in) {
    long code = 0;
    for (int k = 0; k < 4; ++k) {
        const int value = hexDigitValue(in.peek());
        if (value < 0)
            return -1;
        in.get();
        code = code * 16 + value;
    }
    return code;
}

inline bool isHighSurrogate(long code) {
    return code >= 0xD800 && code < 0xDC00;
}
inline bool isLowSurrogate(long code) {
    return code >= 0xDC00 && code < 0xE000;
}

}  // namespace json_detail

template <class Reader>
JsonEscapeError decodeJsonEscape(Reader& in, std::string& out) {
    using namespace json_detail;
    constexpr std::string_view simple = "\"\\/bfnrt";
    constexpr std::string_view meaning = "\"\\/\b\f\n\r\t";
    constexpr char32_t replacement = 0xFFFD;
    for (;;) {  // once per escape: again only for the escape after a lone high surrogate
        const int letter = in.peek();
        if (const auto at = simple.find(static_cast<char>(letter));
            letter >= 0 && at != simple.npos) {
            in.get();
            out += meaning[at];
            return JsonEscapeError::None;
        }
        if (letter != 'u')
            return JsonEscapeError::UnknownEscape;
        in.get();
        long code = readFourHexDigits(in);
        if (code < 0)
            return JsonEscapeError::NotFourHexDigits;
        bool escapeFollows = false;
        while (isHighSurrogate(code) && in.peek() == '\\') {
            in.get();
            if (in.peek() != 'u') {
                escapeFollows = true;
                break;
            }
            in.get();
            const long low = readFourHexDigits(in);
            if (low < 0)
                return JsonEscapeError::NotFourHexDigits;
            if (isLowSurrogate(low)) {
                appendUtf8(
                    out, static_cast<char32_t>(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)));
                return JsonEscapeError::None;
            }
            appendUtf8(out, replacement);  // the high half alone; `low` stands on its own
            code = low;
        }
        const bool surrogate = isHighSurrogate(code) || isLowSurrogate(code);
        appendUtf8(out, surrogate ? replacement : static_cast<char32_t>(code));
        if (!escapeFollows)
            return JsonEscapeError::None;
    }
}

}  // namespace hitcounter
