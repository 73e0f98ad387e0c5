#include "core/fleet/flush_commands.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "core/fleet/fleet_keys.h"

namespace hitcounter::fleet {

namespace {

// The write-rate bookkeeping shared by the item script and the heat script (HotDetection in
// flush_commands.h): counts `weight` writes in the current second of Redis' clock, judges
// the last complete second when a new one starts, splits or merges, and returns the split
// agreed now (0: not split). Hash fields: s second, n writes in s, c start of the current
// cool streak (0: none), a the agreed N. `hot` (the readers' record, hotShardsKey) is raised
// to `wanted` (the N the caller writes under) by a forced split or an announce, even if the
// split was lifted meanwhile; nil in the item script, which declares only the keys
// that exist once the item was written (a multi-key script on a migrating slot needs all its
// keys on one side, or it is answered TRYAGAIN).
constexpr const char* kHeatFunction = R"lua(
local function heat(hot, rate, weight, threshold, wanted, force, announce, coolFor)
  local now = tonumber(redis.call('TIME')[1])
  local r = redis.call('HMGET', rate, 's', 'n', 'c', 'a')
  local s, n = tonumber(r[1]) or 0, tonumber(r[2]) or 0
  local c, a = tonumber(r[3]) or 0, tonumber(r[4]) or 0
  if s ~= now then
    local last = 0
    if s == now - 1 then last = n end
    if a > 0 and last * 4 < threshold then
      if c == 0 then c = now end
    else
      c = 0
    end
    s, n = now, 0
  end
  n = n + weight
  if force == 1 or (threshold > 0 and n >= threshold) then
    c = 0
    if a == 0 then a = wanted end
  elseif a > 0 and c > 0 and now - c >= coolFor then
    a, c = 0, 0
  end
  if hot and (force == 1 or announce == 1) then
    redis.call('ZADD', hot, 'GT', math.max(a, wanted), 'shards')
  end
  redis.call('HSET', rate, 's', s, 'n', n, 'c', c, 'a', a)
  redis.call('EXPIRE', rate, coolFor + 60)
  return a
end
)lua";

// What every script checks before its first write, so that a script either applies all of
// its flush or nothing (an error after a write would keep the writes before it, the guard
// included: the rest of that flush would be lost for good). whole() raises an error for an
// argument that is not a whole number in [low, high]; count() for a hit count that is not
// 1-19 digits. add() is HINCRBY/INCRBY saturating at 2^63 - 1 instead of failing.
// kMaxExpireAt (year 33658) is far beyond any accepted time and far below what Redis refuses.
constexpr const char* kCheckFunctions = R"lua(
local kMaxExpireAt = 1000000000000
local function number(text, low, high)
  local n = tonumber(text)
  if not n or n ~= n or n < low or n > high then
    error('hitcounter: argument ' .. tostring(text) .. ' is not a number from ' .. low ..
          ' to ' .. high)
  end
  return n
end
local function whole(text, low, high)
  local n = number(text, low, high)
  if n ~= math.floor(n) then error('hitcounter: argument ' .. text .. ' is not whole') end
  return n
end
local function count(text)
  if type(text) ~= 'string' or #text > 19 or not string.match(text, '^%d+$') then
    error('hitcounter: hit count ' .. tostring(text) .. ' is not 1 to 19 digits')
  end
end
local function add(key, field, hits)
  local r
  if field then r = redis.pcall('HINCRBY', key, field, hits)
  else r = redis.pcall('INCRBY', key, hits) end
  if type(r) == 'table' and r.err then
    if not string.find(r.err, 'overflow') then error(r.err) end
    if field then redis.call('HSET', key, field, '9223372036854775807')
    else redis.call('SET', key, '9223372036854775807') end
  end
end
)lua";

