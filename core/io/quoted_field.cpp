#include "core/io/quoted_field.h"

namespace hitcounter {

std::string quotedField(std::string_view text, std::size_t limit) {
    std::string out = "'";
    for (const char c : text.substr(0, limit))
        out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    out += text.size() > limit ? "...'" : "'";
    return out;
}

}  // namespace hitcounter
