#include "core/keyed/keyed_counter.h"

#include <algorithm>
#include <stdexcept>

#include "core/base/saturating.h"

namespace hitcounter {

namespace {
// What an unordered_map node costs besides the value: the next pointer and the cached hash.
constexpr std::size_t kNodeOverhead = 2 * sizeof(void*);

std::size_t stringHeapBytes(const std::string& s) {
    return s.capacity() > std::string().capacity() ? s.capacity() + 1 : 0;
}
}  // namespace

KeyedCounter::KeyedCounter(KeyedOptions options)
    : m_window(options.window.count()),
      m_retention(options.retention.count() != 0 ? options.retention.count() : m_window),
      m_idle(options.idle.count() != 0 ? options.idle.count() : 2 * m_retention),
      m_onEvict(std::move(options.onEvict)) {
    if (m_window <= 0) {
        throw std::invalid_argument("window must be at least 1 second");
    }
    if (m_retention < m_window) {
        throw std::invalid_argument("retention must be at least the window");
    }
    if (m_idle < m_retention) {
        throw std::invalid_argument("idle time before eviction must be at least the retention");
    }
}

KeyedCounter::~KeyedCounter() = default;

void KeyedCounter::advance(Timestamp now) {
    if (m_started && now <= m_head) {
        return;
    }
    m_started = true;
    m_head = now;
    evictIdle();
}

void KeyedCounter::unlink(Entry& entry) {
    (entry.older ? entry.older->newer : m_oldest) = entry.newer;
    (entry.newer ? entry.newer->older : m_newest) = entry.older;
    entry.older = entry.newer = nullptr;
}

void KeyedCounter::touch(Entry& entry) {
    entry.touched = m_head;
    if (m_newest == &entry) {
        return;
    }
    if (entry.older || entry.newer || m_oldest == &entry) {
        unlink(entry);
    }
    entry.older = m_newest;
    (m_newest ? m_newest->newer : m_oldest) = &entry;
    m_newest = &entry;
}

void KeyedCounter::evictIdle() {
    while (m_oldest && m_oldest->touched <= m_head - m_idle) {
        Entry& entry = *m_oldest;
        unlink(entry);
        const auto node = m_entries.find(*entry.key);
        EvictedKey evicted{*entry.key, entry.series.total(), {}};
        if (entry.visitors) {
            evicted.visitors = std::move(entry.visitors->allTime);
        }
        m_entries.erase(node);
        ++m_evicted;
        if (m_onEvict) {
            m_onEvict(std::move(evicted));
        } else {
            m_archive.insert_or_assign(std::move(evicted.key),
                                       Archived{evicted.allTime, std::move(evicted.visitors)});
        }
    }
}

void KeyedCounter::setWindow(std::chrono::seconds w) {
    if (w.count() <= 0 || w.count() > m_retention) {
        throw std::invalid_argument("window must be between 1 second and the retention");
    }
    m_window = w.count();
    for (auto& [key, entry] : m_entries) {
        if (entry.visitors) {
            entry.visitors->window.setRetention(w);
        }
    }
}

KeyedCounter::Entry& KeyedCounter::entryFor(std::string_view key) {
    if (const auto it = m_entries.find(key); it != m_entries.end()) {
        return it->second;
    }
    Entry fresh;
    std::unique_ptr<Visitors> restoredVisitors;
    if (const auto archived = m_archive.find(key); archived != m_archive.end()) {
        fresh.series = KeySeries(archived->second.allTime);
        if (!archived->second.visitors.empty()) {
            fresh.visitors = std::make_unique<Visitors>(
                Visitors{std::move(archived->second.visitors), WindowedUniques(window())});
        }
        m_archive.erase(archived);
    }
    const auto [it, inserted] = m_entries.emplace(std::string(key), std::move(fresh));
    it->second.key = &it->first;
    return it->second;
}

const KeyedCounter::Entry* KeyedCounter::find(std::string_view key) const {
    const auto it = m_entries.find(key);
    return it == m_entries.end() ? nullptr : &it->second;
}

void KeyedCounter::hit(Timestamp t, std::string_view key, std::string_view visitor, Count n) {
    advance(t);
    if (t <= m_head - m_retention) {
        m_droppedLate = saturatingAdd(m_droppedLate, n);
        return;
    }
    Entry& entry = entryFor(key);
    touch(entry);
    entry.series.expire(m_head - m_retention);
    entry.series.hit(t, n);
    if (visitor.empty()) {
        return;
    }
    if (!entry.visitors) {
        entry.visitors = std::make_unique<Visitors>(Visitors{{}, WindowedUniques(window())});
    }
    const std::uint64_t hash = HyperLogLog::hashOf(visitor);
    entry.visitors->allTime.add(hash);
    entry.visitors->window.add(t, hash);
}

Count KeyedCounter::count(std::string_view key, Timestamp now) {
    return countLast(key, now, window());
}

Count KeyedCounter::countLast(std::string_view key, Timestamp now, std::chrono::seconds w) {
    if (w.count() <= 0 || w.count() > m_retention) {
        throw std::invalid_argument("window must be between 1 second and the retention");
    }
    advance(now);
    const Entry* entry = find(key);
    if (!entry) {
        return 0;
    }
    // A query into the past sees only the retained seconds, (head - W, now].
    return entry->series.between(std::max(now, m_head) - w.count(), now);
}

Count KeyedCounter::between(std::string_view key, Timestamp from, Timestamp to) const {
    const Entry* entry = find(key);
    if (!entry || to <= from) {
        return 0;
    }
    return entry->series.between(std::max(from, m_head - m_retention), to);
}

Count KeyedCounter::allTime(std::string_view key) const {
    if (const Entry* entry = find(key)) {
        return entry->series.total();
    }
    const auto archived = m_archive.find(key);
    return archived == m_archive.end() ? 0 : archived->second.allTime;
}

std::uint64_t KeyedCounter::uniques(std::string_view key, Timestamp now) {
    advance(now);
    const Entry* entry = find(key);
    if (!entry || !entry->visitors) {
        return 0;
    }
    return entry->visitors->window.estimate(std::max(now, m_head) - m_window, now);
}

std::uint64_t KeyedCounter::allTimeUniques(std::string_view key) const {
    if (const Entry* entry = find(key)) {
        return entry->visitors ? entry->visitors->allTime.estimate() : 0;
    }
    const auto archived = m_archive.find(key);
    return archived == m_archive.end() ? 0 : archived->second.visitors.estimate();
}

template <typename Visit>
void KeyedCounter::forEachWindowCount(Timestamp now, Visit visit) {
    advance(now);
    const Timestamp from = std::max(now, m_head) - m_window;
    for (const auto& [key, entry] : m_entries) {
        if (const Count c = entry.series.between(from, now); c > 0) {
            visit(key, c);
        }
    }
}

std::vector<KeyCount> KeyedCounter::windowCounts(Timestamp now) {
    std::vector<KeyCount> counts;
    forEachWindowCount(now, [&](const std::string& key, Count c) {
        counts.push_back(KeyCount{key, c});
    });
    return counts;
}

std::vector<KeyCount> KeyedCounter::top(std::size_t k, Timestamp now) {
    // Rank pointers to the keys and copy only the k that are returned.
    std::vector<std::pair<const std::string*, Count>> counts;
    forEachWindowCount(now, [&](const std::string& key, Count c) { counts.emplace_back(&key, c); });
    const std::size_t kept = std::min(k, counts.size());
    std::partial_sort(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(kept),
                      counts.end(), [](const auto& a, const auto& b) {
                          return a.second != b.second ? a.second > b.second : *a.first < *b.first;
                      });
    std::vector<KeyCount> top;
    top.reserve(kept);
    for (std::size_t i = 0; i < kept; ++i) {
        top.push_back(KeyCount{*counts[i].first, counts[i].second});
    }
    return top;
}

std::size_t KeyedCounter::entryBytes(const std::string& key, const Entry& entry) const {
    std::size_t bytes = sizeof(Map::value_type) + kNodeOverhead + stringHeapBytes(key) +
                        entry.series.memoryBytes() - sizeof(KeySeries);
    if (entry.visitors) {
        bytes += sizeof(Visitors) + entry.visitors->allTime.memoryBytes() - sizeof(HyperLogLog) +
                 entry.visitors->window.memoryBytes() - sizeof(WindowedUniques);
    }
    return bytes;
}

std::size_t KeyedCounter::memoryBytes(std::string_view key) const {
    const auto it = m_entries.find(key);
    return it == m_entries.end() ? 0 : entryBytes(it->first, it->second);
}

std::size_t KeyedCounter::archiveBytes() const {
    std::size_t bytes = m_archive.bucket_count() * sizeof(void*);
    for (const auto& [key, archived] : m_archive) {
        bytes += sizeof(decltype(m_archive)::value_type) + kNodeOverhead + stringHeapBytes(key) +
                 archived.visitors.memoryBytes() - sizeof(HyperLogLog);
    }
    return bytes;
}

std::size_t KeyedCounter::memoryBytes() const {
    std::size_t bytes = sizeof(*this) + m_entries.bucket_count() * sizeof(void*);
    for (const auto& [key, entry] : m_entries) {
        bytes += entryBytes(key, entry);
    }
    return bytes + archiveBytes();
}

}  // namespace hitcounter
