// KeyedCounter: per-item counting. Each key (page, video, metric) has its recent hits (any
// window up to the retention), its all-time total, and, when hits name a visitor, its distinct
// visitors all time and in the window. Keys that stay idle are evicted so that memory follows
// the keys active recently, not every key ever seen.
//
// Not thread-safe; owned by one thread (the engine). Feed it from one thread; see
// core/concurrent/ for counters many threads may write.
//
// Semantics (window_counter.h's rules, per key):
//  - The head is the newest second seen by hit(), advance() or any query. A hit at
//    t <= head - retention is dropped and counted in droppedLate(); later hits, late or not,
//    are counted exactly.
//  - count(key, now) = the key's hits in (now - W, now]; countLast(key, now, w) the same for
//    any w <= retention (O(log n)); a query into the past sees what is retained, as for the
//    plain counters. A query first moves the head to now if now is newer.
//  - top(k, now): the k keys with the most hits in (now - W, now], most first, ties by key in
//    ascending byte order, keys with no hit in the window left out. Exact.
//  - Eviction: a key whose last hit arrived when the head was at or before head - idle is
//    evicted (idle >= retention, so it has no hit left in any window). Its all-time total and
//    visitor sketch go to options.onEvict if set (and are forgotten here: memory is bounded by
//    the keys touched in the last `idle` seconds), or else into a compact archive (key ->
//    total and sketch, about 125 bytes for a short key with at most one visitor), from which
//    they come back if the key is hit again. allTime() and allTimeUniques() include archived
//    keys. onEvict runs inside hit(), advance() and queries; it must not call the counter.
//  - setWindow(w) changes W in place for any 1 s <= w <= retention: every key's history is
//    kept per second for the retention, so count(), top() and windowCounts() then answer
//    exactly as a counter built with w and fed the same hits would. uniques() keeps each
//    key's per-second visitor sketches for W only: a shorter w gives the same answers as
//    such a counter; a longer w misses the visitors of the seconds before the old W (an
//    undercount) until w seconds have passed since the change.
//  - Uniques: uniques(key, now) estimates the key's distinct visitors in (now - W, now],
//    allTimeUniques(key) since its first hit (hyper_log_log.h for the error). Hits with an
//    empty visitor are counted but add no visitor.
//  - Measures: hit(event) also records the event's bytes and response time (if it names them)
//    in the key's WindowedMeasures (windowed_measures.h: W seconds kept, created by the first
//    such hit); measure(event) records only them, for a statsd timer, which is not a hit: the
//    key is kept (and evicted) as if hit, but its counts do not change. measures(key, now)
//    answers for (now - W, now] as count() does; setWindow() changes their retention as the
//    uniques' (a longer w misses the seconds before the old W for a while). Evicted and folded
//    keys lose them: an idle key has none left in the window.
// Cost: hit() O(1) amortized: one hash of the key into a flat open-addressing table of
//       interned ids (key_interner.h), then, for a hit at the head second (the common case),
//       one saturating add to the key's count of that second. Those counts reach the key's
//       series once per (key, second), when the head moves on: at 10^6 hits/s over 1,000 keys
//       that is one series update per 1,000 hits. A late hit updates the series at once
//       (O(log n + points after it)). count() O(log n); top() O(keys x log n + keys log k);
//       eviction O(1) per evicted key; moving the head O(keys hit in the second it leaves).
//  - Key memory cap (options.maxKeyBytes): keyBytes() estimates what the keys take (per live
//    key its entry, id-table share and name plus one series point; per archived key its node
//    and name). A new key that would pass the cap first folds archived keys, then the live keys
//    hit least recently (even with hits still in the window): each folded key is forgotten,
//    its all-time hits added to foldedHits() and counted in foldedKeys(). Hostile traffic with
//    a new key on every hit then takes bounded memory; the keys in use stay exact, and all-keys
//    views (KeyedMonitor's) are not affected. A folded key that comes back starts anew.
// Memory: memoryBytes(key) for one key: its entry, its share of the id table, series points
//       (16 bytes per distinct second retained) and sketches; memoryBytes() for everything
//       (O(keys) to compute).
// Example, W = 300, retention 300, idle 600:
//     hit(10, "home", "u1") hit(12, "home", "u2") hit(12, "about", "u1")
//     count("home", 12) == 2, top(1, 12) == {("home", 2)}, uniques("home", 12) == 2
//     count("home", 310) == 1, count("home", 312) == 0, allTime("home") == 2
//     advance(612): both keys evicted (last hit when the head was 12 <= 612 - 600)
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/deep_copy_ptr.h"
#include "core/base/hit_event.h"
#include "core/base/saturating.h"
#include "core/base/types.h"
#include "core/keyed/key_interner.h"
#include "core/keyed/key_series.h"
#include "core/sketches/hyper_log_log.h"
#include "core/sketches/windowed_measures.h"
#include "core/sketches/windowed_uniques.h"

