#include "core/net/parsed_line.h"

#include <charconv>
#include <cmath>
#include "core/counters/saturating.h"

#include "core/net/graphite_parser.h"
#include "core/net/statsd_parser.h"

namespace hitcounter {

ParsedLine parseLine(WireProtocol protocol, std::string_view line) {
    return protocol == WireProtocol::Statsd ? parseStatsdLine(line) : parseGraphiteLine(line);
}

std::string_view protocolName(WireProtocol protocol) {
    return protocol == WireProtocol::Statsd ? "statsd" : "graphite";
}

std::string_view withoutCarriageReturn(std::string_view line) {
    if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
    }
    return line;
}

std::optional<Count> parseHitValue(std::string_view text, double rate) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    // from_chars accepts "inf" and "nan"; a leading '-' is the only sign it takes.
    if (text.empty() || ec != std::errc{} || ptr != end || !std::isfinite(value) || value < 0 ||
        text.front() == '-') {
        return std::nullopt;
    }
    const double hits = std::round(value / rate);
    // 2^64 is exactly representable; anything at or above it saturates.
    constexpr double kCountLimit = 18446744073709551616.0;
    if (!(hits < kCountLimit)) {
        return kMaxCount;
    }
    return static_cast<Count>(hits);
}

std::optional<Timestamp> parseUnixSeconds(std::string_view text) {
    if (text.empty() || text.front() < '0' || text.front() > '9') {
        return std::nullopt;
    }
    Timestamp t = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, t);
    constexpr Timestamp kMax = (Timestamp{1} << 62) - 1;
    if (ec != std::errc{} || ptr != end || t > kMax) {
        return std::nullopt;
    }
    return t;
}

}  // namespace hitcounter
