#include "core/fleet/flush_tally.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace hitcounter::fleet {

namespace {

constexpr Timestamp kFoldAfterSeconds = 10;
constexpr Timestamp kSecondsToSettleASplit = 2;

// The item a sub-item's tag belongs to, or nullopt if `tag` is not a sub-item's.
std::optional<std::string> splitItemOf(const std::string& tag) {
    const auto separator = tag.find('\x1f');
    if (separator == std::string::npos)
        return std::nullopt;
    return tag.substr(0, separator);
}

// The nearest-rank p-th percentile of `histogram` plus `zeros` seconds without writes.
std::uint64_t percentile(const std::map<std::uint64_t, std::uint64_t>& histogram,
                         std::uint64_t zeros, double p) {
    std::uint64_t total = zeros;
    for (const auto& [value, seconds] : histogram)
        total += seconds;
    if (total == 0)
        return 0;
    const auto rank = std::uint64_t(std::ceil(p * double(total)));
    std::uint64_t seen = zeros;
    if (seen >= rank)
        return 0;
    for (const auto& [value, seconds] : histogram) {
        seen += seconds;
        if (seen >= rank)
            return value;
    }
    return histogram.empty() ? 0 : histogram.rbegin()->first;
}

double quantile(std::vector<double> values, double p) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto rank = std::size_t(std::ceil(p * double(values.size())));
    return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

}  // namespace

void FlushTally::add(const FlushReport& report) {
    const auto second = Timestamp(std::floor(report.sentAt));
    std::lock_guard lock(m_mutex);
    ++m_flushes;
    m_lags.push_back(report.lagSeconds);
    for (const auto& [node, commands] : report.commandsPerNode) {
        m_nodeSeconds[second][node] += commands;
        NodeCommandStats& n = m_nodes[node];
        n.node = node;
        n.commands += commands;
        ++n.flushParts;
        n.maxPerFlush = std::max(n.maxPerFlush, commands);
    }
    for (const std::string& tag : report.writtenTags) {
        ++m_writes[tag];
        if (const auto item = splitItemOf(tag)) {
            const auto [it, first] = m_firstSubItemSecond.try_emplace(*item, second);
            if (!first)
                it->second = std::min(it->second, second);
        }
    }
    if (second < m_foldedBefore) {
        ++m_late;
        std::unordered_map<std::string, std::uint64_t> alone;
        for (const std::string& tag : report.writtenTags)
            ++alone[tag];
        for (const auto& [tag, writes] : alone)
            ++m_folded[tag][writes];
        return;
    }
    auto& open = m_open[second];
    for (const std::string& tag : report.writtenTags)
        ++open[tag];
    foldBefore(m_open.rbegin()->first - kFoldAfterSeconds);
}

void FlushTally::foldBefore(Timestamp second) {
    while (!m_open.empty() && m_open.begin()->first < second) {
        for (const auto& [tag, writes] : m_open.begin()->second)
            ++m_folded[tag][writes];
        m_open.erase(m_open.begin());
    }
    m_foldedBefore = std::max(m_foldedBefore, second);
}

std::uint64_t FlushTally::flushes() const {
    std::lock_guard lock(m_mutex);
    return m_flushes;
}

TallySummary FlushTally::summary(Timestamp firstSecond, Timestamp lastSecond) const {
    std::lock_guard lock(m_mutex);
    const auto span = std::uint64_t(std::max<Timestamp>(lastSecond - firstSecond + 1, 1));
    std::unordered_map<std::string, Histogram> histograms = m_folded;
    for (const auto& [second, tags] : m_open)
        for (const auto& [tag, writes] : tags)
            ++histograms[tag][writes];
    TallySummary s;
    s.flushes = m_flushes;
    s.lateReports = m_late;
    for (const auto& [tag, histogram] : histograms) {
        std::uint64_t seconds = 0;
        for (const auto& [value, n] : histogram)
            seconds += n;
        const std::uint64_t zeros = span > seconds ? span - seconds : 0;
        KeyWriteStats k{tag, m_writes.at(tag), histogram.rbegin()->first,
                        percentile(histogram, zeros, 0.99), percentile(histogram, zeros, 0.5)};
        s.maxWritesPerKeyPerSecond = std::max(s.maxWritesPerKeyPerSecond, k.maxPerSecond);
        s.keys.push_back(std::move(k));
    }
    std::sort(s.keys.begin(), s.keys.end(), [](const KeyWriteStats& a, const KeyWriteStats& b) {
        if (a.maxPerSecond != b.maxPerSecond)
            return a.maxPerSecond > b.maxPerSecond;
        return a.writes != b.writes ? a.writes > b.writes : a.tag < b.tag;
    });
    s.splitItems = m_firstSubItemSecond.size();
    for (const auto& [item, second] : m_firstSubItemSecond)
        s.settledFrom = std::max(s.settledFrom, second + kSecondsToSettleASplit);
    for (const auto& [address, totals] : m_nodes) {
        NodeCommandStats n = totals;
        Histogram perSecond;
        std::uint64_t seconds = 0;
        for (const auto& [second, nodes] : m_nodeSeconds)
            if (const auto it = nodes.find(address); it != nodes.end()) {
                ++perSecond[it->second];
                ++seconds;
                if (s.settledFrom > 0 && second >= s.settledFrom)
                    n.settledCommands += it->second;
            }
        n.maxPerSecond = perSecond.empty() ? 0 : perSecond.rbegin()->first;
        n.p99PerSecond = percentile(perSecond, span > seconds ? span - seconds : 0, 0.99);
        s.nodes.push_back(std::move(n));
    }
    s.lagMedian = quantile(m_lags, 0.5);
    s.lagP99 = quantile(m_lags, 0.99);
    s.lagMax = m_lags.empty() ? 0 : *std::max_element(m_lags.begin(), m_lags.end());
    return s;
}

}  // namespace hitcounter::fleet
