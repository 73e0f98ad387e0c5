// num(): an integer as the teaching texts write it (decimal, no separators), for the sentences
// core/teach builds. Thread-compatible.
// Example: "hits in (" + num(Timestamp{1}) + ", " + num(Count{300}) + "]"
#pragma once

#include <concepts>
#include <string>

namespace hitcounter::teach {

template <std::integral T>
std::string num(T value) {
    return std::to_string(value);
}

}  // namespace hitcounter::teach
