#include "core/sim/traffic_pattern.h"

#include <array>
#include <cmath>
#include <numbers>

#include "core/sim/random.h"

namespace hitcounter {

namespace {
constexpr std::array<std::string_view, 5> kNames = {"steady", "poisson", "burst", "diurnal",
                                                    "viral"};

// Separate random streams so that, e.g., the burst placement does not move when the count
// draws of a second change.
constexpr std::uint64_t kBurstStream = 0xB0B5;
constexpr std::uint64_t kViralStream = 0x7123;

// Floor division: periods of negative times must not straddle zero.
std::int64_t periodIndex(Timestamp t, std::int64_t period) {
    return t >= 0 ? t / period : -((-t + period - 1) / period);
}
}  // namespace

std::span<const std::string_view> trafficPatternNames() {
    return kNames;
}

std::string_view trafficPatternName(TrafficPattern pattern) {
    return kNames[static_cast<std::size_t>(pattern)];
}

std::optional<TrafficPattern> trafficPatternFromName(std::string_view name) {
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (kNames[i] == name) {
            return static_cast<TrafficPattern>(i);
        }
    }
    return std::nullopt;
}

std::chrono::seconds defaultPeriod(TrafficPattern pattern) {
    switch (pattern) {
        case TrafficPattern::Burst:
            return std::chrono::seconds(60);
        case TrafficPattern::Diurnal:
            return std::chrono::seconds(86400);
        case TrafficPattern::Viral:
            return std::chrono::seconds(600);
        case TrafficPattern::Steady:
        case TrafficPattern::Poisson:
            break;
    }
    return std::chrono::seconds(0);
}

RateShape rateShape(TrafficPattern pattern, double rate, std::uint64_t seed,
                    std::chrono::seconds period, std::uint32_t keys, Timestamp t) {
    if (period.count() <= 0) {
        period = defaultPeriod(pattern);
    }
    const std::int64_t p = std::max<std::int64_t>(period.count(), 1);
    const std::int64_t index = periodIndex(t, p);
    const std::int64_t offset = t - index * p;
    RateShape shape{rate, 0, 0};
    switch (pattern) {
        case TrafficPattern::Steady:
        case TrafficPattern::Poisson:
            break;
        case TrafficPattern::Burst: {
            sim::Random random(sim::mixSeed(seed, static_cast<std::uint64_t>(index), kBurstStream));
            const std::int64_t length = 2 + random.below(4);
            const std::int64_t start =
                random.below(static_cast<std::uint32_t>(std::max<std::int64_t>(p - length, 1)));
            const double multiplier = 5.0 + 5.0 * random.uniform();
            if (offset >= start && offset < start + length) {
                shape.base = rate * multiplier;
            }
            break;
        }
        case TrafficPattern::Diurnal: {
            const double phase = static_cast<double>(offset) / static_cast<double>(p);
            shape.base = rate * (1.0 - 0.8 * std::cos(2.0 * std::numbers::pi * phase));
            break;
        }
        case TrafficPattern::Viral: {
            sim::Random random(sim::mixSeed(seed, static_cast<std::uint64_t>(index), kViralStream));
            const std::uint32_t half = keys / 2;
            shape.viralKey = half + random.below(keys - half);
            const std::int64_t start =
                random.below(static_cast<std::uint32_t>(std::max<std::int64_t>(p / 2, 1)));
            const double since = static_cast<double>(offset - start);
            if (since >= 0) {
                constexpr double kRise = 20.0;
                constexpr double kDecay = 60.0;
                shape.viralExtra = since < kRise ? 5.0 * rate * since / kRise
                                                 : 5.0 * rate * std::exp(-(since - kRise) / kDecay);
            }
            break;
        }
    }
    return shape;
}

}  // namespace hitcounter
