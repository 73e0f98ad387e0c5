#include "core/fleet/fleet_keys.h"

#include "core/fleet/redis_client.h"

namespace hitcounter::fleet {

namespace {

std::string tagged(std::string_view prefix, std::string_view tag, std::string_view suffix) {
    std::string key;
    key.reserve(prefix.size() + tag.size() + suffix.size() + 2);
    key.append(prefix).append("{").append(tag).append("}").append(suffix);
    return key;
}

// "hc:{top}:" (the legacy shard) or "hc:{top:K}:".
std::string topPrefix(int shard) {
    return shard == kLegacyTopShard ? std::string("hc:{top}:")
                                    : tagged("hc:", "top:" + std::to_string(shard), ":");
}

}  // namespace

std::string itemPrefix(std::string_view item) {
    return tagged("hc:", item, ":");
}
std::string secondsKey(std::string_view item, Timestamp minute) {
    return itemPrefix(item) + "s:" + std::to_string(minute);
}
std::string minutesKey(std::string_view item, Timestamp hour) {
    return itemPrefix(item) + "m:" + std::to_string(hour);
}
std::string uniquesKey(std::string_view item, Timestamp minute) {
    return itemPrefix(item) + "u:" + std::to_string(minute);
}
std::string totalKey(std::string_view item) {
    return itemPrefix(item) + "total";
}
std::string instancesKey(std::string_view item) {
    return itemPrefix(item) + "inst";
}
std::string itemGuardKey(std::string_view item, std::string_view instance, std::string_view run) {
    return itemPrefix(item) + "g:" + std::string(instance) + ":" + std::string(run);
}
int topShardOf(std::string_view run) {
    return int(crc16(run) % unsigned(kTopShards));
}
std::vector<int> topShardsToRead() {
    std::vector<int> shards{kLegacyTopShard};
    for (int shard = 0; shard < kTopShards; ++shard)
        shards.push_back(shard);
    return shards;
}
std::string topKey(int shard, Timestamp minute) {
    return topPrefix(shard) + "m:" + std::to_string(minute);
}
std::string fleetSecondsKey(int shard, Timestamp minute) {
    return topPrefix(shard) + "s:" + std::to_string(minute);
}
std::string topGuardKey(std::string_view instance, std::string_view run) {
    return topPrefix(topShardOf(run)) + "g:" + std::string(instance) + ":" + std::string(run);
}
std::string logKey(std::string_view instance) {
    return tagged("hc:log:", instance, "");
}
std::string heartbeatKey(std::string_view instance) {
    return tagged("hc:instance:", instance, "");
}

std::string hotSubItem(std::string_view item, int shard) {
    return std::string(item) + "\x1f" + std::to_string(shard);
}
std::string hotShardsKey(std::string_view item) {
    return itemPrefix(item) + "hot";
}
std::string heatKey(std::string_view item) {
    return itemPrefix(item) + "heat";
}

}  // namespace hitcounter::fleet