// KEYS[1] guard, KEYS[2] total, KEYS[3] instances zset, KEYS[4..] data keys, then (heat on)
// the heat hash last. ARGV[1] seq, ARGV[2] instance, ARGV[3] flush time, ARGV[4] guard ttl,
// ARGV[5] total hits, ARGV[6] heat (0: off, else the writes to count), ARGV[7] writes per
// second that split, ARGV[8] N, ARGV[9] cool-for seconds, ARGV[10] n, then n x
// (secondsKeyIndex, field, expireAt, minutesKeyIndex, field, expireAt, hits), then m, then
// m x (uniquesKeyIndex, expireAt, v, visitor x v).
// Returns 0 when the sequence was already applied, else 1 + the split agreed (heat on).
constexpr const char* kItemScript = R"lua(
local big = 2 ^ 53
whole(ARGV[1], 1, big)
whole(ARGV[3], 0, kMaxExpireAt)
whole(ARGV[4], 1, 86400 * 365)
count(ARGV[5])
whole(ARGV[6], 0, big)
number(ARGV[7], 0, big)
whole(ARGV[8], 1, 1024)
whole(ARGV[9], 0, 86400 * 365)
local i = 11
for _ = 1, whole(ARGV[10], 0, #ARGV) do
  whole(ARGV[i], 4, #KEYS)
  whole(ARGV[i + 1], 0, 59)
  whole(ARGV[i + 2], 0, kMaxExpireAt)
  whole(ARGV[i + 3], 4, #KEYS)
  whole(ARGV[i + 4], 0, 59)
  whole(ARGV[i + 5], 0, kMaxExpireAt)
  count(ARGV[i + 6])
  i = i + 7
end
local groups = whole(ARGV[i], 0, #ARGV)
i = i + 1
for _ = 1, groups do
  whole(ARGV[i], 4, #KEYS)
  whole(ARGV[i + 1], 0, kMaxExpireAt)
  i = i + 3 + whole(ARGV[i + 2], 1, 4000)
end
if i ~= #ARGV + 1 then error('hitcounter: ' .. #ARGV .. ' arguments, expected ' .. i - 1) end
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) <= last then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[4])
i = 11
for _ = 1, tonumber(ARGV[10]) do
  local s = KEYS[tonumber(ARGV[i])]
  local m = KEYS[tonumber(ARGV[i + 3])]
  add(s, ARGV[i + 1], ARGV[i + 6])
  redis.call('EXPIREAT', s, ARGV[i + 2])
  add(m, ARGV[i + 4], ARGV[i + 6])
  redis.call('EXPIREAT', m, ARGV[i + 5])
  i = i + 7
end
local groups = tonumber(ARGV[i])
i = i + 1
for _ = 1, groups do
  local u = KEYS[tonumber(ARGV[i])]
  local n = tonumber(ARGV[i + 2])
  redis.call('PFADD', u, unpack(ARGV, i + 3, i + 2 + n))
  redis.call('EXPIREAT', u, ARGV[i + 1])
  i = i + 3 + n
end
add(KEYS[2], nil, ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[3]) - tonumber(ARGV[4]))
redis.call('EXPIRE', KEYS[3], ARGV[4])
local weight = tonumber(ARGV[6])
if weight == 0 then return 1 end
return 1 + heat(nil, KEYS[#KEYS], weight, tonumber(ARGV[7]), tonumber(ARGV[8]), 0, 0,
                tonumber(ARGV[9]))
)lua";

// KEYS[1] hot zset, KEYS[2] heat hash (one item's slot). ARGV[1] weight, ARGV[2] writes per
// second that split, ARGV[3] N, ARGV[4] cool-for seconds, ARGV[5] force (1: split now),
// ARGV[6] announce (1: raise the readers' record to the agreed N).
// Returns the split agreed (0: not split).
constexpr const char* kHeatScript = R"lua(
whole(ARGV[1], 0, 2 ^ 53)
number(ARGV[2], 0, 2 ^ 53)
whole(ARGV[3], 1, 1024)
whole(ARGV[4], 0, 86400 * 365)
whole(ARGV[5], 0, 1)
whole(ARGV[6], 0, 1)
return heat(KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]),
            tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[4]))
)lua";

