// FleetSimulation: a fleet of independent instances on this machine, fed the design's traffic
// (FleetTraffic), flushing into one Redis or Redis Cluster, and what that cost: writes per key
// and per node, commands per flush, flush lag, and the count read back against what was sent
// (fleet-sim, docs/redis.md "Fleet simulation").
//
// Each instance is a RedisSink of its own (its own RedisClient and connections, run id,
// aggregation, flush thread and schedule; the first flushes are staggered over one flush
// interval); they share nothing but Redis. One generator thread (the caller's) spreads the
// hits over them every 10 ms, stamped with the wall clock's second. After `duration` (or when
// `stopRequested` says so) the traffic ends, every instance's last hits go out with its next
// scheduled flush (so the stop adds no extra write), the sinks stop, and the run's keys are
// read back with FleetReader over the run's seconds (exact: at most kExactWindowSeconds).
//
// Not thread-safe: run() once per object, on one thread. Throws std::invalid_argument for bad
// options, RedisError when Redis cannot be reached at the start or for the read-back.
// Example:
//   FleetSimulation sim({.url = parseRedisUrl("redis://127.0.0.1:7000"),
//                        .traffic = {.instances = 200, .rate = 35000, .viralKey = "viral",
//                                    .viralRate = 10000}});
//   FleetSimReport r = sim.run(); r.globalCount == r.sent;
#pragma once

#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/fleet/fleet_reader.h"
#include "core/fleet/fleet_traffic.h"
#include "core/fleet/flush_tally.h"
#include "core/fleet/redis_url.h"

namespace hitcounter::fleet {

struct FleetSimOptions {
    RedisUrl url;
    FleetTrafficOptions traffic;
    std::chrono::seconds duration{10};  // 1 .. kMaxDuration
    std::chrono::milliseconds flushInterval{1000};
    int hotShards = 16;  // 0: never split
    double hotWrites = 100;
    std::chrono::seconds hotCoolFor{30};
    std::set<std::string> hotPinned;
    std::string instancePrefix = "sim";  // instances are PREFIX-1 .. PREFIX-N
    std::size_t topK = 10;
};

// What one Redis node did during the run (INFO, before and after).
struct NodeLoad {
    std::string address;
    std::string role;           // "master" or "replica"
    std::uint64_t calls = 0;    // commands it executed (INFO commandstats; scripts' calls too)
    double cpuSeconds = 0;      // its main thread's CPU (used_cpu_sys/user_main_thread)
    NodeCommandStats commands;  // what the instances sent it (FlushTally)
};

struct FleetSimProgress {
    double elapsedSeconds = 0;
    Count sent = 0;
    std::uint64_t flushes = 0;
};

struct FleetSimReport {
    int instances = 0;
    double wallSeconds = 0;                     // the traffic's own length
    Timestamp firstSecond = 0, lastSecond = 0;  // the hits' seconds
    Count sent = 0;                             // hits handed to the instances
    Count acknowledged = 0;                     // hits the instances' sinks had acknowledged
    Count dropped = 0;                          // hits the sinks dropped
    Count globalCount = 0;                      // read back: every key's window count, summed
    Count fleetTotal = 0;                       // read back: the fleet's per-second total, summed
    std::uint64_t retries = 0;
    // Flush parts acknowledged before a replica had them (a failover then loses them) and
    // MOVED redirects (a failover or a resharding happened): why a count can come back short.
    std::uint64_t unreplicatedAcks = 0;
    std::uint64_t moved = 0;
    TallySummary tally;
    std::vector<NodeLoad> nodes;       // every node: masters first
    double nodeBalance = 0;            // busiest master's commands / quietest's
    double settledNodeBalance = 0;     // the same over TallySummary::settledFrom on; 0: none
    std::vector<RankedItem> truthTop;  // the top K by what was sent (ties by key)
    std::vector<RankedItem> readTop;   // FleetReader::top over the run's seconds
    std::string viralKey;
    Count viralSent = 0, viralRead = 0;
    std::size_t viralUniques = 0;  // exact distinct visitors sent
    Count viralUniquesRead = 0;    // HyperLogLog over the run's minutes
    bool cluster = false;
};

class FleetSimulation {
public:
    static constexpr std::chrono::seconds kMaxDuration{540};

    // Throws std::invalid_argument naming a bad option.
    explicit FleetSimulation(FleetSimOptions options);

    FleetSimReport run(const std::function<void(const FleetSimProgress&)>& progress = {},
                       const std::function<bool()>& stopRequested = {});

private:
    FleetSimOptions m_options;
};

}  // namespace hitcounter::fleet
