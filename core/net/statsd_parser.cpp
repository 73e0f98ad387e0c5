#include "core/net/statsd_parser.h"

#include <array>
#include <charconv>
#include <cmath>

namespace hitcounter {

namespace {

bool isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Splits off the text before the next '|' (or all of it); `rest` keeps what follows the '|'.
std::string_view nextField(std::string_view& rest, bool& more) {
    const auto bar = rest.find('|');
    std::string_view field = rest.substr(0, bar);
    more = bar != std::string_view::npos;
    rest = more ? rest.substr(bar + 1) : std::string_view{};
    return field;
}

bool isIgnoredType(std::string_view type) {
    constexpr std::array<std::string_view, 4> kIgnored{"g", "h", "s", "d"};
    for (std::string_view t : kIgnored) {
        if (type == t) {
            return true;
        }
    }
    return false;
}

std::optional<double> parseRate(std::string_view text) {
    double rate = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, rate);
    if (text.empty() || ec != std::errc{} || ptr != end || !std::isfinite(rate) || rate <= 0 ||
        rate > 1) {
        return std::nullopt;
    }
    return rate;
}

// `name:MS|ms`: a hit (or 1 / rate of them: a sampled timer stands for that many) that took
// MS milliseconds, from 0 to kMaxTimerMilliseconds.
ParsedLine timerLine(std::string_view name, std::string_view value, double rate,
                     std::optional<Timestamp> time, std::optional<std::string_view> tags) {
    constexpr double kMaxTimerMilliseconds = 1e9;  // 10^6 s: the quantile sketch's range
    double milliseconds = 0;
    const char* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, milliseconds);
    if (ptr != end || ec != std::errc{} || value.front() == '-' || !std::isfinite(milliseconds) ||
        milliseconds < 0 || milliseconds > kMaxTimerMilliseconds) {
        return ParsedLine::bad("timer value is not milliseconds from 0 to 1e9");
    }
    const auto hits = parseHitValue("1", rate);
    ParsedLine line{LineVerdict::Hit, name, hits.value_or(1), time, {}, tags.value_or("")};
    line.seconds = static_cast<float>(milliseconds / 1000.0);
    return line;
}

}  // namespace

ParsedLine parseStatsdLine(std::string_view line) {
    line = withoutCarriageReturn(line);
    if (line.empty()) {
        return {};
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
        return ParsedLine::bad("missing ':' after the metric name");
    }
    if (colon == 0) {
        return ParsedLine::bad("empty metric name");
    }
    std::string_view rest = line.substr(colon + 1);
    bool more = false;
    const std::string_view value = nextField(rest, more);
    if (value.empty()) {
        return ParsedLine::bad("empty value");
    }
    if (!more) {
        return ParsedLine::bad("missing type");
    }
    const std::string_view type = nextField(rest, more);
    if (type.empty()) {
        return ParsedLine::bad("missing type");
    }
    const bool isCounter = type == "c";
    const bool isTimer = type == "ms";
    if (!isCounter && !isTimer && !isIgnoredType(type)) {
        return ParsedLine::bad("unknown type");
    }

    std::optional<double> rate;
    std::optional<Timestamp> time;
    std::optional<std::string_view> tags;
    while (more) {
        const std::string_view field = nextField(rest, more);
        if (field.empty()) {
            return ParsedLine::bad("empty field");
        }
        if (field.front() == '@') {
            if (rate) {
                return ParsedLine::bad("repeated @rate");
            }
            rate = parseRate(field.substr(1));
            if (!rate) {
                return ParsedLine::bad("rate is not a number in (0, 1]");
            }
        } else if (field.front() == 'T') {
            if (time) {
                return ParsedLine::bad("repeated T timestamp");
            }
            time = parseUnixSeconds(field.substr(1));
            if (!time) {
                return ParsedLine::bad("T timestamp is not whole unix seconds");
            }
        } else if (field.front() == '#') {
            if (!tags) {
                tags = field.substr(1);
            }
        } else if (!isLetter(field.front())) {
            return ParsedLine::bad("unknown field");
        }
    }

    if (isTimer) {
        return timerLine(line.substr(0, colon), value, rate.value_or(1.0), time, tags);
    }
    if (!isCounter) {
        return ParsedLine::ignored();
    }
    const auto hits = parseHitValue(value, rate.value_or(1.0));
    if (!hits) {
        return ParsedLine::bad("value is not a finite number >= 0");
    }
    return {LineVerdict::Hit, line.substr(0, colon), *hits, time, {}, tags.value_or("")};
}

}  // namespace hitcounter
