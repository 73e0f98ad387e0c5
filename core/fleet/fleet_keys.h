// The fleet's Redis data model: key names, retention, and the time buckets (docs/redis.md).
//
// Every key of one item starts with "hc:{ITEM}:" so that all of them share one hash slot
// (Redis Cluster hashes only the text between the first '{' and the next '}'); suffixes never
// contain '}', so two items never share a key. Pure functions, thread-safe.
//   secondsKey("g.hits", 28000000) == "hc:{g.hits}:s:28000000"  (hash: second % 60 -> hits)
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/types.h"

namespace hitcounter::fleet {

// Redis integers are signed 64-bit: a count sent to Redis is clamped here.
inline constexpr Count kRedisMaxCount = Count(std::numeric_limits<std::int64_t>::max());

// The largest window answered exactly from per-second counts; longer windows (up to
// kMaxQueryWindow) are answered from per-minute counts (whole minutes).
inline constexpr Timestamp kExactWindowSeconds = 600;
inline constexpr Timestamp kMaxQueryWindow = 3600;
// How long past its minute a per-second hash lives (a little over kExactWindowSeconds).
inline constexpr Timestamp kSecondsRetention = kExactWindowSeconds + 60;
// How long past its minute a per-minute count, an HLL or a top-K set lives (over an hour).
inline constexpr Timestamp kMinutesRetention = kMaxQueryWindow + 300;
// How long an applied flush sequence is remembered per item (retries never come later).
inline constexpr Timestamp kGuardRetention = 2 * 3600;

constexpr Timestamp floorDiv(Timestamp t, Timestamp d) {
    return t >= 0 ? t / d : -((-t + d - 1) / d);
}
constexpr Timestamp minuteOf(Timestamp second) {
    return floorDiv(second, 60);
}
constexpr Timestamp hourOfMinute(Timestamp minute) {
    return floorDiv(minute, 60);
}

std::string itemPrefix(std::string_view item);                    // "hc:{ITEM}:"
std::string secondsKey(std::string_view item, Timestamp minute);  // hash second%60 -> hits
std::string minutesKey(std::string_view item, Timestamp hour);    // hash minute%60 -> hits
std::string uniquesKey(std::string_view item, Timestamp minute);  // HyperLogLog of visitors
std::string totalKey(std::string_view item);                      // all-time hits
std::string instancesKey(std::string_view item);  // zset instance -> last flush (unix s)
std::string itemGuardKey(std::string_view item, std::string_view instance, std::string_view run);

// The fleet top-K is spread over kTopShards slots so that no single node takes every top-K
// write: each run of an instance writes its per-minute top sets, its share of the fleet's
// per-second total and its guard under the shard topShardOf(run) (tag "top:K"); readers read
// every shard plus kLegacyTopShard (tag "top", written by sinks before the split) and add
// them up, so a rolling upgrade stays exact.
//   topKey(3, 28000000) == "hc:{top:3}:m:28000000"; topKey(kLegacyTopShard, m) == "hc:{top}:m:M"
inline constexpr int kTopShards = 16;
inline constexpr int kLegacyTopShard = -1;
int topShardOf(std::string_view run);  // CRC16 of the run id mod kTopShards
// kLegacyTopShard, 0, 1, ..., kTopShards - 1: every shard a reader must add up.
std::vector<int> topShardsToRead();
std::string topKey(int shard, Timestamp minute);  // zset item -> that run's hits in the minute
// The guard of the top-K script, in the run's shard: "hc:{top:K}:g:INSTANCE:RUN".
std::string topGuardKey(std::string_view instance, std::string_view run);
// The fleet's hits per second, all items together, as written by the runs of one shard: hash
// second % 60 -> hits, written by the top-K script (same slot, same guard),
// "hc:{top:K}:s:MINUTE". The sum over topShardsToRead() is the whole fleet's (the fleet view).
std::string fleetSecondsKey(int shard, Timestamp minute);
std::string logKey(std::string_view instance);        // stream of flushes, "hc:log:{INSTANCE}"
std::string heartbeatKey(std::string_view instance);  // hash, "hc:instance:{INSTANCE}"

// Hot items (docs/redis.md): an instance may write a hot ITEM's counts under the sub-item
// hotSubItem(ITEM, k), 0 <= k < N, whose keys hash to another slot; hotShardsKey(ITEM) (in
// the item's own slot, no expiry) holds the largest N any instance used, and readers sum the
// item and its N sub-items. The separator is the unit separator byte \x1f, which item names
// in practice never contain.
std::string hotSubItem(std::string_view item, int shard);  // "ITEM\x1fK"
std::string hotShardsKey(std::string_view item);           // "hc:{ITEM}:hot"
// The item's write rate and split state, kept by the scripts of flush_commands.h (hash:
// s = unix second, n = writes counted in it, c = start of the current cool streak, a = the
// split agreed now, 0 = not split), "hc:{ITEM}:heat".
std::string heatKey(std::string_view item);

inline constexpr std::string_view kLogPattern = "hc:log:*";
// Every counting key (items and top-K) but not the logs and heartbeats: what a wipe test
// deletes and `rebuild` restores.
inline constexpr std::string_view kCountPattern = "hc:{*";
inline constexpr std::string_view kLogPrefix = "hc:log:{";
inline constexpr std::string_view kHeartbeatPrefix = "hc:instance:{";

}  // namespace hitcounter::fleet
