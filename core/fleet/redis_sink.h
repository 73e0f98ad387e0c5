// RedisSink: sends one instance's hits to the fleet's Redis, aggregated per (item, second)
// and flushed once per flush interval, exactly once, surviving Redis outages.
//
// Thread-safe: add() and stats() may be called from any thread; m_mutex guards m_open and
// m_stats. A private flush thread (std::jthread) owns the connection and the batch in flight.
// Contract:
// - add() only aggregates in memory (never waits for the network). The open batch holds at
//   most `bufferEntries` entries (FlushBatch); hits that do not fit are dropped and counted
//   in droppedHits.
// - Every flush interval the thread seals the open batch into the batch in flight, gives it
//   the run's next sequence number, and sends it in one pipeline: one EVALSHA per item, one
//   for the top-K, one XADD to the log, the heartbeat (HSET + EXPIRE). Commands per flush do
//   not grow with the hit rate.
// - If the pipeline fails (Redis down, slow, restarted, an error reply) the batch stays in
//   flight with its sequence and is resent, after a reconnect, with exponential backoff
//   (minBackoff doubling to maxBackoff), until it is acknowledged. New hits keep merging into
//   the open batch meanwhile. The scripts skip sequences already applied, so a resend never
//   counts twice (flush_commands.h).
// - stop() (or the destructor) seals what is held and keeps flushing until everything is
//   acknowledged or `drainTimeout` has passed; what is still unsent then is counted in
//   droppedHits. After stop() add() drops and counts.
// Example:
//   RedisSink sink(options, std::make_unique<RedisConnection>(options.url));
//   sink.add(batch); ... sink.stop(5s); sink.stats().flushes;
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/fleet/flush_batch.h"
#include "core/fleet/flush_commands.h"
#include "core/fleet/redis_connection.h"
#include "core/fleet/redis_url.h"

namespace hitcounter::fleet {

struct RedisSinkOptions {
    RedisUrl url;
    std::string instance;  // isValidInstanceName()
    std::string version;   // shown in the heartbeat
    std::chrono::milliseconds flushInterval{1000};
    RedisTimeouts timeouts;
    std::size_t bufferEntries = 1'000'000;
    std::chrono::milliseconds minBackoff{50};
    std::chrono::milliseconds maxBackoff{2000};
    std::size_t logMaxLength = 1'000'000;  // XADD MAXLEN ~ (about 11 days at 1 flush/s)
    std::chrono::seconds heartbeatTtl{0};  // 0: max(5 s, 3 flush intervals)
};

struct RedisSinkStats {
    std::uint64_t flushes = 0;            // flushes acknowledged by Redis
    std::uint64_t commands = 0;           // commands sent, resends included
    std::uint64_t retries = 0;            // failed attempts (each is retried)
    std::uint64_t duplicatesSkipped = 0;  // item/top scripts that found their flush applied
    Count sentHits = 0;                   // hits acknowledged by Redis
    Count droppedHits = 0;                // refused by the full buffer or unsent at stop()
    double lagSeconds = 0;   // last flush: from the arrival of its oldest hit to the ack
    bool connected = false;  // the last attempt reached Redis (kept after stop())
    std::string lastError;
};

class RedisSink {
public:
    // Starts the flush thread with `connection` (already connected, or null to connect on
    // the first flush). Throws std::invalid_argument for a bad instance name.
    RedisSink(RedisSinkOptions options, std::unique_ptr<RedisConnection> connection);
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
    // Seals the open batch if nothing is in flight; true if something is in flight after.
    bool seal();
    // One attempt to send the batch in flight (and the heartbeat); false on failure.
    bool attempt();
    bool ensureConnected();

    const RedisSinkOptions m_options;
    const std::string m_run;

    mutable std::mutex m_mutex;  // guards m_open, m_stats, m_closed, m_drainUntil
    std::condition_variable_any m_wake;
    FlushBatch m_open;
    RedisSinkStats m_stats;
    bool m_closed = false;  // stop() was called: add() refuses and counts
    Clock::time_point m_drainUntil{};

    // Owned by the flush thread.
    std::unique_ptr<RedisConnection> m_connection;
    ScriptShas m_shas;
    std::optional<FlushBatch> m_inFlight;
    FlushIdentity m_id;
    std::uint64_t m_nextSeq = 1;
    Count m_hitsSinceHeartbeat = 0;
    Clock::time_point m_lastHeartbeat = Clock::now();

    std::jthread m_thread;  // last: started after every member above exists
};

}  // namespace hitcounter::fleet
