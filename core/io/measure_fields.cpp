#include "core/io/measure_fields.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "core/io/quoted_field.h"

namespace hitcounter {

namespace {

constexpr std::size_t kQuotedBytes = 24;  // of a field quoted in a message

std::string_view withoutSpaces(std::string_view text) {
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    return text;
}

bool takeBytes(std::string_view text, HitEvent& event, std::string& problem) {
    if (text.empty()) {
        event.bytes = HitEvent::kNoBytes;
        return true;
    }
    if (text == "-") {
        event.bytes = 0;
        return true;
    }
    std::uint64_t bytes = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bytes);
    if (error != std::errc{} || end != text.data() + text.size() || bytes == HitEvent::kNoBytes) {
        problem =
            "bytes " + quotedField(text, kQuotedBytes) + " is not a whole number of bytes or '-'";
        return false;
    }
    event.bytes = bytes;
    return true;
}

double unitsPerSecond(ResponseTimeUnit unit) {
    switch (unit) {
        case ResponseTimeUnit::Milliseconds:
            return 1e3;
        case ResponseTimeUnit::Microseconds:
            return 1e6;
        case ResponseTimeUnit::Seconds:
            break;
    }
    return 1.0;
}

std::string_view responseTimeUnitName(ResponseTimeUnit unit) {
    switch (unit) {
        case ResponseTimeUnit::Milliseconds:
            return "milliseconds";
        case ResponseTimeUnit::Microseconds:
            return "microseconds";
        case ResponseTimeUnit::Seconds:
            break;
    }
    return "seconds";
}

bool takeResponseTime(std::string_view text, ResponseTimeUnit unit, HitEvent& event,
                      std::string& problem) {
    event.seconds = HitEvent::kNoSeconds;
    double sum = 0.0;
    bool any = false;
    for (std::string_view rest = text; !rest.empty();) {
        const auto separator = rest.find_first_of(",:");
        const std::string_view entry = withoutSpaces(rest.substr(0, separator));
        rest =
            separator == std::string_view::npos ? std::string_view{} : rest.substr(separator + 1);
        if (entry == "-")
            continue;
        double value = 0.0;
        const auto [end, error] = std::from_chars(entry.data(), entry.data() + entry.size(), value,
                                                  std::chars_format::fixed);
        if (entry.empty() || error != std::errc{} || end != entry.data() + entry.size() ||
            !(value >= 0.0)) {
            problem = "response time " + quotedField(text, kQuotedBytes) + " is not a number of " +
                      std::string(responseTimeUnitName(unit)) + " >= 0 or '-'";
            return false;
        }
        sum += value / unitsPerSecond(unit);
        any = true;
    }
    if (!any)
        return true;
    if (!(sum <= std::numeric_limits<float>::max())) {
        problem = "response time " + quotedField(text, kQuotedBytes) + " is too large";
        return false;
    }
    event.seconds = static_cast<float>(sum);
    return true;
}

}  // namespace

bool takeMeasures(const AccessLogFields& fields, HitEvent& event, std::string& problem) {
    return takeBytes(fields.bytes, event, problem) &&
           takeResponseTime(fields.responseTime, fields.responseTimeUnit, event, problem);
}

}  // namespace hitcounter
