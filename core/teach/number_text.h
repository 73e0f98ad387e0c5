// num(), pairText(), windowText(): integers, (second, count) pairs and half-open windows as the
// teaching texts write them (decimal, no separators), for the sentences core/teach builds.
// Thread-compatible.
// Example: "hits in " + windowText(1, 301) + ", slot 1 holds " + pairText(1, 3) gives
// "hits in (1, 301], slot 1 holds (1, 3)".
#pragma once

#include <concepts>
#include <string>

namespace hitcounter::teach {

template <std::integral T>
std::string num(T value) {
    return std::to_string(value);
}

template <std::integral S, std::integral C>
std::string pairText(S second, C count) {
    return "(" + num(second) + ", " + num(count) + ")";
}

// The window (low, high]: open on the left, closed on the right.
template <std::integral T>
std::string windowText(T low, T high) {
    return "(" + num(low) + ", " + num(high) + "]";
}

}  // namespace hitcounter::teach
