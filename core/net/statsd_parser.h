// The statsd line parser: `name:value|type[|@rate][|#tag,...][|T<unix seconds>]`.
//
// Threading: a pure function; safe from any thread. O(line length), no allocation.
//
// Rules (each has a row in tests/net/tst_statsd_parser.cpp):
//  - A trailing '\r' is stripped; an empty line is Empty (skipped, not bad).
//  - name is everything before the first ':' and must not be empty; it is the key. Tags do
//    not split the key.
//  - After the ':' come '|'-separated fields: value, type, then optional fields in any order:
//      @rate   a finite number in (0, 1]                 (at most once)
//      #tags   anything; not part of the key, kept as ParsedLine::tags for filters (the first
//              #tags field if there are several)
//      T<s>    the hit's time in whole unix seconds     (at most once)
//      other   a field starting with a letter is ignored (extensions such as DogStatsD's
//              `c:<container id>`); anything else (empty, digit, punctuation) is Bad
//  - type c is a Hit: hits = value / rate rounded to the nearest integer (halves away from
//    zero, saturating), value a finite number >= 0. A value that rounds to 0 is a Hit of 0.
//  - type ms (a timer) is a Hit of 1 / rate hits (rounded, as a counter's) with seconds =
//    value / 1000, value a number from 0 to 1e9 milliseconds (else Bad; 10^6 s is the top of
//    the response-time sketch's range).
//  - types g h s d are Ignored (their value is not examined, sets carry strings).
//  - Everything else is Bad: no ':', empty name or value, missing or unknown type, a
//    non-numeric or negative value, a rate outside (0, 1], a bad or repeated optional field.
//
// Examples:
//   "home:1|c"                 -> Hit home, 1 hit, now
//   "home:3|c|#a:b|@0.5"       -> Hit home, 6 hits
//   "home:1|c|T1700000000"     -> Hit home, 1 hit at 1700000000
//   "api:320|ms"               -> Hit api, 1 hit that took 0.32 s
//   "load:0.7|g"               -> Ignored
//   "home:1|zz"                -> Bad "unknown type"
#pragma once

#include <string_view>

#include "core/net/parsed_line.h"

namespace hitcounter {

ParsedLine parseStatsdLine(std::string_view line);

}  // namespace hitcounter
