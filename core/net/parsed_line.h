// ParsedLine: what one line of a wire protocol (statsd, Graphite plaintext) means for the
// counter, and the number rules both protocols share.
//
// Threading: pure functions over their arguments; safe from any thread.
//
// A parser looks at one line (no '\n'; a trailing '\r' is stripped by the parser) and returns
// one of four verdicts:
//   Empty    the line is empty: skipped, counted nowhere
//   Hit      `hits` hits for `key`, at `time` (nullopt = "now", the receiver's clock); a
//            statsd timer is a hit that also measured `seconds` (HitEvent::seconds)
//   Ignored  well-formed but not a hit (a statsd gauge, histogram, set, ...)
//   Bad      malformed; `problem` says what is wrong in a few words
// `key` and `tags` view into the parsed line: copy them before the line's buffer goes away.
//
// Example: parseStatsdLine("home:3|c|@0.5") == {Hit, key "home", hits 6, time nullopt}.
#pragma once

#include <optional>
#include <string_view>

#include "core/base/hit_event.h"
#include "core/base/types.h"

namespace hitcounter {

enum class LineVerdict { Empty, Hit, Ignored, Bad };

struct ParsedLine {
    LineVerdict verdict = LineVerdict::Empty;
    std::string_view key;
    Count hits = 0;
    std::optional<Timestamp> time;  // nullopt: the hit happens "now"
    std::string_view problem;       // Bad only; a static string
    std::string_view tags;          // statsd Hit: the text after '#' ("env:prod,canary"), or ""
    float seconds = -1.0f;          // a statsd timer's time in seconds; negative: none

    static ParsedLine bad(std::string_view why) { return {LineVerdict::Bad, {}, 0, {}, why, {}}; }
    static ParsedLine ignored() { return {LineVerdict::Ignored, {}, 0, {}, {}, {}}; }
};

enum class WireProtocol { Statsd, Graphite };

// Dispatches to parseStatsdLine or parseGraphiteLine.
ParsedLine parseLine(WireProtocol protocol, std::string_view line);

// "statsd" or "graphite".
std::string_view protocolName(WireProtocol protocol);

// Strips one trailing '\r'.
std::string_view withoutCarriageReturn(std::string_view line);

// A hit count from a decimal number: the whole text must be a finite number >= 0
// (std::from_chars syntax: "3", "2.5", "1e3"; no sign, no spaces). Divided by `rate`,
// rounded to the nearest integer (halves away from zero), saturating at UINT64_MAX.
// A whole number without a rate is exact up to UINT64_MAX ("9007199254740993" is that many,
// not the nearest double). A number too small for a double ("1e-400") is finite and rounds to 0;
// one too large for it
// ("1e400") saturates. nullopt if the text is not such a number.
std::optional<Count> parseHitValue(std::string_view text, double rate = 1.0);

// Whole unix seconds: one or more decimal digits, no sign, at most 2^62 - 1.
std::optional<Timestamp> parseUnixSeconds(std::string_view text);

}  // namespace hitcounter
