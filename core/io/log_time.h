// Time stamps as web servers write them, turned into UTC seconds since the Unix epoch.
//
// Pure functions; thread-safe. Each returns std::nullopt when the text is not exactly of its
// form, names a day that does not exist, or lies before 1970-01-01T00:00:00Z. Fractions of a
// second are floored (the counters count whole seconds).
//
//  - parseClfTime: the Common Log Format's `%d/%b/%Y:%H:%M:%S %z` (nginx $time_local, Apache
//    %t without the brackets). The offset is the local time's distance from UTC:
//        parseClfTime("10/Oct/2000:13:55:36 -0700") == 971211336   (20:55:36 UTC)
//  - parseIsoTime: ISO 8601 / RFC 3339 date-time, 'T' or one space between date and time,
//    optional fraction, then 'Z', `+hh:mm`, `+hhmm`, `+hh` or nothing (nothing means UTC):
//        parseIsoTime("2000-10-10T13:55:36.250-07:00") == 971211336
//  - parseEpochTime: seconds since the epoch, `digits[.digits]` (nginx $msec):
//        parseEpochTime("971211336.123") == 971211336
//  - parseAnyLogTime: whichever of the three fits.
//  - utcOffsetOf: the UTC offset a time that parsed was written with, in seconds east of UTC
//    (the log's own zone); nullopt when the text names none (epoch seconds, ISO without an
//    offset). O(1): it reads only the text's end.
//        utcOffsetOf("01/Mar/2009:18:52:07 +1200") == 43200; utcOffsetOf("…:36Z") == 0
//  - logTimeProblem: why a text is none of the three, in words to follow "time '…' " in a
//    message; empty when parseAnyLogTime reads it.
//        logTimeProblem("10/Oct/2000:13:55:36 +9999") == "has a UTC offset that is not …"
#pragma once

#include <optional>
#include <string_view>

#include "core/base/types.h"

namespace hitcounter {

std::optional<Timestamp> parseClfTime(std::string_view text);
std::optional<Timestamp> parseIsoTime(std::string_view text);
std::optional<Timestamp> parseEpochTime(std::string_view text);
std::optional<Timestamp> parseAnyLogTime(std::string_view text);
std::optional<int> utcOffsetOf(std::string_view validTime);
std::string_view logTimeProblem(std::string_view text);

}  // namespace hitcounter
