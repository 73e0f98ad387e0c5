// FleetTraffic: the hits a fleet of web servers receives, in the shape of the scale-out design
// fleet mode follows (docs/redis.md, "Fleet simulation"): `rate` hits per second in all, of
// which `viralRate` go to one viral key and the rest to a catalogue of `items` keys with Zipf
// popularity (exponent `zipf`; key PREFIX1 the most popular); a load balancer sends each hit to
// one of `instances` servers chosen uniformly, and each hit carries a visitor drawn uniformly
// from `visitors` ("v0" .. ).
//
// Not thread-safe: one generator thread. Deterministic for a seed: the n-th hit drawn is always
// the same. Hits are spread evenly in time: advanceTo(T) draws the hits due by T seconds into
// the traffic, so that floor(rate * T) hits were drawn in all.
// It also keeps the ground truth: hits per key, and the exact distinct visitors of the viral
// key (the run's uniques, to check the HyperLogLog against).
// Cost: O(log items) per hit; memory: the Zipf table, the key names and the viral visitors.
// Example: FleetTraffic t({.instances = 2, .rate = 4, .items = 1}); t.advanceTo(1, 100, batches)
//          -> 4 hits of second 100 on "sim.1", split between batches[0] and batches[1].
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/base/hit_event.h"
#include "core/sim/random.h"
#include "core/sim/zipf.h"

namespace hitcounter::fleet {

struct FleetTrafficOptions {
    int instances = 200;                 // 1 .. kMaxInstances
    double rate = 35000;                 // hits per second, all keys, 0 .. kMaxRate
    std::string viralKey{};              // empty: no viral key (viralRate must be 0)
    double viralRate = 0;                // of `rate`, 0 .. rate
    std::uint32_t items = 1000;          // the catalogue, 1 .. kMaxItems
    double zipf = 1.0;                   // popularity exponent of the catalogue, 0 .. 10
    std::uint32_t visitors = 1'000'000;  // 1 .. 2^32 - 1
    std::string prefix = "sim.";         // catalogue keys are PREFIX1 .. PREFIX<items>
    std::uint64_t seed = 1;
};

class FleetTraffic {
public:
    static constexpr int kMaxInstances = 10000;
    static constexpr double kMaxRate = 1e7;
    static constexpr std::uint32_t kMaxItems = 1'000'000;

    // Throws std::invalid_argument naming the option and the allowed range.
    explicit FleetTraffic(const FleetTrafficOptions& options);

    // Draws the hits due by `position` seconds into the traffic (positions never go back),
    // all stamped `second`, appending each to the batch of its instance (`perInstance` is
    // resized to `instances`).
    void advanceTo(double position, Timestamp second, std::vector<HitBatch>& perInstance);

    const FleetTrafficOptions& options() const { return m_options; }
    // Every key the traffic can hit: the catalogue, then the viral key (if any).
    const std::vector<std::string>& keys() const { return m_keys; }
    Count sent() const { return m_sent; }
    // Hits drawn per key (keys never hit are absent).
    std::map<std::string, Count> sentPerKey() const;
    Count viralSent() const { return m_viralSent; }
    std::size_t viralUniques() const { return m_viralVisitors.size(); }

private:
    FleetTrafficOptions m_options;
    sim::ZipfTable m_zipf;
    sim::Random m_random;
    std::vector<std::string> m_keys;
    std::vector<Count> m_sentPerItem;  // by catalogue rank
    Count m_viralSent = 0;
    Count m_sent = 0;
    std::unordered_set<std::uint32_t> m_viralVisitors;
};

}  // namespace hitcounter::fleet
