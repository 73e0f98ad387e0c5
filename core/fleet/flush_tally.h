// FlushTally: what the flushes of many sinks wrote, tallied from their FlushReports
// (RedisSinkOptions::onFlush) for fleet-sim: writes per key (hash tag) per second, commands per
// node per second and per flush, and the flushes' lags.
//
// Thread-safe: add() is called from every sink's flush thread, summary() from any thread;
// m_mutex guards every member. A flush counts in the second (unix, floor) it was sent.
// Memory is bounded by what was written, not by the run's length: the per-key counts of a
// second are folded into a small histogram per key (value -> seconds) once reports 10 s newer
// arrive; a report older than that (a flush stuck in retries) is folded on its own and
// counted in lateReports.
// Once split: an item splits in the second a sub-item of it is first written; every instance
// has learned of it by two seconds later (it learns at its next flush, at most one interval
// away). settledFrom is the first second after every split item settled, and each node's
// settledCommands counts only the commands sent from then on: the load once every hot item
// is spread, free of the start-up seconds whose length depends on how busy the machine was.
// Example: two reports sent in second 100 both writing "a" -> summary(100, 100): key "a"
// max 2 writes per second, p99 2; a third span second 101 gives p99 over {2, 0} = 2.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/types.h"
#include "core/fleet/redis_sink.h"

namespace hitcounter::fleet {

struct KeyWriteStats {
    std::string tag;  // an item, a sub-item ("ITEM\x1fK") or a top-K shard ("top:K")
    std::uint64_t writes = 0;
    std::uint64_t maxPerSecond = 0;
    std::uint64_t p99PerSecond = 0;     // over every second of the span, those without writes too
    std::uint64_t medianPerSecond = 0;  // likewise
};

struct NodeCommandStats {
    std::string node;  // "host:port"
    std::uint64_t commands = 0;
    std::uint64_t maxPerSecond = 0;
    std::uint64_t p99PerSecond = 0;
    std::uint64_t flushParts = 0;  // flushes that sent it anything
    std::uint64_t maxPerFlush = 0;
    std::uint64_t settledCommands = 0;  // sent in seconds >= TallySummary::settledFrom
};

struct TallySummary {
    std::uint64_t flushes = 0;
    std::uint64_t lateReports = 0;
    std::uint64_t maxWritesPerKeyPerSecond = 0;
    std::vector<KeyWriteStats> keys;  // most writes per second first (then writes, then tag)
    std::size_t splitItems = 0;       // items written under sub-items at some time
    Timestamp settledFrom = 0;        // every split item's first sub-item second + 2; 0: none split
    std::vector<NodeCommandStats> nodes;  // by address
    double lagMedian = 0, lagP99 = 0, lagMax = 0;
};

class FlushTally {
public:
    void add(const FlushReport& report);
    std::uint64_t flushes() const;
    // Everything tallied, with p99s over the seconds firstSecond .. lastSecond.
    TallySummary summary(Timestamp firstSecond, Timestamp lastSecond) const;

private:
    using Histogram = std::map<std::uint64_t, std::uint64_t>;  // writes in a second -> seconds
    void foldBefore(Timestamp second);

    mutable std::mutex m_mutex;  // guards every member below
    std::map<Timestamp, std::unordered_map<std::string, std::uint64_t>> m_open;  // by second
    std::unordered_map<std::string, Histogram> m_folded;                         // by tag
    std::unordered_map<std::string, std::uint64_t> m_writes;                     // by tag
    Timestamp m_foldedBefore = 0;
    std::map<Timestamp, std::map<std::string, std::uint64_t>> m_nodeSeconds;
    std::map<std::string, NodeCommandStats> m_nodes;
    std::unordered_map<std::string, Timestamp> m_firstSubItemSecond;  // by split item
    std::vector<double> m_lags;
    std::uint64_t m_flushes = 0;
    std::uint64_t m_late = 0;
};

}  // namespace hitcounter::fleet