namespace hitcounter {

struct KeyCount {
    std::string key;
    Count count = 0;
    friend bool operator==(const KeyCount&, const KeyCount&) = default;
};

// Ranking order for top-K lists: more hits first, then key in ascending byte order.
inline bool ranksBefore(const KeyCount& a, const KeyCount& b) {
    return a.count != b.count ? a.count > b.count : a.key < b.key;
}

struct EvictedKey {
    std::string key;
    Count allTime = 0;
    HyperLogLog visitors;  // all-time distinct visitors
};

struct KeyedOptions {
    std::chrono::seconds window = kDefaultWindow;
    std::chrono::seconds retention{0};  // history kept per key; 0: the window
    std::chrono::seconds idle{0};       // eviction after this long without a hit; 0: 2 x retention
    std::function<void(EvictedKey&&)> onEvict;  // unset: evicted keys go to the archive
    // Bound on keyBytes() (see Memory); 0: unbounded.
    std::size_t maxKeyBytes = 0;
};

class KeyedCounter {
public:
    // Throws std::invalid_argument if window < 1 s, retention < window or idle < retention.
    explicit KeyedCounter(KeyedOptions options = {});
    ~KeyedCounter();
    // A copy holds the same keys and answers as this one would (a checkpoint); it calls the
    // same onEvict.
    KeyedCounter(const KeyedCounter&) = default;
    KeyedCounter& operator=(const KeyedCounter&) = delete;

    void hit(Timestamp t, std::string_view key, std::string_view visitor = {}, Count n = 1);
    // hit(event.time, event.key, event.visitor, event.count) and its measures (see Semantics).
    void hit(const HitEvent& event);
    // Only the event's measures, under its key (see Semantics); dropped as a hit would be.
    void measure(const HitEvent& event);
    // Moves the head to now if newer and evicts idle keys.
    void advance(Timestamp now);
    // A new window, keeping every key's data (see Semantics). Throws std::invalid_argument
    // unless 1 s <= w <= retention(). O(keys with visitors) plus the seconds forgotten.
    void setWindow(std::chrono::seconds w);

    Count count(std::string_view key, Timestamp now);
    Count countLast(std::string_view key, Timestamp now, std::chrono::seconds w);
    // The key's hits at seconds in (from, to], for any range that starts at or after
    // head - retention (an earlier `from` is raised to it): unlike countLast() the range may
    // end in the past, e.g. the window count at a past second t is between(key, t - W, t).
    // Moves nothing. O(log n).
    Count between(std::string_view key, Timestamp from, Timestamp to) const;
    Count allTime(std::string_view key) const;
    std::uint64_t uniques(std::string_view key, Timestamp now);
    std::uint64_t allTimeUniques(std::string_view key) const;
    // The key's bytes and response times in (now - W, now]; all zero for a key without them.
    MeasuresSummary measures(std::string_view key, Timestamp now);
    std::vector<KeyCount> top(std::size_t k, Timestamp now);

    // Every live key with its hits in (now - W, now], unordered, zero counts left out.
    std::vector<KeyCount> windowCounts(Timestamp now);

