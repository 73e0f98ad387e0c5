// The fleet's Redis data model: key names, retention, and the time buckets (docs/redis.md).
//
// Every key of one item starts with "hc:{TAG}:" where TAG is the item's ItemTag, so that all
// of them share one hash slot (Redis Cluster hashes only the text between the first '{' and
// the next '}'); tags and suffixes never contain '}', so no byte of a client's item name can
// move a key to another slot or make two items share a key. Pure functions, thread-safe.
//   secondsKey("g.hits", 28000000) == "hc:{g.hits}:s:28000000"  (hash: second % 60 -> hits)
//   totalKey("}x") == "hc:{\x1e7Dx}:total"                       ('}' escaped in the tag)
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// What stands between the braces of an item's keys: the item's name with the three bytes
// 0x1E, 0x1F and '}' written as 0x1E and two upper-case hex digits ("}x" -> "\x1e7Dx"), and
// the first byte of "top" and "top:..." too (the top-K shards' tags: "top:3" ->
// "\x1e74op:3"); or a hot item's sub-item (hotSubItem: a tag, 0x1F, a shard number). Every
// other name is its own tag, so the keys of plain names are those of older versions. A
// client's name never yields a raw 0x1F (the sub-item separator), a '}' (the end of the hash
// tag) or a top-K shard's tag.
// Constructed implicitly from a name (encoded); fromTag() takes text that already is a tag
// (a sub-item recorded in a log entry).
class ItemTag {
public:
    ItemTag(std::string_view item);  // NOLINT(google-explicit-constructor): names are tags
    ItemTag(const std::string& item) : ItemTag(std::string_view(item)) {}
    ItemTag(const char* item) : ItemTag(std::string_view(item)) {}
    static ItemTag fromTag(std::string tag);

    const std::string& text() const { return m_text; }
    bool operator==(const ItemTag&) const = default;

private:
    struct Encoded {};
    ItemTag(std::string text, Encoded) : m_text(std::move(text)) {}
    std::string m_text;
};

std::string itemPrefix(const ItemTag& item);                    // "hc:{TAG}:"
std::string secondsKey(const ItemTag& item, Timestamp minute);  // hash second%60 -> hits
std::string minutesKey(const ItemTag& item, Timestamp hour);    // hash minute%60 -> hits
std::string uniquesKey(const ItemTag& item, Timestamp minute);  // HyperLogLog of visitors
std::string totalKey(const ItemTag& item);                      // all-time hits
std::string instancesKey(const ItemTag& item);  // zset instance -> last flush (unix s)
std::string itemGuardKey(const ItemTag& item, std::string_view instance, std::string_view run);

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
// item and its N sub-items. The separator is the unit separator byte \x1f, which an item's
// tag never contains (ItemTag), so no client's name can be taken for a sub-item.
ItemTag hotSubItem(std::string_view item, int shard);  // tag "TAG\x1fK"
// The shard K of a sub-item's tag, or nullopt if `tag` is not one.
std::optional<int> subItemShard(const ItemTag& tag);
std::string hotShardsKey(const ItemTag& item);  // "hc:{TAG}:hot"
// The item's write rate and split state, kept by the scripts of flush_commands.h (hash:
// s = unix second, n = writes counted in it, c = start of the current cool streak, a = the
// split agreed now, 0 = not split), "hc:{ITEM}:heat".
std::string heatKey(const ItemTag& item);

inline constexpr std::string_view kLogPattern = "hc:log:*";
// Every counting key (items and top-K) but not the logs and heartbeats: what a wipe test
// deletes and `rebuild` restores.
inline constexpr std::string_view kCountPattern = "hc:{*";
inline constexpr std::string_view kLogPrefix = "hc:log:{";
inline constexpr std::string_view kHeartbeatPrefix = "hc:instance:{";

}  // namespace hitcounter::fleet
