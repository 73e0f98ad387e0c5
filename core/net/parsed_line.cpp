#include "core/net/parsed_line.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/base/saturating.h"
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

namespace {

// For a well-formed decimal number that a double cannot hold: true if it is below the
// smallest double (it rounds to 0 hits), false if above the largest (it saturates).
bool isBelowDoubleRange(std::string_view number) {
    const auto e = number.find_first_of("eE");
    const std::string_view mantissa = number.substr(0, e);
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t first = mantissa.find_first_of("123456789");
    // The power of ten of the first significant digit, before the exponent.
    const long long magnitude = first < point ? static_cast<long long>(point - first - 1)
                                              : -static_cast<long long>(first - point);
    std::string_view exponent = e == std::string_view::npos ? "0" : number.substr(e + 1);
    const bool negative = exponent.front() == '-';
    exponent.remove_prefix(exponent.front() == '-' || exponent.front() == '+' ? 1 : 0);
    long long power = 0;
    if (std::from_chars(exponent.data(), exponent.data() + exponent.size(), power).ec !=
        std::errc{}) {
        return negative;  // an exponent beyond long long decides alone
    }
    return magnitude + (negative ? -power : power) < 0;
}

}  // namespace

std::optional<Count> parseHitValue(std::string_view text, double rate) {
    if (rate == 1.0 && !text.empty() && text.find_first_not_of("0123456789") == text.npos) {
        // A whole number is taken exactly (a double holds integers only up to 2^53).
        Count whole = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), whole);
        return ec == std::errc::result_out_of_range ? kMaxCount : whole;
    }
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    // from_chars accepts "inf" and "nan"; a leading '-' is the only sign it takes.
    if (text.empty() || ptr != end || text.front() == '-') {
        return std::nullopt;
    }
    if (ec == std::errc::result_out_of_range) {
        // Finite, just not a double: below its range it is 0 hits, above it saturates.
        return isBelowDoubleRange(text) ? Count{0} : kMaxCount;
    }
    if (ec != std::errc{} || !std::isfinite(value) || value < 0) {
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
