// FlushCommands: turns one FlushBatch into the Redis commands that apply it exactly once.
//
// Pure functions, thread-safe. Per flush: one EVALSHA per item (the item script, all keys in
// the item's slot), one EVALSHA for the fleet top-K (slot {top}), and, by the sink, one XADD
// to the instance's log and the heartbeat. Each script first compares the flush's sequence
// with the last one applied by this (instance, run) for that item (a guard key) and does
// nothing if it is not newer, so resending a flush after an unknown outcome never counts
// twice. Sequences start at 1 per run and must be applied in increasing order.
// Expiry uses EXPIREAT from the data's own time, so a rebuild of old flushes leaves nothing
// that outlives what a live flush would have left.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <map>
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
    std::string item;
    std::string top;
};

// Hot items of one flush: item -> the sub-item (hotSubItem) its counts are written under.
// Items not listed are written under their own name. Frozen with the flush: a resend goes
// where the first attempt went, so the sub-item's guard sees the same sequence.
using HotRoutes = std::map<std::string, std::string>;

bool isValidInstanceName(std::string_view name);

// Registers both scripts with `client` (loaded on every node it connects to, again after a
// reconnect: a restarted Redis has an empty script cache). Throws RedisError.
ScriptShas loadScripts(RedisClient& client);

// The EVALSHA commands of `batch`: one per item (under its route), then one for the top-K
// (if any hits; the top-K always names the item itself).
std::vector<RedisConnection::Command> applyCommands(const FlushBatch& batch,
                                                    const FlushIdentity& id, const ScriptShas& shas,
                                                    const HotRoutes& routes = {});

// The XADD appending `batch` (and its routes, field "hot") to the instance's log, trimmed to
// about `maxLength` entries.
RedisConnection::Command logCommand(const FlushBatch& batch, const FlushIdentity& id,
                                    std::size_t maxLength, const HotRoutes& routes = {});

// The "hot" field of a log entry and back (netstrings: item, then sub-item). decodeRoutes
// throws std::invalid_argument on a malformed text.
std::string encodeRoutes(const HotRoutes& routes);
HotRoutes decodeRoutes(std::string_view text);

}  // namespace hitcounter::fleet
