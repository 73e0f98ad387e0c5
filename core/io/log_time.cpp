#include "core/io/log_time.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>

namespace hitcounter {

namespace {

// Reads exactly `width` digits at `pos` and advances it.
std::optional<int> digits(std::string_view text, std::size_t& pos, std::size_t width) {
    if (pos + width > text.size())
        return std::nullopt;
    int value = 0;
    for (std::size_t i = 0; i < width; ++i) {
        const char c = text[pos + i];
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    pos += width;
    return value;
}

bool expect(std::string_view text, std::size_t& pos, char c) {
    if (pos >= text.size() || text[pos] != c)
        return false;
    ++pos;
    return true;
}

std::optional<int> monthFromName(std::string_view name) {
    static constexpr std::array<std::string_view, 12> kMonths = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    for (std::size_t i = 0; i < kMonths.size(); ++i)
        if (name == kMonths[i])
            return static_cast<int>(i) + 1;
    return std::nullopt;
}

struct CivilTime {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
};

// Why a text is not a time, from the least to the most specific; each parser below sets the
// first it meets (a time that parses leaves it None).
enum class TimeFault { None, Form, Month, Offset, Date, TimeOfDay, Before1970 };

// Local civil time minus its UTC offset; nullopt (and `fault`) for impossible dates or times
// before 1970.
std::optional<Timestamp> toUtcSeconds(const CivilTime& c, int offsetSeconds, TimeFault& fault) {
    using namespace std::chrono;
    const year_month_day date{year{c.year}, month{static_cast<unsigned>(c.month)},
                              day{static_cast<unsigned>(c.day)}};
    if (!date.ok()) {
        fault = TimeFault::Date;
        return std::nullopt;
    }
    // 60 is allowed for a leap second, as the log formats allow it; it reads as the next one.
    if (c.hour > 23 || c.minute > 59 || c.second > 60) {
        fault = TimeFault::TimeOfDay;
        return std::nullopt;
    }
    const std::int64_t days = sys_days{date}.time_since_epoch().count();
    const std::int64_t local = days * 86400 + c.hour * 3600 + c.minute * 60 + c.second;
    const std::int64_t utc = local - offsetSeconds;
    if (utc < 0) {
        fault = TimeFault::Before1970;
        return std::nullopt;
    }
    return utc;
}

// `+hh:mm`, `+hhmm` or `+hh` (sign required) from pos to the end of text.
std::optional<int> parseOffset(std::string_view text, std::size_t pos) {
    if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-'))
        return std::nullopt;
    const int sign = text[pos++] == '-' ? -1 : 1;
    const auto hours = digits(text, pos, 2);
    if (!hours)
        return std::nullopt;
    int minutes = 0;
    if (pos < text.size()) {
        if (text[pos] == ':')
            ++pos;
        const auto m = digits(text, pos, 2);
        if (!m)
            return std::nullopt;
        minutes = *m;
    }
    if (pos != text.size() || *hours > 23 || minutes > 59)
        return std::nullopt;
    return sign * (*hours * 3600 + minutes * 60);
}

std::optional<Timestamp> clfTime(std::string_view text, TimeFault& fault) {
    fault = TimeFault::Form;
    std::size_t pos = 0;
    CivilTime c;
    const auto day = digits(text, pos, 2);
    if (!day || !expect(text, pos, '/') || pos + 3 > text.size())
        return std::nullopt;
    const auto month = monthFromName(text.substr(pos, 3));
    pos += 3;
    if (!expect(text, pos, '/'))
        return std::nullopt;
    const auto year = digits(text, pos, 4);
    if (!year || !expect(text, pos, ':'))
        return std::nullopt;
    const auto hour = digits(text, pos, 2);
    if (!hour || !expect(text, pos, ':'))
        return std::nullopt;
    const auto minute = digits(text, pos, 2);
    if (!minute || !expect(text, pos, ':'))
        return std::nullopt;
    const auto second = digits(text, pos, 2);
    if (!second || !expect(text, pos, ' '))
        return std::nullopt;
    if (!month) {
        fault = TimeFault::Month;
        return std::nullopt;
    }
    const auto offset = parseOffset(text, pos);
    if (!offset || text.size() - pos != 5) {  // CLF always writes +hhmm
        fault = TimeFault::Offset;
        return std::nullopt;
    }
    c = {*year, *month, *day, *hour, *minute, *second};
    return toUtcSeconds(c, *offset, fault);
}

std::optional<Timestamp> isoTime(std::string_view text, TimeFault& fault) {
    fault = TimeFault::Form;
    std::size_t pos = 0;
    const auto year = digits(text, pos, 4);
    if (!year || !expect(text, pos, '-'))
        return std::nullopt;
    const auto month = digits(text, pos, 2);
    if (!month || !expect(text, pos, '-'))
        return std::nullopt;
    const auto day = digits(text, pos, 2);
    if (!day || pos >= text.size() || (text[pos] != 'T' && text[pos] != ' '))
        return std::nullopt;
    ++pos;
    const auto hour = digits(text, pos, 2);
    if (!hour || !expect(text, pos, ':'))
        return std::nullopt;
    const auto minute = digits(text, pos, 2);
    if (!minute || !expect(text, pos, ':'))
        return std::nullopt;
    const auto second = digits(text, pos, 2);
    if (!second)
        return std::nullopt;
    if (pos < text.size() && (text[pos] == '.' || text[pos] == ',')) {
        const auto start = ++pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
            ++pos;
        if (pos == start)
            return std::nullopt;
    }
    int offset = 0;
    if (pos < text.size()) {
        if (text[pos] == 'Z' && pos + 1 == text.size()) {
            offset = 0;
        } else {
            const auto parsed = parseOffset(text, pos);
            if (!parsed) {
                // After a whole date and time: what follows can only be meant as the zone.
                fault = TimeFault::Offset;
                return std::nullopt;
            }
            offset = *parsed;
        }
    }
    return toUtcSeconds({*year, *month, *day, *hour, *minute, *second}, offset, fault);
}

}  // namespace

std::optional<Timestamp> parseClfTime(std::string_view text) {
    TimeFault fault;
    return clfTime(text, fault);
}

std::optional<Timestamp> parseIsoTime(std::string_view text) {
    TimeFault fault;
    return isoTime(text, fault);
}

std::optional<Timestamp> parseEpochTime(std::string_view text) {
    const auto dot = text.find('.');
    const auto whole = text.substr(0, dot);
    // 2^62 has 19 digits; 18 digits always fit the counters' range.
    if (whole.empty() || whole.size() > 18)
        return std::nullopt;
    Timestamp value = 0;
    for (const char c : whole) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    if (dot != std::string_view::npos) {
        const auto fraction = text.substr(dot + 1);
        if (fraction.empty())
            return std::nullopt;
        for (const char c : fraction)
            if (c < '0' || c > '9')
                return std::nullopt;
    }
    return value;
}

std::optional<Timestamp> parseAnyLogTime(std::string_view text) {
    if (auto t = parseClfTime(text))
        return t;
    if (auto t = parseIsoTime(text))
        return t;
    return parseEpochTime(text);
}

std::string_view logTimeProblem(std::string_view text) {
    TimeFault clf = TimeFault::None;
    TimeFault iso = TimeFault::None;
    if (clfTime(text, clf) || isoTime(text, iso) || parseEpochTime(text))
        return {};
    switch (std::max(clf, iso)) {
        case TimeFault::Month:
            return "names no month (expected Jan, Feb, ... Dec)";
        case TimeFault::Offset:
            return "has a UTC offset that is not +hhmm or +hh:mm with hours 00-23 and minutes "
                   "00-59";
        case TimeFault::Date:
            return "names a day that does not exist";
        case TimeFault::TimeOfDay:
            return "names a time of day that does not exist";
        case TimeFault::Before1970:
            return "is before 1970-01-01 00:00:00 UTC";
        default:
            return "is not a time in a known form";
    }
}

std::optional<int> utcOffsetOf(std::string_view validTime) {
    const std::size_t n = validTime.size();
    if (n > 0 && validTime.back() == 'Z')
        return 0;
    // +hh:mm, +hhmm (CLF), +hh: the sign stands 6, 5 or 3 characters from the end.
    for (const std::size_t width : {std::size_t{6}, std::size_t{5}, std::size_t{3}}) {
        if (n > width && (validTime[n - width] == '+' || validTime[n - width] == '-')) {
            if (const auto offset = parseOffset(validTime, n - width))
                return offset;
        }
    }
    return std::nullopt;
}

}  // namespace hitcounter
