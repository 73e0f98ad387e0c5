#include "core/keyed/keyed_counter.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

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
      m_onEvict(std::move(options.onEvict)),
      m_maxKeyBytes(options.maxKeyBytes) {
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

Count KeyedCounter::between(Id id, Timestamp from, Timestamp to) const {
    const Count counted = m_entries[id].series.between(from, to);
    return from < m_head && m_head <= to ? saturatingAdd(counted, m_headHits[id].count) : counted;
}

Count KeyedCounter::total(Id id) const {
    return saturatingAdd(m_entries[id].series.total(), m_headHits[id].count);
}

void KeyedCounter::advance(Timestamp now) {
    if (m_started && now <= m_head) {
        return;
    }
    foldPending();
    m_started = true;
    m_head = now;
    evictIdle();
}

void KeyedCounter::foldPending() {
    for (const Id id : m_pending) {
        HeadHits& head = m_headHits[id];
        head.listed = false;
        if (!m_ids.live(id)) {
            continue;  // folded under the key memory cap after its hit
        }
        if (head.count > 0) {
            Entry& entry = m_entries[id];
            entry.series.expire(m_head - m_retention);
            entry.series.hit(m_head, std::exchange(head.count, 0));
        }
        touch(id);
    }
    m_pending.clear();
}

void KeyedCounter::unlink(Id id) {
    Entry& entry = m_entries[id];
    (entry.older != kNone ? m_entries[entry.older].newer : m_oldest) = entry.newer;
    (entry.newer != kNone ? m_entries[entry.newer].older : m_newest) = entry.older;
    entry.older = entry.newer = kNone;
    entry.linked = false;
}

void KeyedCounter::touch(Id id) {
    Entry& entry = m_entries[id];
    entry.touched = m_head;
    if (m_newest == id) {
        return;
    }
    if (entry.linked) {
        unlink(id);
    }
    entry.older = m_newest;
    (m_newest != kNone ? m_entries[m_newest].newer : m_oldest) = id;
    m_newest = id;
    entry.linked = true;
}

void KeyedCounter::evictIdle() {
    while (m_oldest != kNone && m_entries[m_oldest].touched <= m_head - m_idle) {
        const Id id = m_oldest;
        unlink(id);
        m_keyBytes -= liveKeyBytes(id);
        Entry& entry = m_entries[id];
        EvictedKey evicted{m_ids.key(id), total(id), {}};
        if (entry.visitors) {
            evicted.visitors = std::move(entry.visitors->allTime);
        }
        entry = Entry();
        m_ids.erase(id);
        ++m_evicted;
        if (m_onEvict) {
            m_onEvict(std::move(evicted));
        } else {
            m_keyBytes += archivedKeyBytes(evicted.key);
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
    for (Id id = 0; id < m_ids.idLimit(); ++id) {
        if (m_entries[id].visitors) {
            m_entries[id].visitors->window.setRetention(w);
        }
        if (m_entries[id].measures) {
            m_entries[id].measures->setRetention(w);
        }
    }
}

KeyedCounter::Id KeyedCounter::idFor(std::string_view key) {
    const std::size_t known = m_ids.size();
    const Id id = m_ids.intern(key);
    if (m_ids.size() == known) {
        return id;
    }
    if (id >= m_entries.size()) {
        m_entries.resize(id + std::size_t{1});
        m_headHits.resize(id + std::size_t{1});
    }
    Entry& fresh = m_entries[id];
    if (const auto archived = m_archive.find(key); archived != m_archive.end()) {
        fresh.series = KeySeries(archived->second.allTime);
        if (!archived->second.visitors.empty()) {
            fresh.visitors = std::make_unique<Visitors>(
                Visitors{std::move(archived->second.visitors), WindowedUniques(window())});
        }
        m_keyBytes -= archivedKeyBytes(archived->first);
        m_archive.erase(archived);
    }
    m_keyBytes += liveKeyBytes(id);
    touch(id);  // in the eviction list at once: the cap may fold it within this second
    makeRoom(id);
    return id;
}

std::size_t KeyedCounter::liveKeyBytes(Id id) const {
    constexpr std::size_t kOnePoint = 32;  // a series' first allocation, one point
    return sizeof(Entry) + sizeof(HeadHits) + sizeof(Id) + KeyInterner::bytesPerKey(m_ids.key(id)) +
           kOnePoint;
}

std::size_t KeyedCounter::archivedKeyBytes(const std::string& key) {
    return sizeof(decltype(m_archive)::value_type) + kNodeOverhead + key.size() + 1;
}

void KeyedCounter::makeRoom(Id keep) {
    while (m_maxKeyBytes != 0 && m_keyBytes > m_maxKeyBytes) {
        if (!m_archive.empty()) {
            const auto folded = m_archive.begin();
            m_foldedHits = saturatingAdd(m_foldedHits, folded->second.allTime);
            ++m_foldedKeys;
            m_keyBytes -= archivedKeyBytes(folded->first);
            m_archive.erase(folded);
        } else if (m_oldest != kNone && m_oldest != keep) {
            foldLive(m_oldest);
        } else {
            return;  // only `keep` (and keys not yet in the eviction list) left
        }
    }
}

void KeyedCounter::foldLive(Id id) {
    unlink(id);
    m_keyBytes -= liveKeyBytes(id);
    m_foldedHits = saturatingAdd(m_foldedHits, total(id));
    ++m_foldedKeys;
    // A listed head count stays listed at 0: foldPending() skips the dead id, or the next key
    // given this id uses the listing.
    m_headHits[id].count = 0;
    m_entries[id] = Entry();
    m_ids.erase(id);
}

void KeyedCounter::hit(Timestamp t, std::string_view key, std::string_view visitor, Count n) {
    countHit(t, key, visitor, n);
}

void KeyedCounter::hit(const HitEvent& event) {
    if (const Id id = countHit(event.time, event.key, event.visitor, event.count); id != kNone) {
        addMeasures(id, event);
    }
}

void KeyedCounter::measure(const HitEvent& event) {
    if (!event.hasBytes() && !event.hasSeconds()) {
        return;
    }
    advance(event.time);
    if (event.time <= m_head - m_retention) {
        return;
    }
    const Id id = idFor(event.key);
    touch(id);  // kept as long as a hit would keep it
    addMeasures(id, event);
}

void KeyedCounter::addMeasures(Id id, const HitEvent& event) {
    if (!event.hasBytes() && !event.hasSeconds()) {
        return;
    }
    Entry& entry = m_entries[id];
    if (!entry.measures) {
        entry.measures = std::make_unique<WindowedMeasures>(window());
    }
    entry.measures->add(event);
}

KeyedCounter::Id KeyedCounter::countHit(Timestamp t, std::string_view key, std::string_view visitor,
                                        Count n) {
    advance(t);
    if (t <= m_head - m_retention) {
        m_droppedLate = saturatingAdd(m_droppedLate, n);
        return kNone;
    }
    const Id id = idFor(key);
    if (t == m_head) [[likely]] {
        // Counted into the series when the head moves on (foldPending touches it then).
        HeadHits& head = m_headHits[id];
        head.count = saturatingAdd(head.count, n);
        if (!head.listed) {
            head.listed = true;
            m_pending.push_back(id);
        }
    } else {
        touch(id);
        m_entries[id].series.expire(m_head - m_retention);
        m_entries[id].series.hit(t, n);
    }
    if (visitor.empty()) {
        return id;
    }
    Entry& entry = m_entries[id];
    if (!entry.visitors) {
        entry.visitors = std::make_unique<Visitors>(Visitors{{}, WindowedUniques(window())});
    }
    const std::uint64_t hash = HyperLogLog::hashOf(visitor);
    entry.visitors->allTime.add(hash);
    entry.visitors->window.add(t, hash);
    return id;
}

Count KeyedCounter::count(std::string_view key, Timestamp now) {
    return countLast(key, now, window());
}

Count KeyedCounter::countLast(std::string_view key, Timestamp now, std::chrono::seconds w) {
    if (w.count() <= 0 || w.count() > m_retention) {
        throw std::invalid_argument("window must be between 1 second and the retention");
    }
    advance(now);
    const Id id = m_ids.find(key);
    // A query into the past sees only the retained seconds, (head - W, now].
    return id == kNone ? 0 : between(id, std::max(now, m_head) - w.count(), now);
}

Count KeyedCounter::between(std::string_view key, Timestamp from, Timestamp to) const {
    const Id id = m_ids.find(key);
    if (id == kNone || to <= from) {
        return 0;
    }
    return between(id, std::max(from, m_head - m_retention), to);
}

Count KeyedCounter::allTime(std::string_view key) const {
    if (const Id id = m_ids.find(key); id != kNone) {
        return total(id);
    }
    const auto archived = m_archive.find(key);
    return archived == m_archive.end() ? 0 : archived->second.allTime;
}

std::uint64_t KeyedCounter::uniques(std::string_view key, Timestamp now) {
    advance(now);
    const Id id = m_ids.find(key);
    if (id == kNone || !m_entries[id].visitors) {
        return 0;
    }
    return m_entries[id].visitors->window.estimate(std::max(now, m_head) - m_window, now);
}

MeasuresSummary KeyedCounter::measures(std::string_view key, Timestamp now) {
    advance(now);
    const Id id = m_ids.find(key);
    if (id == kNone || !m_entries[id].measures) {
        return {};
    }
    // At the counter's head first, so that a query into the past sees (head - W, now].
    WindowedMeasures& measures = *m_entries[id].measures;
    measures.advance(m_head);
    return measures.window(now);
}

std::uint64_t KeyedCounter::allTimeUniques(std::string_view key) const {
    if (const Id id = m_ids.find(key); id != kNone) {
        return m_entries[id].visitors ? m_entries[id].visitors->allTime.estimate() : 0;
    }
    const auto archived = m_archive.find(key);
    return archived == m_archive.end() ? 0 : archived->second.visitors.estimate();
}

template <typename Visit>
void KeyedCounter::forEachWindowCount(Timestamp now, Visit visit) {
    advance(now);
    const Timestamp from = std::max(now, m_head) - m_window;
    for (Id id = 0; id < m_ids.idLimit(); ++id) {
        if (!m_ids.live(id)) {
            continue;
        }
        if (const Count c = between(id, from, now); c > 0) {
            visit(m_ids.key(id), c);
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

std::size_t KeyedCounter::Entry::heapBytes() const {
    std::size_t bytes = series.memoryBytes() - sizeof(KeySeries);
    if (visitors) {
        bytes += sizeof(Visitors) + visitors->allTime.memoryBytes() - sizeof(HyperLogLog) +
                 visitors->window.memoryBytes() - sizeof(WindowedUniques);
    }
    if (measures) {
        bytes += measures->memoryBytes();
    }
    return bytes;
}

std::size_t KeyedCounter::entryBytes(Id id) const {
    // The entry, its head hits and place in m_pending, its share of the id table, and what it
    // points to.
    return sizeof(Entry) + sizeof(HeadHits) + sizeof(Id) + KeyInterner::bytesPerKey(m_ids.key(id)) +
           m_entries[id].heapBytes();
}

std::size_t KeyedCounter::memoryBytes(std::string_view key) const {
    const Id id = m_ids.find(key);
    return id == kNone ? 0 : entryBytes(id);
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
    std::size_t bytes = sizeof(*this) + m_ids.memoryBytes() - sizeof(KeyInterner) +
                        m_entries.capacity() * sizeof(Entry) +
                        m_headHits.capacity() * sizeof(HeadHits) +
                        m_pending.capacity() * sizeof(Id);
    for (Id id = 0; id < m_ids.idLimit(); ++id) {
        bytes += m_entries[id].heapBytes();
    }
    return bytes + archiveBytes();
}

}  // namespace hitcounter
