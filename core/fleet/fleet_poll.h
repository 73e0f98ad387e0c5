// FleetPoller: reads what the fleet view shows from the fleet's Redis (one server or a Redis
// Cluster) on its own thread, once per interval, and hands out the newest FleetSnapshot.
//
// Thread-safe: latest(), setSelected(), requestStop() and finished() may be called from any
// thread (the GUI's); m_mutex guards m_latest, m_selected and m_wake. A private std::jthread
// owns the RedisClient and does every read, so no caller ever waits on the network.
// Contract:
// - The first poll starts at once (the view is readable within a second: a poll is a few
//   pipelined round trips, bounded by `timeouts`); later polls every `interval`, or at once
//   after setSelected().
// - Each poll reads, with FleetReader (no second reader): the fleet's hits per second in the
//   window (fleetSecondsKey, written by the sinks' top-K script), the top `topK` items with
//   their window count and uniques, the selected item's hits per second (by default the top
//   item), every alive instance's heartbeat; and the cluster panel: CLUSTER NODES (asked of
//   any node that answers) plus INFO stats/memory of every node; a single server is one node.
// - Failures never stop the poller: a Redis that cannot be reached (connect or command past
//   its timeout), a node that is down or failing over, CLUSTERDOWN: each part (fleet total,
//   top-K, selected item, instances) that cannot be read keeps its last value (dataStale),
//   the others are read as usual (the fleet total, spread over the top-K shards, is read
//   without the shards of a failed master, and marked stale); the snapshot names what failed
//   (problem, troubledNodes)
//   and the next poll retries (after a failover the client finds the promoted replica).
// - Every poll also tells a FleetWatch (fleet_watch.h) whether it reached Redis, the server's
//   run_id (INFO server; a cluster: its masters') and the fleet's hits per second, so each
//   snapshot carries the outages seen and the counts Redis lost (a restart without
//   persistence); when a loss is found, the poll asks whether the instances' logs (hc:log:*)
//   still reach back before it, to `rebuild` from.
// - requestStop() returns at once; the thread ends after the read in progress (bounded by
//   the timeouts); the destructor requests the stop and joins.
// Example:
//   FleetPoller poller({parseRedisUrl("redis://127.0.0.1:7000")});
//   GUI timer: if (auto s = poller.latest(); s && s->sequence != shown) draw(*s);
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/fleet/fleet_reader.h"
#include "core/fleet/fleet_watch.h"
#include "core/fleet/redis_url.h"

namespace hitcounter::fleet {

struct FleetNode {
    std::string address;        // "host:port"
    std::string id;             // cluster node id; empty for a single server
    std::string role;           // "master" or "replica"
    std::string masterAddress;  // replicas: the master they copy
    int slots = 0;              // hash slots served (a single server serves all: kClusterSlots)
    // "ok"; "failing" (the cluster flags it pfail or fail); "unreachable" (did not answer
    // this poll); "handshake" (joining).
    std::string state;
    double commandsPerSecond = 0;  // INFO stats instantaneous_ops_per_sec
    std::uint64_t usedMemory = 0;  // INFO memory used_memory, bytes
};

struct FleetTopRow {
    std::string key;
    Count window = 0;
    Count uniques = 0;  // approximate (HyperLogLog over the window's minutes)
};

struct FleetSnapshot {
    std::uint64_t sequence = 0;  // 1, 2, ... one per poll
    double polledAt = 0;         // unix seconds when the poll ended
    double readMilliseconds = 0;
    bool connected = false;  // this poll reached Redis
    bool dataStale = false;  // some counts below are from an earlier poll (a part failed)
    std::string problem;     // empty: everything answered; else what failed, for people
    std::vector<std::string> troubledNodes;  // "host:port" of nodes failing or unreachable
    // The counts (of the last poll that read them).
    Timestamp now = 0;  // the window is (now - windowSeconds, now]
    Timestamp windowSeconds = 300;
    std::vector<Count> total;  // the fleet's hits per second, oldest first
    Count totalWindow = 0;
    std::string selected;  // the item plotted beside the total ("" when the fleet is empty)
    std::vector<Count> selectedSeries;  // ends at selectedNow (now, unless its read failed)
    Timestamp selectedNow = 0;
    Count selectedWindow = 0;
    std::vector<FleetTopRow> top;
    std::vector<InstanceHeartbeat> instances;
    // This poll read the heartbeats: the instances listed are the alive ones. False (while
    // Redis is unreachable, or their read failed): `instances` are those of an earlier poll and
    // whether each is alive is unknown.
    bool instancesKnown = false;
    // The fleet's Redis over the poller's life (fleet_watch.h): when it was unreachable (the
    // newest FleetWatch::kOutages outages), and counts it lost that are still in the window.
    std::vector<FleetOutage> outages;
    std::optional<FleetLoss> loss;
    // The cluster panel.
    bool cluster = false;
    std::vector<FleetNode> nodes;  // masters first, then by address
};

struct FleetPollOptions {
    RedisUrl url;
    std::chrono::milliseconds interval{1000};
    // Shorter than the CLI's: a panel that says "unreachable" fast beats one that waits.
    RedisTimeouts timeouts{std::chrono::milliseconds(500), std::chrono::milliseconds(1000)};
    std::size_t topK = 10;
    Timestamp windowSeconds = 300;  // up to kExactWindowSeconds
    std::string selected;           // the item to plot first; empty: the top item
    // The window's end, unix seconds; default: the system clock 2 s back (the instances
    // flush once a second: the newest two seconds are still arriving).
    std::function<Timestamp()> clock;
};

class FleetPoller {
public:
    explicit FleetPoller(FleetPollOptions options);
    ~FleetPoller();
    FleetPoller(const FleetPoller&) = delete;
    FleetPoller& operator=(const FleetPoller&) = delete;

    // The newest snapshot, or null before the first poll ends.
    std::shared_ptr<const FleetSnapshot> latest() const;
    // Plots `item` from the next poll on (which starts at once); empty: the top item.
    void setSelected(const std::string& item);
    const FleetPollOptions& options() const { return m_options; }
    void requestStop();
    bool finished() const { return m_finished.load(); }

private:
    void loop(std::stop_token stop);
    void pollOnce();
    void readNodes(FleetSnapshot& next);
    Timestamp now() const;

    const FleetPollOptions m_options;
    mutable std::mutex m_mutex;  // guards m_latest, m_selected, m_wake
    std::condition_variable_any m_wakeUp;
    std::shared_ptr<const FleetSnapshot> m_latest;
    std::string m_selected;
    bool m_wake = false;
    std::atomic<bool> m_finished{false};

    // Owned by the poll thread.
    std::unique_ptr<RedisClient> m_client;
    std::uint64_t m_sequence = 0;
    FleetWatch m_watch;
    std::string m_runId;  // of the last readNodes(): INFO server run_id, or the masters'

    std::jthread m_thread;  // last: started after every member above exists
};

// Parses CLUSTER NODES text into nodes (state from the flags; slots counted; INFO not read).
std::vector<FleetNode> parseClusterNodes(const std::string& text);

}  // namespace hitcounter::fleet
