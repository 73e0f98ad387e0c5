// The value types every layer of the core shares: time in whole seconds, hit counts, and the
// default window. They live at the bottom layer (core/base) so that clocks, parsers, sources
// and counters can name a second or a count without depending on each other.
//
//  - Timestamp: whole seconds (0 <= t < 2^62 for the counters), unix time for live sources,
//    trace time for replay.
//  - Count: 64-bit hit counts; sums saturate at UINT64_MAX (see saturating.h), never wrap.
//  - kDefaultWindow: the monitor's window W, the half-open interval (t - 300 s, t].
#pragma once

#include <chrono>
#include <cstdint>

namespace hitcounter {

using Timestamp = std::int64_t;  // whole seconds
using Count = std::uint64_t;

inline constexpr std::chrono::seconds kDefaultWindow{300};

}  // namespace hitcounter
