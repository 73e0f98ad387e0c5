// The Graphite plaintext line parser: `path value timestamp`.
//
// Threading: a pure function; safe from any thread. O(line length), no allocation.
//
// Rules (each has a row in tests/net/tst_graphite_parser.cpp):
//  - A trailing '\r' is stripped; an empty line, or one of only spaces and tabs, is Empty
//    (skipped, not bad).
//  - Exactly three fields separated by runs of spaces or tabs (leading and trailing blanks
//    allowed). path is the key.
//  - value is the number of hits: a finite number >= 0, rounded to the nearest integer
//    (halves away from zero, saturating).
//  - timestamp is whole unix seconds, or -1 for "now".
//  - Anything else is Bad: fewer or more fields, a non-numeric or negative value, a
//    fractional, negative (other than -1) or non-numeric timestamp.
//
// Examples:
//   "pages.home 3 1700000000"  -> Hit pages.home, 3 hits at 1700000000
//   "pages.home 1 -1"          -> Hit pages.home, 1 hit, now
//   "pages.home 1"             -> Bad "expected three fields: path value timestamp"
#pragma once

#include <string_view>

#include "core/net/parsed_line.h"

namespace hitcounter {

ParsedLine parseGraphiteLine(std::string_view line);

}  // namespace hitcounter
