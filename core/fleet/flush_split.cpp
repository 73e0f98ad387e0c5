#include "core/fleet/flush_split.h"

#include <algorithm>

#include "core/base/saturating.h"
#include "core/fleet/fleet_keys.h"

namespace hitcounter::fleet {

namespace {

// Upper bounds of what the sink's commands (flush_commands.h) spend, RESP framing included
// (about 16 bytes per argument), on each piece of a part. Generous on purpose:
// tst_flush_split checks them against the commands themselves.
constexpr std::size_t kPartFixed = 4096;  // script and log headers, guards' instance and run
constexpr std::size_t kArg = 40;          // a number argument with its framing

struct ItemCosts {
    std::size_t item;    // once per part holding the item: keys, item script header, log, route
    std::size_t second;  // per (item, second): log, item script, top-K and fleet-second rows
    std::size_t group;   // per (item, minute) of visitors: uniques key, PFADD group header
};

ItemCosts costsOf(const std::string& item) {
    const std::size_t n = item.size();
    const std::size_t t = ItemTag(item).text().size() + 8;  // a sub-item's tag at most
    return {2 * n + 8 * t + 40 * kArg, n + 2 * t + 24 * kArg, t + 6 * kArg};
}

std::size_t visitorCost(const std::string& visitor) {
    return 2 * visitor.size() + kArg;  // the log's netstring and the PFADD argument
}

class PartBuilder {
public:
    PartBuilder(const FlushLimits& limits, FlushBatch::SteadyTime oldest, SplitFlush& out)
        : m_limits(limits), m_oldest(oldest), m_out(out) {}

    // Makes room for one entry costing `cost` plus, if the part does not hold it yet, the
    // item's (and the visitor group's) own cost; false if it cannot fit even an empty part.
    bool reserve(std::size_t cost, const ItemCosts& item, bool group) {
        std::size_t extra = (m_hasItem ? 0 : item.item) + (group && !m_hasGroup ? item.group : 0);
        if (m_entries + 1 > m_limits.entries || m_bytes + cost + extra > m_limits.bytes) {
            close();
            extra = item.item + (group ? item.group : 0);
        }
        if (kPartFixed + cost + extra > m_limits.bytes)
            return false;
        m_bytes += cost + extra;
        ++m_entries;
        m_hasItem = true;
        m_hasGroup = m_hasGroup || group;
        return true;
    }
    FlushBatch& part() { return m_part; }
    void nextItem() { m_hasItem = m_hasGroup = false; }
    void nextGroup() { m_hasGroup = false; }
    void close() {
        if (!m_part.empty()) {
            m_part.setOldestArrival(m_oldest);
            m_out.parts.push_back(std::move(m_part));
        }
        m_part = FlushBatch();
        m_bytes = kPartFixed;
        m_entries = 0;
        m_hasItem = m_hasGroup = false;
    }

private:
    const FlushLimits& m_limits;
    FlushBatch::SteadyTime m_oldest;
    SplitFlush& m_out;
    FlushBatch m_part;
    std::size_t m_bytes = kPartFixed;
    std::size_t m_entries = 0;
    bool m_hasItem = false;
    bool m_hasGroup = false;
};

void refuse(SplitFlush& out, const std::string& item) {
    if (out.refusedExample.empty())
        out.refusedExample = item.substr(0, 64);
}

}  // namespace

std::size_t flushBytesFor(std::size_t redisMax) {
    return std::min(redisMax / 2, FlushLimits::kMaxBytes);
}

SplitFlush splitFlush(const FlushBatch& batch, const FlushLimits& limits) {
    SplitFlush out;
    PartBuilder builder(limits, batch.oldestArrival(), out);
    for (const auto& [item, data] : batch.items()) {
        const ItemCosts costs = costsOf(item);
        builder.nextItem();
        for (const auto& [second, hits] : data.seconds) {
            if (builder.reserve(costs.second, costs, false)) {
                builder.part().add({second, item, {}, hits}, batch.oldestArrival());
            } else {
                out.refusedHits = saturatingAdd(out.refusedHits, hits);
                refuse(out, item);
            }
        }
        for (const auto& [minute, visitors] : data.visitors) {
            builder.nextGroup();
            for (const std::string& v : visitors) {
                if (builder.reserve(visitorCost(v), costs, true)) {
                    builder.part().addVisitor(item, minute, v);
                } else {
                    ++out.refusedVisitors;
                    refuse(out, item);
                }
            }
        }
    }
    builder.close();
    return out;
}

std::size_t partBytes(const FlushBatch& batch) {
    std::size_t bytes = kPartFixed;
    for (const auto& [item, data] : batch.items()) {
        const ItemCosts costs = costsOf(item);
        bytes += costs.item + data.seconds.size() * costs.second;
        for (const auto& [minute, visitors] : data.visitors) {
            bytes += costs.group;
            for (const std::string& v : visitors)
                bytes += visitorCost(v);
        }
    }
    return bytes;
}

}  // namespace hitcounter::fleet
