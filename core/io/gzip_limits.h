// GzipLimits: how far a gzip file may inflate before GzipStreambuf (gzip_streambuf.h) refuses
// it as a gzip bomb; its own header so that HitFileOptions carries it without zlib.h.
#pragma once

#include <cstdint>

namespace hitcounter {

// How far compressed data may inflate. Access logs gzip 5 to 30 times smaller, repetitive
// synthetic ones up to about 100 times; zeros 1,000 times. Past `freeBytes` of inflated data,
// more than `maxRatio` inflated bytes per compressed byte read ends the stream with an error.
struct GzipLimits {
    static constexpr std::uint64_t kDefaultMaxRatio = 200;
    std::uint64_t maxRatio = kDefaultMaxRatio;  // 0: no limit
    std::uint64_t freeBytes = std::uint64_t{64} << 20;
};

}  // namespace hitcounter
