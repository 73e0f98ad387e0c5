// FleetReader: what the fleet counted, read back from Redis (query), and the rebuild of the
// counting keys from the instances' logs.
//
// Not thread-safe (uses one RedisClient: one server or a Redis Cluster). Every read is a few
// pipelined round trips, independent of the hit rate. Throws RedisError when Redis fails or answers
// unexpectedly. Window semantics: hits with a time in (now - window, now], like the counters in
// core/.
// - window <= kExactWindowSeconds: exact, from the per-second hashes.
// - longer windows (up to kMaxQueryWindow): from the per-minute hashes, whole minutes: the
//   oldest minute touched by the window counts whole (exact == false).
// - uniques: HyperLogLog over the minutes the window touches (minute granularity,
//   0.81 % standard error).
// - hot items (hotShardsKey): counts, instances and uniques sum the item and its sub-items;
//   the sub-items' HyperLogLogs live in other slots, so they are merged in temporary keys of
//   the item's own slot (hc:{ITEM}:tmp:..., 60 s expiry, deleted at once).
// - keys are named by the item's ItemTag (fleet_keys.h), as the sink names them: any name a
//   client sent, braces and control bytes included, is read back under that name.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/types.h"
#include "core/fleet/fleet_keys.h"
#include "core/fleet/redis_client.h"

namespace hitcounter::fleet {

struct ItemAnswer {
    std::string key;
    Count allTime = 0;
    Count window = 0;
    Timestamp windowSeconds = 0;
    bool exact = true;
    Count uniques = 0;
    std::vector<std::string> instances;  // alive (heartbeat present) and sent KEY in the window
};

struct RankedItem {
    std::string key;
    Count count = 0;
};

// One instance's heartbeat (heartbeatKey, written by every flush attempt that reaches Redis;
// it expires when the instance stops flushing, so every heartbeat found is alive).
struct InstanceHeartbeat {
    std::string name;
    std::string version;
    std::string run;
    double hitRate = 0;     // hits per second sent since its previous heartbeat
    double lastFlush = 0;   // unix seconds of the heartbeat
    double lagSeconds = 0;  // its last flush: oldest hit's arrival to the acknowledgement
    Count droppedHits = 0;  // dropped by its sink so far (0 from sinks older than the field)
};

struct RebuildResult {
    std::size_t logs = 0;     // streams read
    std::size_t entries = 0;  // log entries read
    std::size_t applied = 0;  // item/top scripts that changed Redis
    std::size_t skipped = 0;  // already applied (duplicate entries, or keys not wiped)
};

class FleetReader {
public:
    explicit FleetReader(RedisClient& client) : m_client(client) {}

    ItemAnswer item(const std::string& key, Timestamp windowSeconds, Timestamp now);
    // The k items with the most hits in the window, most first, ties by key ascending.
    // Exact: candidates come from the per-minute top-K sets of every shard (topShardsToRead,
    // summed: an upper bound of each item's window count); exact window counts are then read
    // best bound first, in rounds, until no unread item could still enter the top k.
    std::vector<RankedItem> top(std::size_t k, Timestamp windowSeconds, Timestamp now);
    // The window count of each key, as item().window (hot sub-items summed), in a few
    // pipelined round trips for all of them.
    std::vector<Count> windowCounts(const std::vector<std::string>& keys, Timestamp windowSeconds,
                                    Timestamp now);
    // Hits per second in (now - windowSeconds, now], oldest first (windowSeconds entries,
    // windowSeconds <= kExactWindowSeconds): of one item (hot sub-items summed), or of the
    // whole fleet (fleetSecondsKey, every top shard added). Exact, like item().window.
    std::vector<Count> itemSeries(const std::string& key, Timestamp windowSeconds, Timestamp now);
    std::vector<Count> fleetSeries(Timestamp windowSeconds, Timestamp now);
    // fleetSeries() without the top-K shards whose master cannot be read now (down, failing
    // over): their runs' hits are missing from `series` until it is back; `missing` names
    // those masters ("host:port"), empty when the series is the whole fleet's. Throws when no
    // master at all can be read. For the fleet view, whose total then stays live through one
    // master's outage.
    struct PartialSeries {
        std::vector<Count> series;
        std::vector<std::string> missing;
    };
    PartialSeries fleetSeriesWithout(Timestamp windowSeconds, Timestamp now);
    // item().uniques alone: distinct visitors over the minutes the window touches.
    Count uniques(const std::string& key, Timestamp windowSeconds, Timestamp now);
    // Every alive instance's heartbeat, by name.
    std::vector<InstanceHeartbeat> instances();
    // Re-applies every log entry of every instance (exactly once per flush, as live).
    RebuildResult rebuild();
    // Whether some instance's log holds a flush appended before `before` (unix seconds): what
    // a rebuild could restore of counts lost then (a log started after a restart cannot).
    bool logsReachBack(double before);
    // Deletes every counting key (kCountPattern), keeping logs and heartbeats; returns how many.
    std::size_t wipeCounts();

private:
    // Per key: the names its counts are stored under (the key, then its hot sub-items).
    std::vector<std::vector<ItemTag>> storageNames(const std::vector<std::string>& keys);
    // The per-second hashes hashOf(source, minute) of `sources` sources, added up; read on
    // `node` alone (unrouted: its keys must be in that node's slots) unless it is empty.
    std::vector<Count> secondsSeries(
        std::size_t sources, const std::function<std::string(std::size_t, Timestamp)>& hashOf,
        Timestamp windowSeconds, Timestamp now, const std::string& node = {});
    Count mergedUniques(const std::string& key, const std::vector<ItemTag>& names,
                        Timestamp windowSeconds, Timestamp now);

    RedisClient& m_client;
};

}  // namespace hitcounter::fleet
