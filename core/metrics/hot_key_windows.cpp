#include "core/metrics/hot_key_windows.h"

#include <algorithm>
#include <stdexcept>

#include "core/base/saturating.h"
#include "core/metrics/label_text.h"
#include "core/sketches/hyper_log_log.h"

namespace hitcounter::metrics {

struct HotKeyWindows::Row {
    std::string label;
    Count total = 0;
    KeySeries series;
    std::unique_ptr<WindowedUniques> visitors;  // made by the first hit with a visitor
};

namespace {

std::int64_t longestOf(const HotKeyOptions& options) {
    if (options.maxKeys == 0) {
        throw std::invalid_argument("HotKeyWindows: maxKeys must be at least 1");
    }
    if (options.windows.empty()) {
        throw std::invalid_argument("HotKeyWindows: at least one window is needed");
    }
    if (options.uniquesWindow.count() < 1) {
        throw std::invalid_argument("HotKeyWindows: the uniques window must be at least 1 s");
    }
    std::int64_t longest = 0;
    for (const auto w : options.windows) {
        if (w.count() < 1) {
            throw std::invalid_argument("HotKeyWindows: every window must be at least 1 s");
        }
        longest = std::max<std::int64_t>(longest, w.count());
    }
    return longest;
}

std::size_t sketchCapacity(std::size_t maxKeys) {
    return std::clamp<std::size_t>(2 * maxKeys, 64, 1024);
}

void addVisitor(std::unique_ptr<WindowedUniques>& visitors, std::chrono::seconds window,
                Timestamp t, std::string_view visitor) {
    if (visitor.empty()) {
        return;
    }
    if (!visitors) {
        visitors = std::make_unique<WindowedUniques>(window);
    }
    visitors->add(t, HyperLogLog::hashOf(visitor));
}

}  // namespace

HotKeyWindows::HotKeyWindows(HotKeyOptions options)
    : m_options(std::move(options)),
      m_longest(longestOf(m_options)),
      m_otherWindows(m_options.windows),
      m_candidates(kHotWindow, sketchCapacity(m_options.maxKeys)) {}

HotKeyWindows::~HotKeyWindows() = default;

Timestamp HotKeyWindows::clampToNow(Timestamp t, Timestamp now) {
    advance(now);
    return std::min(t, m_head);
}

bool HotKeyWindows::tooOld(Timestamp t) const {
    return t <= m_head - m_longest;
}

void HotKeyWindows::advance(Timestamp now) {
    if (m_started && now <= m_head) {
        return;
    }
    m_started = true;
    m_head = now;
    m_otherWindows.advance(now);
    m_candidates.advance(now);
    if (m_otherVisitors) {
        m_otherVisitors->advance(now);
    }
    for (auto& [key, row] : m_rows) {
        row->series.expire(now - m_longest);
        if (row->visitors) {
            row->visitors->advance(now);
        }
    }
}

HotKeyWindows::Row* HotKeyWindows::rowFor(std::string_view key) {
    if (const auto found = m_rows.find(key); found != m_rows.end()) {
        return found->second.get();
    }
    if (m_rows.size() >= m_options.maxKeys) {
        return nullptr;
    }
    std::string label = keyLabel(key, m_options.labelBytes);
    if (label == kOtherLabel || m_labels.contains(label)) {
        return nullptr;
    }
    auto row = std::make_unique<Row>();
    row->label = label;
    m_labels.insert(std::move(label));
    return m_rows.emplace(std::string(key), std::move(row)).first->second.get();
}

void HotKeyWindows::add(const HitEvent& hit, Timestamp now) {
    const Timestamp t = clampToNow(hit.time, now);
    const bool windowed = !tooOld(t);
    if (!windowed) {
        m_tooOld = saturatingAdd(m_tooOld, hit.count);
    }
    Row* row = rowFor(hit.key);
    if (!row) {
        addToOther(hit, t, windowed);
        return;
    }
    row->total = saturatingAdd(row->total, hit.count);
    if (windowed) {
        row->series.hit(t, hit.count);
        addVisitor(row->visitors, m_options.uniquesWindow, t, hit.visitor);
    }
}

void HotKeyWindows::add(const HitBatch& batch, Timestamp now) {
    for (const HitEvent& hit : batch) {
        add(hit, now);
    }
}

void HotKeyWindows::addToOther(const HitEvent& hit, Timestamp t, bool windowed) {
    m_otherTotal = saturatingAdd(m_otherTotal, hit.count);
    if (!windowed) {
        return;
    }
    m_otherWindows.hit(t, hit.count);
    addVisitor(m_otherVisitors, m_options.uniquesWindow, t, hit.visitor);
    m_candidates.add(t, hit.key, hit.count);
    m_otherHitSinceRebalance = true;
}

Count HotKeyWindows::hotCount(const Row& row) const {
    return row.series.between(m_head - kHotWindow.count(), m_head);
}

void HotKeyWindows::fold(Rows::iterator found) {
    Row& row = *found->second;
    m_otherTotal = saturatingAdd(m_otherTotal, row.total);
    // Second by second, so that other's windows stay the exact sums of what they held.
    for (Timestamp s = m_head - m_longest + 1; s <= m_head; ++s) {
        if (const Count n = row.series.between(s - 1, s); n > 0) {
            m_otherWindows.hit(s, n);
        }
    }
    m_labels.erase(row.label);
    m_rows.erase(found);
}

void HotKeyWindows::rebalance(Timestamp now) {
    advance(now);
    if (m_rows.size() < m_options.maxKeys || !m_otherHitSinceRebalance) {
        return;
    }
    m_otherHitSinceRebalance = false;
    const auto candidates = m_candidates.top(kMaxSwaps, m_head - kHotWindow.count(), m_head);
    // The coldest rows, coldest first: the ones a candidate may replace.
    std::vector<std::pair<Count, Rows::iterator>> cold;
    cold.reserve(m_rows.size());
    for (auto it = m_rows.begin(); it != m_rows.end(); ++it) {
        cold.emplace_back(hotCount(*it->second), it);
    }
    const std::size_t keep = std::min(kMaxSwaps, cold.size());
    std::partial_sort(cold.begin(), cold.begin() + static_cast<std::ptrdiff_t>(keep), cold.end(),
                      [](const auto& a, const auto& b) {
                          return a.first != b.first
                                     ? a.first < b.first
                                     : a.second->second->label < b.second->second->label;
                      });
    std::size_t next = 0;
    for (const auto& candidate : candidates.top) {
        if (next == keep) {
            break;
        }
        if (m_rows.contains(candidate.key)) {
            continue;
        }
        const Count coldest = cold[next].first;
        const bool twiceAsHot = candidate.lower > coldest && candidate.lower - coldest > coldest;
        if (candidate.lower < kMinSwapHits || !twiceAsHot) {
            break;
        }
        std::string label = keyLabel(candidate.key, m_options.labelBytes);
        if (label == kOtherLabel ||
            (m_labels.contains(label) && label != cold[next].second->second->label)) {
            continue;
        }
        fold(cold[next++].second);
        auto row = std::make_unique<Row>();
        row->label = label;
        m_labels.insert(std::move(label));
        m_rows.emplace(candidate.key, std::move(row));
        m_swaps = saturatingAdd(m_swaps, Count{1});
    }
}

void HotKeyWindows::setMaxKeys(std::size_t maxKeys, Timestamp now) {
    if (maxKeys == 0) {
        throw std::invalid_argument("HotKeyWindows: maxKeys must be at least 1");
    }
    advance(now);
    while (m_rows.size() > maxKeys) {
        auto coldest = m_rows.begin();
        Count coldestCount = hotCount(*coldest->second);
        for (auto it = std::next(m_rows.begin()); it != m_rows.end(); ++it) {
            const Count c = hotCount(*it->second);
            if (c < coldestCount ||
                (c == coldestCount && it->second->label < coldest->second->label)) {
                coldest = it;
                coldestCount = c;
            }
        }
        fold(coldest);
    }
    m_options.maxKeys = maxKeys;
}

KeyWindowRow HotKeyWindows::rowValues(const Row& row) const {
    KeyWindowRow values{.label = row.label, .total = row.total, .windows = {}, .uniques = {}};
    for (const auto w : m_options.windows) {
        values.windows.push_back(row.series.between(m_head - w.count(), m_head));
    }
    if (row.visitors) {
        values.uniques = row.visitors->estimate(m_head - m_options.uniquesWindow.count(), m_head);
    }
    return values;
}

std::vector<KeyWindowRow> HotKeyWindows::rows(Timestamp now) {
    advance(now);
    std::vector<std::pair<Count, KeyWindowRow>> ranked;
    ranked.reserve(m_rows.size());
    for (const auto& [key, row] : m_rows) {
        ranked.emplace_back(hotCount(*row), rowValues(*row));
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second.label < b.second.label;
    });
    std::vector<KeyWindowRow> values;
    values.reserve(ranked.size());
    for (auto& [count, row] : ranked) {
        values.push_back(std::move(row));
    }
    return values;
}

KeyWindowRow HotKeyWindows::other(Timestamp now) {
    advance(now);
    KeyWindowRow values{
        .label = std::string(kOtherLabel), .total = m_otherTotal, .windows = {}, .uniques = {}};
    for (const auto w : m_options.windows) {
        values.windows.push_back(m_otherWindows.countLast(m_head, w));
    }
    if (m_otherVisitors) {
        values.uniques =
            m_otherVisitors->estimate(m_head - m_options.uniquesWindow.count(), m_head);
    }
    return values;
}

}  // namespace hitcounter::metrics