    std::chrono::seconds window() const { return std::chrono::seconds{m_window}; }
    std::chrono::seconds retention() const { return std::chrono::seconds{m_retention}; }
    std::size_t liveKeys() const { return m_ids.size(); }
    std::size_t archivedKeys() const { return m_archive.size(); }
    Count droppedLate() const { return m_droppedLate; }
    Count evictedKeys() const { return m_evicted; }
    // The keys forgotten under the key memory cap, and their hits (see Semantics).
    Count foldedKeys() const { return m_foldedKeys; }
    Count foldedHits() const { return m_foldedHits; }
    std::size_t keyBytes() const { return m_keyBytes; }
    // 0 for an unknown key.
    std::size_t memoryBytes(std::string_view key) const;
    std::size_t memoryBytes() const;
    std::size_t archiveBytes() const;

private:
    using Id = KeyInterner::Id;
    static constexpr Id kNone = KeyInterner::kNoId;

    struct Visitors {
        HyperLogLog allTime;
        WindowedUniques window;
    };
    struct Entry {
        KeySeries series;
        Timestamp touched = 0;  // the head when the key was last hit
        Id older = kNone;       // the eviction list, by id
        Id newer = kNone;
        bool linked = false;                     // in the eviction list
        DeepCopyPtr<Visitors> visitors;          // created by the first hit that names a visitor
        DeepCopyPtr<WindowedMeasures> measures;  // created by the first hit with a measure
        std::size_t heapBytes() const;           // what the series and sketches hold beyond it
    };
    // What a hit at the head touches, apart from the entry: 16 bytes a key, so that the keys
    // of a busy second stay in the nearest cache.
    struct HeadHits {
        Count count = 0;      // hits at the head second, not yet in the series
        bool listed = false;  // in m_pending
    };
    struct Archived {
        Count allTime = 0;
        HyperLogLog visitors;
    };
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };

    Id idFor(std::string_view key);
    // Counts the hits; the key's id, or kNone when they were too late.
    Id countHit(Timestamp t, std::string_view key, std::string_view visitor, Count n);
    void addMeasures(Id id, const HitEvent& event);
    // The key's hits at seconds in (from, to], with those of the head second not yet in its
    // series; and all of them.
    Count between(Id id, Timestamp from, Timestamp to) const;
    Count total(Id id) const;
    void touch(Id id);
    void unlink(Id id);
    // Moves every pending count into its key's series (the head is about to move on).
    void foldPending();
    void evictIdle();
    template <typename Visit>
    void forEachWindowCount(Timestamp now, Visit visit);
    std::size_t entryBytes(Id id) const;
    // keyBytes()'s share of a live key, and of an archived one.
    std::size_t liveKeyBytes(Id id) const;
    static std::size_t archivedKeyBytes(const std::string& key);
    // Folds archived, then least recently hit live keys other than `keep` until keyBytes() is
    // within the cap.
    void makeRoom(Id keep);
    void foldLive(Id id);

    std::int64_t m_window;
    std::int64_t m_retention;
    std::int64_t m_idle;
    std::function<void(EvictedKey&&)> m_onEvict;
    Timestamp m_head = 0;
    bool m_started = false;
    Count m_droppedLate = 0;
    Count m_evicted = 0;
    std::size_t m_maxKeyBytes;
    std::size_t m_keyBytes = 0;
    Count m_foldedKeys = 0;
    Count m_foldedHits = 0;
    KeyInterner m_ids;
    std::vector<Entry> m_entries;      // by id; an entry whose id is not live is empty
    std::vector<HeadHits> m_headHits;  // by id
    std::vector<Id> m_pending;         // keys hit at the head second, in order of first hit
    std::unordered_map<std::string, Archived, Hash, std::equal_to<>> m_archive;
    // Live entries by the head at their last hit, oldest first (a list linked by id).
    Id m_oldest = kNone;
    Id m_newest = kNone;
};

}  // namespace hitcounter