// KEYS[1] guard, KEYS[2..] per-minute top-K sets and fleet per-second hashes. ARGV[1] seq,
// ARGV[2] guard ttl, ARGV[3] n, then n x (keyIndex, expireAt, item, hits), then m, then
// m x (keyIndex, field, expireAt, hits): the fleet's total per second (fleetSecondsKey).
constexpr const char* kTopScript = R"lua(
whole(ARGV[1], 1, 2 ^ 53)
whole(ARGV[2], 1, 86400 * 365)
local i = 4
for _ = 1, whole(ARGV[3], 0, #ARGV) do
  whole(ARGV[i], 2, #KEYS)
  whole(ARGV[i + 1], 0, kMaxExpireAt)
  count(ARGV[i + 3])
  i = i + 4
end
local seconds = whole(ARGV[i] or '0', 0, #ARGV)
i = i + 1
for _ = 1, seconds do
  whole(ARGV[i], 2, #KEYS)
  whole(ARGV[i + 1], 0, 59)
  whole(ARGV[i + 2], 0, kMaxExpireAt)
  count(ARGV[i + 3])
  i = i + 4
end
if i <= #ARGV then error('hitcounter: ' .. #ARGV .. ' arguments, expected ' .. i - 1) end
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) <= last then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
i = 4
for _ = 1, tonumber(ARGV[3]) do
  local k = KEYS[tonumber(ARGV[i])]
  redis.call('ZINCRBY', k, ARGV[i + 3], ARGV[i + 2])
  redis.call('EXPIREAT', k, ARGV[i + 1])
  i = i + 4
end
seconds = tonumber(ARGV[i] or '0')
i = i + 1
for _ = 1, seconds do
  local s = KEYS[tonumber(ARGV[i])]
  add(s, ARGV[i + 1], ARGV[i + 3])
  redis.call('EXPIREAT', s, ARGV[i + 2])
  i = i + 4
end
return 1
)lua";

// Lua's unpack() takes at most LUAI_MAXCSTACK (8000) values: larger visitor sets are split.
constexpr std::size_t kVisitorsPerPfadd = 4000;

class KeyTable {
public:
    explicit KeyTable(RedisConnection::Command& command, std::size_t firstIndex)
        : m_command(command), m_next(firstIndex) {}
    std::string index(const std::string& key) {
        auto [it, added] = m_indices.try_emplace(key, m_next);
        if (added) {
            m_command.push_back(key);
            ++m_next;
        }
        return std::to_string(it->second);
    }

private:
    RedisConnection::Command& m_command;
    std::size_t m_next;
    std::map<std::string, std::size_t> m_indices;
};

std::string count(Count hits) {
    return std::to_string(std::min(hits, kRedisMaxCount));
}

// The heat arguments both scripts take after their own: writes per second, N, cool-for.
void pushHeatOptions(std::vector<std::string>& args, const HotDetection& heat, int shards) {
    args.push_back(std::to_string(std::max(0.0, heat.writesPerSecond)));
    args.push_back(std::to_string(std::max(shards, 1)));
    args.push_back(std::to_string(heat.coolFor.count()));
}

// `heatWeight` 0: the write is not counted (heat off, or a sub-item's write).
RedisConnection::Command itemCommand(const ItemTag& item, const ItemFlush& data,
                                     const FlushIdentity& id, const std::string& sha,
                                     const HotDetection& heat, int heatWeight) {
    RedisConnection::Command keys{
        "EVALSHA",         sha, "", itemGuardKey(item, id.instance, id.run), totalKey(item),
        instancesKey(item)};
    KeyTable table(keys, 4);
    Count total = 0;
    std::vector<std::string> args{
        std::to_string(id.seq),          id.instance, std::to_string(id.flushTime),
        std::to_string(kGuardRetention), "",          std::to_string(heatWeight)};
    pushHeatOptions(args, heat, heat.shards);
    args.push_back(std::to_string(data.seconds.size()));
    for (const auto& [second, hits] : data.seconds) {
        const Timestamp minute = minuteOf(second);
        const Timestamp hour = hourOfMinute(minute);
        args.push_back(table.index(secondsKey(item, minute)));
        args.push_back(std::to_string(second - minute * 60));
        args.push_back(std::to_string((minute + 1) * 60 + kSecondsRetention));
        args.push_back(table.index(minutesKey(item, hour)));
        args.push_back(std::to_string(minute - hour * 60));
        args.push_back(std::to_string((minute + 1) * 60 + kMinutesRetention));
        args.push_back(count(hits));
        total = std::min(total + std::min(hits, kRedisMaxCount), kRedisMaxCount);
    }
    args[4] = count(total);
    std::size_t groups = 0;
    std::vector<std::string> visitorArgs;
    for (const auto& [minute, visitors] : data.visitors) {
        const std::string keyIndex = table.index(uniquesKey(item, minute));
        const std::string expireAt = std::to_string((minute + 1) * 60 + kMinutesRetention);
        auto it = visitors.begin();
        while (it != visitors.end()) {
            std::vector<std::string> chunk;
            for (; it != visitors.end() && chunk.size() < kVisitorsPerPfadd; ++it)
                chunk.push_back(*it);
            visitorArgs.push_back(keyIndex);
            visitorArgs.push_back(expireAt);
            visitorArgs.push_back(std::to_string(chunk.size()));
            visitorArgs.insert(visitorArgs.end(), chunk.begin(), chunk.end());
            ++groups;
        }
    }
    args.push_back(std::to_string(groups));
    args.insert(args.end(), visitorArgs.begin(), visitorArgs.end());
    if (heatWeight > 0)
        keys.push_back(heatKey(item));
    keys[2] = std::to_string(keys.size() - 3);
    keys.insert(keys.end(), args.begin(), args.end());
    return keys;
}

RedisConnection::Command topCommand(const FlushBatch& batch, const FlushIdentity& id,
                                    const std::string& sha) {
    const int shard = topShardOf(id.run);
    RedisConnection::Command keys{"EVALSHA", sha, "", topGuardKey(id.instance, id.run)};
    KeyTable table(keys, 2);
    std::vector<std::string> args{std::to_string(id.seq), std::to_string(kGuardRetention), ""};
    std::size_t n = 0;
    std::map<Timestamp, Count> perSecond;  // the fleet's total, all items
    for (const auto& [item, data] : batch.items()) {
        std::map<Timestamp, Count> perMinute;
        for (const auto& [second, hits] : data.seconds) {
            Count& m = perMinute[minuteOf(second)];
            m = std::min(m + std::min(hits, kRedisMaxCount), kRedisMaxCount);
            Count& s = perSecond[second];
            s = std::min(s + std::min(hits, kRedisMaxCount), kRedisMaxCount);
        }
        for (const auto& [minute, hits] : perMinute) {
            args.push_back(table.index(topKey(shard, minute)));
            args.push_back(std::to_string((minute + 1) * 60 + kMinutesRetention));
            args.push_back(item);
            args.push_back(count(hits));
            ++n;
        }
    }
    args[2] = std::to_string(n);
    args.push_back(std::to_string(perSecond.size()));
    for (const auto& [second, hits] : perSecond) {
        const Timestamp minute = minuteOf(second);
        args.push_back(table.index(fleetSecondsKey(shard, minute)));
        args.push_back(std::to_string(second - minute * 60));
        args.push_back(std::to_string((minute + 1) * 60 + kSecondsRetention));
        args.push_back(count(hits));
    }
    keys[2] = std::to_string(keys.size() - 3);
    keys.insert(keys.end(), args.begin(), args.end());
    return keys;
}

}  // namespace

bool isValidInstanceName(std::string_view name) {
    return !name.empty() && name.size() <= 128 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '.' || c == '_' || c == '-';
    });
}

