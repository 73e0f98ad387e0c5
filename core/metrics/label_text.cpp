#include "core/metrics/label_text.h"

#include <algorithm>
#include <cstdint>

#include "core/net/text_escape.h"

namespace hitcounter::metrics {

namespace {

std::uint64_t fnv1a(std::string_view bytes) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ull;
    }
    return hash;
}

// The length of the longest prefix of `text` of at most `bytes` bytes that does not end
// inside a UTF-8 sequence (`text` is valid UTF-8).
std::size_t utf8Prefix(std::string_view text, std::size_t bytes) {
    std::size_t end = std::min(bytes, text.size());
    while (end > 0 && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) {
        --end;
    }
    return end;
}

}  // namespace

std::string keyLabel(std::string_view key, std::size_t maxBytes) {
    constexpr std::size_t kSuffixBytes = 17;  // "~" and 16 hex digits
    maxBytes = std::max<std::size_t>(maxBytes, 32);
    std::string text = isValidUtf8(key) ? std::string(key) : escapeForTerminal(key);
    if (text.size() <= maxBytes) {
        return text;
    }
    text.resize(utf8Prefix(text, maxBytes - kSuffixBytes));
    static constexpr char kHex[] = "0123456789abcdef";
    const std::uint64_t hash = fnv1a(key);
    text += '~';
    for (int shift = 60; shift >= 0; shift -= 4) {
        text += kHex[(hash >> shift) & 0xf];
    }
    return text;
}

}  // namespace hitcounter::metrics
