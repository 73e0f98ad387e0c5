#include "core/net/text_escape.h"

#include <cstdint>

namespace hitcounter {

namespace {

// The length of the valid UTF-8 sequence starting at text[i], or 0 if it is not one.
std::size_t utf8Length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b = byte(i);
    if (b < 0x80) {
        return 1;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xbf;  // the range of the second byte
    if (b >= 0xc2 && b <= 0xdf) {
        length = 2;
    } else if (b >= 0xe0 && b <= 0xef) {
        length = 3;
        low = b == 0xe0 ? 0xa0 : 0x80;   // no overlong forms
        high = b == 0xed ? 0x9f : 0xbf;  // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
        length = 4;
        low = b == 0xf0 ? 0x90 : 0x80;
        high = b == 0xf4 ? 0x8f : 0xbf;  // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high) {
        return 0;
    }
    for (std::size_t k = 2; k < length; ++k) {
        if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) {
            return 0;
        }
    }
    return length;
}

void appendHex(std::string& out, unsigned char c) {
    constexpr char kDigits[] = "0123456789abcdef";
    out += kDigits[c >> 4];
    out += kDigits[c & 0xf];
}

}  // namespace

std::string escapeForTerminal(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8Length(text, i);
        const auto b = static_cast<unsigned char>(text[i]);
        // C1 controls are U+0080..U+009F: 0xc2 0x80..0x9f in UTF-8.
        const bool control = length == 1 ? (b < 0x20 || b == 0x7f)
                                         : length == 2 && b == 0xc2 &&
                                               static_cast<unsigned char>(text[i + 1]) < 0xa0;
        if (length == 0 || control) {
            for (std::size_t k = 0; k < (length == 0 ? 1 : length); ++k) {
                out += "\\x";
                appendHex(out, static_cast<unsigned char>(text[i + k]));
            }
            i += length == 0 ? 1 : length;
            continue;
        }
        if (b == '\\') {
            out += '\\';
        }
        out.append(text.substr(i, length));
        i += length;
    }
    return out;
}

std::string csvField(std::string_view text) {
    std::string escaped = escapeForTerminal(text);
    if (escaped.find_first_of(",\"") == std::string::npos) {
        return escaped;
    }
    std::string out = "\"";
    for (const char c : escaped) {
        out += c;
        if (c == '"') {
            out += '"';
        }
    }
    out += '"';
    return out;
}

std::string jsonString(std::string_view text) {
    const std::string safe = isValidUtf8(text) ? std::string() : escapeForTerminal(text);
    if (!safe.empty()) {
        text = safe;
    }
    std::string out = "\"";
    for (const char c : text) {
        const auto b = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (b < 0x20) {
            out += "\\u00";
            appendHex(out, b);
        } else {
            out += c;
        }
    }
    out += '"';
    return out;
}

bool isValidUtf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t length = utf8Length(text, i);
        if (length == 0) {
            return false;
        }
        i += length;
    }
    return true;
}

std::string hexBytes(std::string_view bytes) {
    std::string out;
    out.reserve(2 * bytes.size());
    for (const char c : bytes) {
        appendHex(out, static_cast<unsigned char>(c));
    }
    return out;
}

}  // namespace hitcounter
