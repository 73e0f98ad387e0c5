// RedisSink: sends one instance's hits to the fleet's Redis, aggregated per (item, second)
// and flushed once per flush interval, exactly once, surviving Redis outages.
//
// Thread-safe: add() and stats() may be called from any thread; m_mutex guards m_open and
// m_stats. A private flush thread (std::jthread) owns the connection and the batch in flight.
// Contract:
// - add() only aggregates in memory (never waits for the network). The open batch holds at
//   most `bufferEntries` entries and `bufferBytes` bytes (FlushBatch::bytes(): names and
//   visitor ids plus a fixed overhead per entry), whatever the names' lengths; hits that do
//   not fit are dropped and counted in droppedHits. Besides it, the flush thread holds at
//   most one sealed batch's parts (cut while connected), so the sink holds about twice that. Hits
//   whose time is outside `acceptedTimes` around the wall clock never reach Redis (counted in
//   outOfWindowHits): a time decades away would make keys that live for decades, or that Redis
//   cannot expire.
// - Every flush interval the thread seals the open batch and cuts it into parts (splitFlush:
//   at most flushEntries entries and flushBytes bytes each), each sent as a flush of its own:
//   the run's next sequence number, one pipeline of one EVALSHA per item, one for the top-K,
//   one XADD to the log, the heartbeat (HSET + EXPIRE). The parts of one seal go one after
//   the other without waiting for the next interval. Commands per flush do not grow with the
//   hit rate; no command or argument grows past what Redis accepts (flushBytes 0: half of
//   the smaller of Redis' proto-max-bulk-len and client-query-buffer-limit, read with CONFIG
//   GET on each connection, or of 512 MB where CONFIG is refused; at most 64 MiB), and no
//   script call runs longer than its part's entries take (about 2.5 ms for the default 1024).
// - A flush Redis refuses (an error reply to one of its commands that a resend cannot
//   change: not OOM, LOADING, BUSY, READONLY, MASTERDOWN, CLUSTERDOWN, TRYAGAIN, NOSCRIPT,
//   NOREPLICAS, MISCONF, NOAUTH, NOPERM, WRONGPASS), or a second or visitor too big for any
//   part, is never resent: the hits of its refused item scripts are counted in refusedHits
//   (the rest was applied), onRefused is called once for it, and the next flushes go on.
// - If the pipeline fails (Redis down, slow, restarted, an error reply above) the batch stays in
//   flight with its sequence and is resent, after a reconnect, with exponential backoff
//   (minBackoff doubling to maxBackoff), until it is acknowledged. New hits keep merging into
//   the open batch meanwhile. The scripts skip sequences already applied, so a resend never
//   counts twice (flush_commands.h).
// - stop() (or the destructor) seals what is held and keeps flushing until everything is
//   acknowledged or `drainTimeout` has passed (no connect or reply is waited for past it,
//   whatever RedisSinkOptions::timeouts say); what is still unsent then is counted in
//   droppedHits. After stop() add() drops and counts.
// Example:
// - Redis Cluster (the URL names any node): RedisClient routes every command to its slot's
//   master and follows MOVED/ASK; each item script touches one slot only and the guards are
//   per (item, instance, run), so a flush split over several masters is still applied once
//   per item however its parts fail and are resent. After each node's part the sink WAITs
//   (at most replicaWait) for one replica, so an acknowledged flush survives a failover.
// - Hot items (hotShards > 0; docs/redis.md): an item is split over sub-items
//   hotSubItem(item, k) (k = CRC16 of the run id mod N) when the fleet agrees through Redis:
//   its item script counts the fleet's writes per second and splits it at hotWrites
//   (HotDetection in flush_commands.h); every instance learns the split from its next write's
//   reply and routes the item's counts to its sub-item from the next flush, touching the
//   item's heat key every N-th write so that the split is lifted (and the instances merge
//   back) once the item cools. An item in hotPinned, or one holding at least hotShare of a
//   flush's hits and at least hotMinHits of them (a flush being one part of a seal: its
//   share of that part), is split by this instance at once (and the split announced).
//   Readers sum the item and its sub-items (hotShardsKey never shrinks).
// - onFlush (optional) is called on the flush thread after each acknowledged flush with what
//   it wrote where (FlushReport): it must be thread-safe and quick (fleet-sim tallies it).
// - onOutage (optional) is called on the flush thread once when an outage begins (the first
//   attempt that fails after one that reached Redis, or the first of all: Redis down, slow, or
//   refusing the writes with an error) and once when it ends (the next acknowledged attempt),
//   with what was held and dropped meanwhile (OutageNotice); never once per retry.
// Example:
//   RedisSink sink(options, std::make_unique<RedisClient>(options.url));
//   sink.add(batch); ... sink.stop(5s); sink.stats().flushes;
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/base/accepted_times.h"
#include "core/fleet/flush_batch.h"
#include "core/fleet/flush_commands.h"
#include "core/fleet/flush_split.h"
#include "core/fleet/redis_client.h"
#include "core/fleet/redis_url.h"

