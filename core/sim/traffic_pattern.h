// Traffic patterns: the shape of the simulated hit rate over time, by name.
//
// Pure functions of (pattern, base rate, seed, period, second): thread-safe, no state, so
// any second can be computed on its own (the simulator and `gen` need no history).
//
//   steady   exactly `rate` hits every second (a fractional rate is met on average)
//   poisson  Poisson-distributed counts with mean `rate`
//   burst    Poisson at `rate`, plus once per period (default 60 s) a spike of 2-5 s at
//            5-10x the rate, placed at random in the period
//   diurnal  Poisson with mean rate * (1 - 0.8 cos(2 pi phase)): a slow rise and fall over
//            the period (default 86400 s, a day: lowest at phase 0, i.e. 00:00 UTC for unix
//            times, highest at noon). Mean over a period = rate.
//   viral    Poisson at `rate` over all keys, plus once per period (default 600 s) one key
//            (picked from the less popular half) spikes: its extra rate rises linearly to
//            5x the rate over 20 s, then decays with a 60 s time constant.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/base/types.h"

namespace hitcounter {

enum class TrafficPattern { Steady, Poisson, Burst, Diurnal, Viral };

// "steady", "poisson", "burst", "diurnal", "viral" (in that order).
std::span<const std::string_view> trafficPatternNames();
std::string_view trafficPatternName(TrafficPattern pattern);
std::optional<TrafficPattern> trafficPatternFromName(std::string_view name);

// The pattern's default period (burst 60 s, diurnal 86400 s, viral 600 s; 0 for the others).
std::chrono::seconds defaultPeriod(TrafficPattern pattern);

// The rate shape of second t. `base` is the expected hits spread over all keys; `viralExtra`
// the expected extra hits of `viralKey` (viral only, else 0). `keys` is needed to pick the
// viral key.
struct RateShape {
    double base = 0;
    double viralExtra = 0;
    std::uint32_t viralKey = 0;
};
RateShape rateShape(TrafficPattern pattern, double rate, std::uint64_t seed,
                    std::chrono::seconds period, std::uint32_t keys, Timestamp t);

}  // namespace hitcounter
