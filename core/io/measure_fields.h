// What an access-log line measured, from its fields: the bytes sent and the response time
// (docs/measures.md). The one place their text is read, for every log format (log_format.h:
// nginx and Apache; access_log_parser.h: JSON lines).
//
// Thread-safe (no state). Cost: O(field length).
//
// Rules:
//  - bytes: a whole number below 2^64 - 1; "-" is 0 (nginx and Apache write "-" when no body
//    was sent: Apache's %b, an aborted request). An empty field (the format has none):
//    HitEvent::kNoBytes.
//  - response time: a decimal number >= 0 in its unit (seconds, milliseconds, microseconds),
//    turned into seconds; several separated by ',' or ':' (nginx's $upstream_response_time
//    when a request went to several upstreams) are summed; "-" entries are skipped, and a field
//    of only "-" (no upstream was asked) or empty is HitEvent::kNoSeconds.
//  - anything else (a sign, letters, "1e999", a number too large for a float) is refused with
//    the problem: the line is a bad row (TraceErrorKind::BadMeasure), never a crash.
//
// Example: takeMeasures({.bytes = "-", .responseTime = "0.010, 0.250"}, e, problem)
//          -> true, e.bytes == 0, e.seconds == 0.26f
#pragma once

#include <string>

#include "core/base/hit_event.h"
#include "core/io/log_format.h"

namespace hitcounter {

// Sets event.bytes and event.seconds from fields.bytes and fields.responseTime; false with
// `problem` naming the field and what was expected when one is not a measure.
bool takeMeasures(const AccessLogFields& fields, HitEvent& event, std::string& problem);

}  // namespace hitcounter