namespace hitcounter::fleet {

// What one acknowledged flush wrote (RedisSinkOptions::onFlush).
struct FlushReport {
    std::string instance;
    double sentAt = 0;      // unix seconds when its (last) attempt was sent
    double lagSeconds = 0;  // from the arrival of its oldest hit to the acknowledgement
    Count hits = 0;
    // The hash tag of every script it ran: items or sub-items it wrote, items it touched
    // (heat), its top-K shard ("top:K").
    std::vector<std::string> writtenTags;
    std::map<std::string, std::uint64_t> commandsPerNode;  // this attempt's, by "host:port"
};

// One end of an outage (RedisSinkOptions::onOutage).
struct OutageNotice {
    bool down = true;                  // true: it began; false: Redis acknowledged a flush again
    std::string error;                 // down: what failed
    double seconds = 0;                // up: from the first failed attempt to the acknowledgement
    std::uint64_t failedAttempts = 0;  // up: attempts that failed during it
    // down: hits held for Redis now; up: hits held during it (sent by the recovery flush, or
    // still waiting for the next one).
    Count bufferedHits = 0;
    Count droppedHits = 0;  // up: hits dropped during it (the buffer was full)
};

// A flush Redis refused, or hits too big to send (RedisSinkOptions::onRefused).
struct RefusedNotice {
    std::string error;         // Redis' error reply, or what was too big
    Count hits = 0;            // not counted in Redis
    std::size_t visitors = 0;  // not recorded (uniques undercount)
};

struct RedisSinkOptions {
    RedisUrl url;
    std::string instance;  // isValidInstanceName()
    std::string version;   // shown in the heartbeat
    std::chrono::milliseconds flushInterval{1000};
    RedisTimeouts timeouts;
    std::size_t bufferEntries = 1'000'000;
    std::size_t bufferBytes = 128ull << 20;  // FlushBatch::bytes() of the open batch at most
    std::chrono::milliseconds minBackoff{50};
    std::chrono::milliseconds maxBackoff{2000};
    std::size_t logMaxLength = 1'000'000;  // XADD MAXLEN ~ (about 11 days at 1 flush/s)
    std::chrono::seconds heartbeatTtl{0};  // 0: max(5 s, 3 flush intervals)
    int hotShards = 0;                     // N sub-items of a hot item; 0: no item is ever split
    double hotWrites = 100;  // the fleet's writes per second of an item that split it; 0: never
    std::chrono::seconds hotCoolFor{30};  // merge back after that long below hotWrites / 4
    std::set<std::string> hotPinned;      // always split (when hotShards > 0)
    double hotShare = 0.5;    // share of a flush's hits that makes an item hot here; 0: never
    Count hotMinHits = 1000;  // ... and at least this many hits in that flush
    std::chrono::milliseconds replicaWait{100};  // cluster only: WAIT 1 per node, bounded
    std::size_t flushBytes = 0;  // bytes of one flush at most; 0: from Redis (see above)
    std::size_t flushEntries = FlushLimits::kDefaultEntries;  // entries of one flush at most
    // Hits with a time outside this window around the wall clock are not sent (counted in
    // outOfWindowHits); nullopt: any time.
    std::optional<AcceptedTimes> acceptedTimes = AcceptedTimes{};
    std::function<void(const FlushReport&)> onFlush;
    std::function<void(const OutageNotice&)> onOutage;
    std::function<void(const RefusedNotice&)> onRefused;  // on the flush thread; quick
};

struct RedisSinkStats {
    std::uint64_t flushes = 0;            // flushes acknowledged by Redis
    std::uint64_t commands = 0;           // commands sent, resends included
    std::uint64_t retries = 0;            // failed attempts (each is retried)
    std::uint64_t duplicatesSkipped = 0;  // item/top scripts that found their flush applied
    Count sentHits = 0;                   // hits acknowledged by Redis
    Count droppedHits = 0;                // refused by the full buffer or unsent at stop()
    Count outOfWindowHits = 0;            // not sent: time outside acceptedTimes
    std::uint64_t refusedFlushes = 0;     // flushes (or parts too big) never resent
    Count refusedHits = 0;                // their hits that Redis did not count
    std::size_t flushBytes = 0;           // the byte bound of a flush in use now
    double lagSeconds = 0;   // last flush: from the arrival of its oldest hit to the ack
    bool connected = false;  // the last attempt reached Redis (kept after stop())
    std::string lastError;
    bool cluster = false;                // the URL names a node of a Redis Cluster
    std::uint64_t moved = 0;             // MOVED redirects followed
    std::uint64_t ask = 0;               // ASK redirects followed
    std::uint64_t unreplicatedAcks = 0;  // node parts acknowledged before a replica had them
    std::size_t hotItems = 0;            // items split into sub-items at some time in this run
    std::size_t hotItemsNow = 0;         // items written under a sub-item now
    std::uint64_t hotMerges = 0;         // splits lifted (the item cooled) in this run
    std::map<std::string, std::uint64_t> commandsPerNode;  // "host:port" -> commands
};

class RedisSink {
public:
    // Starts the flush thread with `client` (already connected, or null to connect on the
    // first flush). Throws std::invalid_argument for a bad instance name.
    RedisSink(RedisSinkOptions options, std::unique_ptr<RedisClient> client);
    ~RedisSink();
    RedisSink(const RedisSink&) = delete;
    RedisSink& operator=(const RedisSink&) = delete;