ScriptShas loadScripts(RedisClient& client) {
    const std::string checks = kCheckFunctions;
    const std::string heat = checks + kHeatFunction;
    return {client.loadScript(heat + kItemScript), client.loadScript(checks + kTopScript),
            client.loadScript(heat + kHeatScript)};
}

std::vector<RedisConnection::Command> applyCommands(const FlushBatch& batch,
                                                    const FlushIdentity& id, const ScriptShas& shas,
                                                    const HotRoutes& routes,
                                                    const HotDetection& heat) {
    std::vector<RedisConnection::Command> commands;
    commands.reserve(batch.items().size() + 1);
    for (const auto& [item, data] : batch.items()) {
        const auto route = routes.find(item);
        if (route == routes.end())
            commands.push_back(itemCommand(item, data, id, shas.item, heat, heat.enabled ? 1 : 0));
        else
            commands.push_back(itemCommand(route->second, data, id, shas.item, heat, 0));
    }
    if (!batch.empty())
        commands.push_back(topCommand(batch, id, shas.top));
    return commands;
}

RedisConnection::Command heatCommand(const HeatTouch& touch, const HotDetection& heat,
                                     const ScriptShas& shas) {
    std::vector<std::string> command{"EVALSHA",
                                     shas.heat,
                                     "2",
                                     hotShardsKey(touch.item),
                                     heatKey(touch.item),
                                     std::to_string(touch.weight)};
    pushHeatOptions(command, heat, touch.shards);
    command.push_back(touch.force ? "1" : "0");
    command.push_back(touch.announce ? "1" : "0");
    return command;
}

