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

constexpr char kEscape = '\x1e';
constexpr char kSubItemSeparator = '\x1f';

bool needsEscape(char c) {
    return c == kEscape || c == kSubItemSeparator || c == '}';
}

// The top-K shards' tags are "top" and "top:K": an item of that name starts escaped.
bool isTopShardTag(std::string_view item) {
    return item == "top" || item.starts_with("top:");
}

}  // namespace

ItemTag::ItemTag(std::string_view item) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    m_text.reserve(item.size());
    for (std::size_t i = 0; i < item.size(); ++i) {
        const char c = item[i];
        if (!needsEscape(c) && !(i == 0 && isTopShardTag(item))) {
            m_text.push_back(c);
            continue;
        }
        const auto byte = static_cast<unsigned char>(c);
        m_text.push_back(kEscape);
        m_text.push_back(kHex[byte >> 4]);
        m_text.push_back(kHex[byte & 0xF]);
    }
}

ItemTag ItemTag::fromTag(std::string tag) {
    return ItemTag(std::move(tag), Encoded{});
}

std::string itemPrefix(const ItemTag& item) {
    return tagged("hc:", item.text(), ":");
}
std::string secondsKey(const ItemTag& item, Timestamp minute) {
    return itemPrefix(item) + "s:" + std::to_string(minute);
}
std::string minutesKey(const ItemTag& item, Timestamp hour) {
    return itemPrefix(item) + "m:" + std::to_string(hour);
}
std::string uniquesKey(const ItemTag& item, Timestamp minute) {
    return itemPrefix(item) + "u:" + std::to_string(minute);
}
std::string totalKey(const ItemTag& item) {
    return itemPrefix(item) + "total";
}
std::string instancesKey(const ItemTag& item) {
    return itemPrefix(item) + "inst";
}
std::string itemGuardKey(const ItemTag& item, std::string_view instance, std::string_view run) {
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

ItemTag hotSubItem(std::string_view item, int shard) {
    return ItemTag::fromTag(ItemTag(item).text() + kSubItemSeparator + std::to_string(shard));
}
std::optional<int> subItemShard(const ItemTag& tag) {
    const std::string& text = tag.text();
    const auto separator = text.rfind(kSubItemSeparator);
    if (separator == std::string::npos || separator + 1 == text.size() ||
        text.size() - separator > 5)
        return std::nullopt;
    int shard = 0;
    for (const char c : text.substr(separator + 1)) {
        if (c < '0' || c > '9')
            return std::nullopt;
        shard = shard * 10 + (c - '0');
    }
    return shard;
}
std::string hotShardsKey(const ItemTag& item) {
    return itemPrefix(item) + "hot";
}
std::string heatKey(const ItemTag& item) {
    return itemPrefix(item) + "heat";
}

}  // namespace hitcounter::fleet