    void add(const HitBatch& batch);
    void stop(std::chrono::milliseconds drainTimeout = std::chrono::seconds(5));
    RedisSinkStats stats() const;
    const std::string& run() const { return m_run; }

private:
    using Clock = std::chrono::steady_clock;

    void loop(std::stop_token stop);
    // Seals the next part (cutting the open batch into parts when none is left) if nothing
    // is in flight; true if something is in flight after.
    bool seal();
    bool splitOpen();
    // Cuts `batch` into parts inserted at `where` in m_pending (reports what cannot fit).
    void cut(const FlushBatch& batch, std::deque<FlushBatch>::iterator where);
    // Hits of the part in flight and of the parts waiting.
    Count pendingHits() const;
    // One attempt to send the part in flight (and the heartbeat); false on failure.
    bool attempt();
    // The first error reply of the part's commands (the first `partCommands`) that a resend
    // cannot change, or nullopt.
    std::optional<std::string> refusal(const std::vector<RedisReply>& replies,
                                       std::size_t partCommands) const;
    // Counts the part in flight as refused by `error` (its refused item scripts' hits).
    void refused(const std::vector<RedisReply>& replies, const std::string& error);
    void report(const RefusedNotice& notice);
    bool ensureConnected();
    // An attempt failed with `error` / reached Redis: calls onOutage at an outage's ends.
    void attemptFailed();
    void attemptSucceeded();

    // A hot item as this run writes it now.
    struct HotSplit {
        int shards = 0;            // the agreed N
        ItemTag subItem{""};       // hotSubItem(item, k)
        int touchPhase = 0;        // touches the heat key when writes % shards == touchPhase
        std::uint64_t writes = 0;  // flushes that wrote the sub-item
        bool announced = false;    // Redis acknowledged hotShardsKey >= shards
    };

    HotDetection detection() const;
    bool forcedHot(const std::string& item, const ItemFlush& data, Count flushHits) const;
    // Starts (or reshapes) the split of `item` into `shards`, to be announced.
    HotSplit& split(const std::string& item, int shards);
    // Routes and touches of the batch just sealed.
    void planHotItems();
    // Learns the agreed splits from the replies of an acknowledged flush.
    void learnHotItems(const std::vector<RedisReply>& replies, std::size_t touchesFrom);

    const RedisSinkOptions m_options;
    const std::string m_run;

    mutable std::mutex m_mutex;  // guards m_open, m_stats, m_closed, m_drainUntil
    std::condition_variable_any m_wake;
    FlushBatch m_open;
    RedisSinkStats m_stats;
    bool m_closed = false;  // stop() was called: add() refuses and counts
    Clock::time_point m_drainUntil{};

    // Owned by the flush thread.
    std::unique_ptr<RedisClient> m_client;
    Clock::time_point m_ioDeadline = Clock::time_point::max();  // m_drainUntil once stopping
    ScriptShas m_shas;
    std::optional<FlushBatch> m_inFlight;
    std::deque<FlushBatch> m_pending;         // parts of the last seal not yet in flight
    std::size_t m_flushBytes;                 // m_options.flushBytes, or what Redis accepts
    bool m_askLimits = true;                  // read m_flushBytes from Redis on the next connect
    HotRoutes m_routes;                       // of the batch in flight
    std::vector<HeatTouch> m_touches;         // of the batch in flight
    std::map<std::string, HotSplit> m_split;  // items written under a sub-item now
    std::set<std::string> m_everSplit;        // every item split in this run
    FlushIdentity m_id;
    std::uint64_t m_nextSeq = 1;
    Count m_hitsSinceHeartbeat = 0;
    Clock::time_point m_lastHeartbeat = Clock::now();
    // The outage going on: since when, and the stats then (onOutage).
    std::optional<Clock::time_point> m_outageSince;
    RedisSinkStats m_atOutage;

    std::jthread m_thread;  // last: started after every member above exists
};

}  // namespace hitcounter::fleet