RedisConnection::Command logCommand(const FlushBatch& batch, const FlushIdentity& id,
                                    std::size_t maxLength, const HotRoutes& routes) {
    RedisConnection::Command xadd{"XADD",
                                  logKey(id.instance),
                                  "MAXLEN",
                                  "~",
                                  std::to_string(maxLength),
                                  "*",
                                  "instance",
                                  id.instance,
                                  "run",
                                  id.run,
                                  "seq",
                                  std::to_string(id.seq),
                                  "time",
                                  std::to_string(id.flushTime),
                                  "data",
                                  batch.encode()};
    if (!routes.empty()) {
        xadd.push_back("hot");
        xadd.push_back(encodeRoutes(routes));
    }
    return xadd;
}

namespace {

void appendNetstring(std::string& out, std::string_view text) {
    out.append(std::to_string(text.size())).append(":").append(text).append(",");
}

std::string readNetstring(std::string_view& text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon > 10)
        throw std::invalid_argument("malformed hot routes");
    std::size_t length = 0;
    for (const char c : text.substr(0, colon)) {
        if (c < '0' || c > '9')
            throw std::invalid_argument("malformed hot routes");
        length = length * 10 + std::size_t(c - '0');
    }
    if (text.size() < colon + 1 + length + 1 || text[colon + 1 + length] != ',')
        throw std::invalid_argument("malformed hot routes");
    std::string value(text.substr(colon + 1, length));
    text.remove_prefix(colon + 1 + length + 1);
    return value;
}

}  // namespace

std::string encodeRoutes(const HotRoutes& routes) {
    std::string out;
    for (const auto& [item, sub] : routes) {
        appendNetstring(out, item);
        appendNetstring(out, sub.text());
    }
    return out;
}

HotRoutes decodeRoutes(std::string_view text) {
    HotRoutes routes;
    while (!text.empty()) {
        std::string item = readNetstring(text);
        routes.insert_or_assign(std::move(item), ItemTag::fromTag(readNetstring(text)));
    }
    return routes;
}

}  // namespace hitcounter::fleet
