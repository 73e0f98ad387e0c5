// FlushCommands: turns one FlushBatch into the Redis commands that apply it exactly once.
//
// Pure functions, thread-safe. Per flush: one EVALSHA per item (the item script, all keys in
// the item's slot), one EVALSHA for the fleet top-K (the run's top shard), the heat touches
// of split items (one per item every N-th write), and, by the sink, one XADD
// to the instance's log and the heartbeat. Each script first compares the flush's sequence
// with the last one applied by this (instance, run) for that item (a guard key) and does
// nothing if it is not newer, so resending a flush after an unknown outcome never counts
// twice. Sequences start at 1 per run and must be applied in increasing order.
// Expiry uses EXPIREAT from the data's own time, so a rebuild of old flushes leaves nothing
// that outlives what a live flush would have left.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/fleet/fleet_keys.h"
#include "core/fleet/flush_batch.h"
#include "core/fleet/redis_client.h"

namespace hitcounter::fleet {

struct FlushIdentity {
    std::string instance;  // [A-Za-z0-9._-]+ (see isValidInstanceName)
    std::string run;       // unique per process run (sequences restart at 1 per run)
    std::uint64_t seq = 0;
    Timestamp flushTime = 0;  // unix seconds when the flush was first sent
};

struct ScriptShas {
    std::string item{};
    std::string top{};
    std::string heat{};
};

// Hot items found by the fleet's write rate (docs/redis.md, "Hot items"). With `enabled`,
// the item script of an item written under its own name also counts the write in the item's
// heatKey (per second of Redis' clock, the whole fleet together) and answers the split agreed
// now; an item whose writes in one second reach `writesPerSecond` is split there into
// `shards` sub-items (announced in hotShardsKey, the largest N, for readers, by the first
// write of each instance to its sub-item: heatCommand). While it is split,
// the instances write the sub-items and touch the heat key every N-th write with weight N
// (heatCommand), so the count keeps estimating the fleet's write rate; once that stayed below
// a quarter of the threshold for `coolFor`, the split is lifted (the agreed N becomes 0) and
// the instances merge back. Readers keep summing the sub-items (hotShardsKey never shrinks).
struct HotDetection {
    bool enabled = false;
    double writesPerSecond = 0;  // 0: never split by rate (only forced: pinned items)
    int shards = 0;              // N for a split decided here
    std::chrono::seconds coolFor{30};
};

// One touch of a split item's heat key by an instance writing it under one of `shards`
// sub-items: `weight` writes counted (0: only announce); `force` splits it now if it is not
// (a pinned item, a forced split); `force` or `announce` raise hotShardsKey to `shards` (an
// instance's first sub-item write goes with an announce, so readers sum that sub-item).
struct HeatTouch {
    std::string item{};
    int shards = 1;
    int weight = 0;
    bool force = false;
    bool announce = false;
};

// Hot items of one flush: item -> the sub-item (hotSubItem) its counts are written under.
// Items not listed are written under their own name. Frozen with the flush: a resend goes
// where the first attempt went, so the sub-item's guard sees the same sequence.
using HotRoutes = std::map<std::string, ItemTag>;

bool isValidInstanceName(std::string_view name);

// Registers the three scripts with `client` (loaded on every node it connects to, again after a
// reconnect: a restarted Redis has an empty script cache). Throws RedisError.
ScriptShas loadScripts(RedisClient& client);

// The EVALSHA commands of `batch`: one per item (under its route), then one for the top-K
// (if any hits; the top-K always names the item itself, in the run's shard topShardOf).
// An item script answers 0 when its sequence was applied before, else 1 + the split agreed
// for the item (0 when `heat` is off or the item is written under a sub-item).
std::vector<RedisConnection::Command> applyCommands(const FlushBatch& batch,
                                                    const FlushIdentity& id, const ScriptShas& shas,
                                                    const HotRoutes& routes = {},
                                                    const HotDetection& heat = {});

// The EVALSHA of `touch` (keys of the item's own slot; `heat` gives the threshold and the
// cool-down); it answers the split agreed now (0: not split).
RedisConnection::Command heatCommand(const HeatTouch& touch, const HotDetection& heat,
                                     const ScriptShas& shas);

// The XADD appending `batch` (and its routes, field "hot") to the instance's log, trimmed to
// about `maxLength` entries.
RedisConnection::Command logCommand(const FlushBatch& batch, const FlushIdentity& id,
                                    std::size_t maxLength, const HotRoutes& routes = {});

// The "hot" field of a log entry and back (netstrings: item, then sub-item). decodeRoutes
// throws std::invalid_argument on a malformed text.
std::string encodeRoutes(const HotRoutes& routes);
HotRoutes decodeRoutes(std::string_view text);

}  // namespace hitcounter::fleet
