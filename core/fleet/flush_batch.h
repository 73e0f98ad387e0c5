// FlushBatch: the hits of one instance aggregated per (item, second), plus the distinct
// visitors per (item, minute): what one flush writes to Redis, whatever the hit rate.
//
// Not thread-safe (RedisSink guards its batches with its own mutex). Bounded: a batch holds at
// most `maxEntries` entries, an entry being one (item, second) count or one (item, minute,
// visitor), and at most `maxBytes` by bytes(): the bytes of the item names and visitor ids it
// holds plus a fixed estimate of the containers' overhead per item (kItemBytes), second
// (kSecondBytes), visitor minute (kMinuteBytes) and visitor (kVisitorBytes). Hits of an (item,
// second) already held always merge (no new memory); hits that would need a new entry in a
// full batch are refused and returned as dropped. A visitor that does not fit is not recorded
// (uniques undercount, counts stay exact).
// Example: add({10, "a", "v1", 2}); add({10, "a", "v2", 3}) -> items()["a"].seconds = {10: 5},
// items()["a"].visitors = {0: {v1, v2}} (minute 0), entries() == 3.
#pragma once

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "core/base/hit_event.h"

namespace hitcounter::fleet {

struct ItemFlush {
    std::map<Timestamp, Count> seconds;                   // unix second -> hits
    std::map<Timestamp, std::set<std::string>> visitors;  // unix minute -> distinct visitors
};

class FlushBatch {
public:
    using SteadyTime = std::chrono::steady_clock::time_point;
    static constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();

    static constexpr std::size_t kItemBytes = 256;  // a map node, an ItemFlush, its name's copy
    static constexpr std::size_t kSecondBytes = 64;
    static constexpr std::size_t kMinuteBytes = 96;
    static constexpr std::size_t kVisitorBytes = 96;

    explicit FlushBatch(std::size_t maxEntries = kUnbounded, std::size_t maxBytes = kUnbounded)
        : m_maxEntries(maxEntries), m_maxBytes(maxBytes) {}

    // Adds the event's hits (arrived at `arrival`); returns the hits refused (0 or e.count).
    Count add(const HitEvent& e, SteadyTime arrival = std::chrono::steady_clock::now());
    // Moves everything of `other` in; returns the hits refused. `other` is left empty.
    Count merge(FlushBatch&& other);
    // Records `visitor` of `key` in `minute` (creating the item, without hits, if it is not
    // held); false if the batch is full.
    bool addVisitor(const std::string& key, Timestamp minute, const std::string& visitor);
    // What oldestArrival() answers from now on (a part of a split batch keeps the whole's).
    void setOldestArrival(SteadyTime arrival) { m_oldestArrival = arrival; }

    bool empty() const { return m_items.empty(); }
    std::size_t entries() const { return m_entries; }
    std::size_t bytes() const { return m_bytes; }
    Count hits() const { return m_hits; }
    // When the oldest hit held arrived (meaningless when empty()).
    SteadyTime oldestArrival() const { return m_oldestArrival; }
    const std::map<std::string, ItemFlush>& items() const { return m_items; }

    // A binary-safe text form for the durable log (netstrings: "<length>:<bytes>,").
    std::string encode() const;
    // The batch encode() wrote; throws std::invalid_argument on a malformed text.
    static FlushBatch decode(std::string_view text);

private:
    bool addVisitor(ItemFlush& item, Timestamp minute, const std::string& visitor);
    // Room for one more entry of `bytes`.
    bool room(std::size_t bytes) const {
        return m_entries < m_maxEntries && bytes <= m_maxBytes - std::min(m_bytes, m_maxBytes);
    }
    static std::size_t visitorBytes(const std::string& visitor, bool newMinute) {
        return visitor.size() + kVisitorBytes + (newMinute ? kMinuteBytes : 0);
    }

    std::size_t m_maxEntries;
    std::size_t m_maxBytes;
    std::size_t m_entries = 0;
    std::size_t m_bytes = 0;
    Count m_hits = 0;
    SteadyTime m_oldestArrival{};
    std::map<std::string, ItemFlush> m_items;
};

}  // namespace hitcounter::fleet
