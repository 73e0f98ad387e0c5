// TrafficModel: deterministic simulated traffic. For a seed, the events of any second are
// always the same, computed on their own (no history), so `gen` can write a trace second by
// second and the simulator can change rate or pattern at any moment.
//
// Threading: not thread-safe to mutate (setRate, setPattern); the const calls may run
// concurrently with each other. SimulatorSource guards its model with a mutex.
//
// Events of second t (eventsAt):
//  - the number of hits follows the pattern (see traffic_pattern.h);
//  - each hit gets a key drawn with Zipf popularity over `keys` keys, named "/page/1" (the
//    most popular) .. "/page/K", and a visitor drawn uniformly from "v1" .. "vV";
//  - with jitter J > 0 s, a fraction (jitterFraction) of the hits carry a time 1..J s before
//    t (but not before second 0): they arrive late, as from a client that buffers;
//  - hits with the same (time, key, visitor) are merged into one HitEvent with count > 1.
//    Above maxEventsPerSecond hits in a second, the model draws only that many (key,
//    visitor) samples and spreads the second's hits evenly over them, so 10^7 hits/s cost
//    about maxEventsPerSecond draws per second; the sum of counts is always the exact
//    number of hits of the second.
//  - events come sorted by (time, key rank, visitor), so late ones come first.
//
// Cost: O(m log m + m log K) per second, m = min(hits, maxEventsPerSecond). Memory: the
// Zipf table and the key names, O(K).
//
// Example: TrafficModel m({.pattern = TrafficPattern::Steady, .rate = 3, .keys = 1,
//                          .visitors = 1});
//          m.eventsAt(10) == {HitEvent{10, "/page/1", "v1", 3}}
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/hit_event.h"
#include "core/sim/traffic_pattern.h"
#include "core/sim/zipf.h"

namespace hitcounter {

struct TrafficOptions {
    TrafficPattern pattern = TrafficPattern::Steady;
    double rate = 100.0;            // hits per second (the base rate), 0 .. kMaxRate
    std::uint32_t keys = 100;       // 1 .. kMaxKeys
    std::uint32_t visitors = 1000;  // 1 .. 2^32-1
    std::uint64_t seed = 1;
    double zipfExponent = 1.0;                // >= 0; 0 = every key equally popular
    std::chrono::seconds period{0};           // 0 = the pattern's default period
    std::chrono::seconds jitter{0};           // the largest lateness; 0 = every hit on time
    double jitterFraction = 0.1;              // 0 .. 1, used when jitter > 0
    std::uint32_t maxEventsPerSecond = 1024;  // >= 1
};

class TrafficModel {
public:
    static constexpr double kMaxRate = 1e7;
    static constexpr std::uint32_t kMaxKeys = 1'000'000;

    // Throws std::invalid_argument naming the option and the allowed range.
    explicit TrafficModel(const TrafficOptions& options);

    const TrafficOptions& options() const { return m_options; }
    // Take effect from the next second computed. Throw like the constructor.
    void setRate(double rate);
    void setPattern(TrafficPattern pattern);

    // The expected hits of second t (the pattern's curve, before random noise).
    double expectedHitsAt(Timestamp t) const;

    HitBatch eventsAt(Timestamp t) const;
    void appendEventsAt(Timestamp t, HitBatch& out) const;

    const std::string& keyName(std::uint32_t rank) const { return m_keyNames[rank]; }
    static std::string visitorName(std::uint32_t index);

private:
    struct Sample {
        Timestamp time;
        std::uint32_t key;
        std::uint32_t visitor;
        Count count;
    };
    // Draws min(hits, budget) samples standing for `hits` hits in total; key < 0 draws
    // from the Zipf table, else every sample gets that key.
    void drawSamples(sim::Random& random, Timestamp t, Count hits, std::uint32_t budget,
                     std::int64_t key, std::vector<Sample>& out) const;

    TrafficOptions m_options;
    sim::ZipfTable m_zipf;
    std::vector<std::string> m_keyNames;
};

}  // namespace hitcounter
