// For the tests of gzip files cut short: what such a file still holds, inflated here with zlib
// alone (independent of GzipStreambuf and HitFile), and how many whole lines that is.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <zlib.h>

namespace hitcounter::testing {

// The text a gzip stream cut short inflates to: every byte zlib can decode before the input
// runs out.
inline std::string inflateWhatIsThere(std::string_view gzip) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        return {};
    }
    std::string text;
    char out[64 * 1024];
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gzip.data()));
    z.avail_in = static_cast<uInt>(gzip.size());
    for (int status = Z_OK; status == Z_OK;) {
        z.next_out = reinterpret_cast<Bytef*>(out);
        z.avail_out = sizeof out;
        status = inflate(&z, Z_NO_FLUSH);
        text.append(out, sizeof out - z.avail_out);
        if (z.avail_out != 0 && z.avail_in == 0) {
            break;  // all the input used: the cut
        }
    }
    inflateEnd(&z);
    return text;
}

// Whole lines (ending in '\n') in `text`.
inline std::size_t wholeLines(std::string_view text) {
    std::size_t lines = 0;
    for (const char c : text) {
        lines += c == '\n' ? 1 : 0;
    }
    return lines;
}

}  // namespace hitcounter::testing
