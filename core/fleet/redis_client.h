// RedisClient: the fleet's way to talk to Redis, one server or a Redis Cluster, behind one
// pipeline(). The same redis:// URL names a single server or any one node of a cluster: the
// constructor asks the node (INFO cluster) and picks the mode.
//
// Not thread-safe; owned by one thread at a time (the RedisSink's flush thread, or a reader).
// In a cluster, pipeline() runs the masters' parts on short-lived helper threads (one per
// extra master, each using only its own node's connection), joined before it returns.
// Contract:
// - Single mode: one RedisConnection to the URL, reopened on the next call after it broke.
// - Cluster mode: the slot map comes from CLUSTER SLOTS (asked of any node known so far, the
//   URL's first); each command is routed by the hash slot of its key (keySlot(): CRC16/XMODEM
//   of the hash tag, mod 16384), the commands of one node go in one pipeline, the nodes at
//   the same time. A MOVED reply updates the map, is retried on the named node, and the map
//   is refreshed; an ASK reply is retried on the named node behind ASKING (the map is kept).
//   A node that cannot be reached marks the map stale: the next call refreshes it (after a
//   failover CLUSTER SLOTS names the promoted replica) and throws RedisError::Unreachable now.
//   Commands without a key (PING, INFO, SCRIPT, ...) go to the master of slot 0.
//   A multi-key command must name keys of one slot (hash tags), as Redis Cluster requires.
// - pipeline() returns one reply per command, in order; error replies other than MOVED/ASK
//   are returned, not thrown. An I/O error or a timeout throws RedisError::Unreachable; some
//   nodes may have applied their commands, so callers' writes must be idempotent.
// - Scripts registered with loadScript() are loaded (SCRIPT LOAD) on every connection the
//   client opens, so EVALSHA works on every node, after reconnects and failovers too.
// - waitReplicas (cluster mode, for writers): after each node's pipeline, WAIT 1 replica for
//   at most the given time; replies that came back before it count in unreplicatedAcks (the
//   write is acknowledged, but a failover right now could lose it: docs/redis.md).
// Example:
//   RedisClient c(parseRedisUrl("redis://127.0.0.1:7000"));  // any node of a cluster
//   c.pipeline({{"INCRBY", "hc:{a}:total", "2"}, {"GET", "hc:{b}:total"}});  // two nodes
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/fleet/redis_connection.h"

namespace hitcounter::fleet {

inline constexpr int kClusterSlots = 16384;

// CRC16 (XMODEM: polynomial 0x1021, initial 0) as in the Redis Cluster specification.
std::uint16_t crc16(std::string_view bytes);
// The slot of `key`: of the text between the first '{' and the next '}' if that is not empty,
// else of the whole key. keySlot("hc:{a}:total") == keySlot("a").
int keySlot(std::string_view key);
// The key a command is routed by, or empty when it has none (PING, INFO, SCRIPT, SCAN...).
std::string_view routingKey(const RedisConnection::Command& command);

struct RedisClientStats {
    std::uint64_t moved = 0;             // MOVED replies followed
    std::uint64_t ask = 0;               // ASK replies followed
    std::uint64_t refreshes = 0;         // CLUSTER SLOTS asked
    std::uint64_t reconnects = 0;        // connections opened after the first to that node
    std::uint64_t unreplicatedAcks = 0;  // node pipelines whose WAIT saw no replica in time
    std::map<std::string, std::uint64_t> commandsPerNode;  // "host:port" -> commands sent
};

class RedisClient {
public:
    // Connects to `url` (bounded) and detects the mode. Throws RedisError like RedisConnection.
    explicit RedisClient(const RedisUrl& url, RedisTimeouts timeouts = {});
    ~RedisClient();
    RedisClient(const RedisClient&) = delete;
    RedisClient& operator=(const RedisClient&) = delete;

    bool cluster() const { return m_cluster; }
    const RedisUrl& url() const { return m_url; }

    std::vector<RedisReply> pipeline(const std::vector<RedisConnection::Command>& commands);
    // One command; an error reply throws RedisError::Kind::Protocol naming the command.
    RedisReply command(const RedisConnection::Command& command);
    // Every key matching `pattern` (SCAN on the server, or on every master), sorted, unique.
    std::vector<std::string> scan(std::string_view pattern);
    // Registers a Lua script, loads it wherever connected, returns its SHA1.
    std::string loadScript(const std::string& script);
    // Drops every open connection (the next call reconnects and refreshes the map).
    void disconnect();
    // The masters ("host:port") of the current map (one entry, the URL's, in single mode).
    std::vector<std::string> masters();
    // The master ("host:port") serving `key`'s slot now (the URL's node in single mode);
    // refreshes a stale map first. Throws RedisError::Unreachable if no master serves it.
    std::string masterFor(std::string_view key);
    // Every node seen so far, masters first (the URL's node in single mode).
    const std::vector<std::string>& knownNodes() const { return m_known; }
    // `commands` on the node at `address` ("host:port"), unrouted (INFO, CLUSTER NODES for
    // the fleet view's cluster panel). Throws like pipeline(); an unreachable node's
    // connection is dropped and the map marked stale.
    std::vector<RedisReply> pipelineAt(const std::string& address,
                                       const std::vector<RedisConnection::Command>& commands);
    void setWaitReplicas(std::chrono::milliseconds timeout) { m_waitTimeout = timeout; }
    // From now on no connect or reply is waited for past `deadline` (RedisTimeouts::deadline).
    void setDeadline(std::chrono::steady_clock::time_point deadline) {
        m_timeouts.deadline = deadline;
    }

    const RedisClientStats& stats() const { return m_stats; }

private:
    RedisConnection& connection(const std::string& address);
    void dropConnection(const std::string& address);
    void refresh();
    std::vector<RedisReply> pipelineCluster(const std::vector<RedisConnection::Command>& commands);

    RedisUrl m_url;
    RedisTimeouts m_timeouts;
    bool m_cluster = false;
    bool m_stale = true;
    std::chrono::milliseconds m_waitTimeout{0};
    std::vector<std::string> m_scripts;
    std::map<std::string, std::unique_ptr<RedisConnection>> m_connections;  // by "host:port"
    std::map<std::string, bool> m_everConnected;
    std::vector<std::string> m_known;      // every node seen, masters first
    std::vector<std::string> m_slotOwner;  // kClusterSlots entries, "host:port" or empty
    RedisClientStats m_stats;
};

}  // namespace hitcounter::fleet
