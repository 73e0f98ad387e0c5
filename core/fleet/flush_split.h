// splitFlush: cuts one sealed FlushBatch into parts that Redis accepts and runs quickly, each
// part then sent as a flush of its own (its own sequence, scripts and log entry).
//
// Pure functions, thread-safe. Contract:
// - Every part holds at most `limits.entries` entries (FlushBatch::entries()): the work of
//   each script call (the top-K script touches one row per entry at most) stays bounded, so
//   Redis answers other clients between the calls within milliseconds.
// - Every part costs at most `limits.bytes` by partBytes(): an upper bound of the bytes of all
//   the commands RedisSink sends for it (scripts, log entry, hot routes), so no argument and no
//   command can exceed what Redis accepts (proto-max-bulk-len, client-query-buffer-limit) when
//   `bytes` is below both.
// - An item's seconds and visitors may be spread over consecutive parts (the item guard sees
//   increasing sequences). The parts hold every hit and visitor of the batch in its order,
//   except a second or visitor that alone costs more than `limits.bytes` (an item name or a
//   visitor id near the limit): it is refused, its hits counted in refusedHits.
// - Each part keeps the batch's oldestArrival().
// Example: 10 items of 1000 seconds, entries = 4096 -> 3 parts (4096, 4096, 1808 entries).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/fleet/flush_batch.h"

namespace hitcounter::fleet {

struct FlushLimits {
    // The default when Redis does not say (CONFIG refused): proto-max-bulk-len's default, 512 MB.
    static constexpr std::size_t kRedisDefaultMaxBulk = 512ull * 1024 * 1024;
    // Bytes of one part at most, whatever Redis accepts: bounds the sink's and Redis' memory.
    static constexpr std::size_t kMaxBytes = 64ull * 1024 * 1024;
    static constexpr std::size_t kDefaultEntries = 1024;

    std::size_t bytes = kMaxBytes;
    std::size_t entries = kDefaultEntries;
};

// The part's byte budget for a Redis that accepts `redisMax` bytes per argument and per
// command buffer: half of it (the margin covers the estimate's error), at most kMaxBytes.
std::size_t flushBytesFor(std::size_t redisMax);

struct SplitFlush {
    std::vector<FlushBatch> parts;
    Count refusedHits = 0;  // hits of seconds too big for any part
    std::size_t refusedVisitors = 0;
    std::string refusedExample;  // the first refused item name (cut to 64 bytes)
};

SplitFlush splitFlush(const FlushBatch& batch, const FlushLimits& limits);

// The upper bound splitFlush() uses for the commands of `batch`.
std::size_t partBytes(const FlushBatch& batch);

}  // namespace hitcounter::fleet
