// KeyedMonitor: the one object that answers everything about keyed traffic: per key and for
// all keys together the window count, all-time count, distinct visitors (window and all
// time) and the 1 min / 5 min / 1 h views, plus the top-K keys of the window. It composes
// KeyedCounter (per key), MultiLevelCounter and two HyperLogLog views (all keys), and
// optionally WindowedTopK (approximate top-K for unbounded key spaces).
//
// Not thread-safe; owned by the engine thread, which records batches and copies the answers
// (plain values: KeyStats, vectors) into the snapshot it hands to the GUI.
//
// Semantics: the rules of keyed_counter.h and multi_level_counter.h, all fed the same times,
// so every view shares one head. record() counts an event under its key and under "all
// keys"; an event with an empty key counts under "all keys" only, an empty visitor adds no
// visitor. The window W must not exceed the largest level, which is also how long each key's
// history is kept (hits older than that are dropped and counted in droppedLate()).
// setWindow(w) changes W in place (a new window on a live stream) and keeps every key: the
// history kept for the largest level covers any w up to it, so window counts, levels and top()
// answer exactly as a monitor built with w and fed the same hits; so do the uniques when w is
// shorter. When w is longer, the window uniques (per key and all keys) and approximateTop()
// still hold only the seconds of the old W: until w seconds have passed since the change they
// miss what came before the old W (uniques and approximate estimates low, never high).
// Measures (docs/measures.md): the bytes and response times hits name, per key and for all keys
// in the window, measures(key, now) and overallMeasures(now) (windowed_measures.h: bytes and
// the maximum exact, p50/p90/p99 within 1 %); recordMeasures() takes events that are not hits
// (statsd timers) for them alone. setWindow() treats them as the uniques.
// Exact: counts, levels, top(). Estimates: uniques (hyper_log_log.h), approximateTop()
// (windowed_top_k.h, with its bound in the result).
// Cost: record() O(1) amortized per hit without a visitor (the key's hash lookup and one add,
// plus per run of one second an O(log W) update of the all-keys levels); a visitor adds the
// sketches' work. stats() O(levels x log n) plus merging the window's
// per-second visitor sketches; top() O(live keys x log n).
// Memory: KeyedCounter's per-key memory plus about 86 KiB for an hour of all-keys levels plus
// the all-keys sketches (at most 12 KiB per second with visitors in the window) and measures
// (windowed_measures.h).
//
// Example (defaults: W = 300 s, levels 1 min / 5 min / 1 h):
//     record({10, "home", "u1"}) record({12, "home", "u2"}) record({12, "about", "u1"})
//     stats("home", 12)  -> window 2, allTime 2, uniques 2, levels {60 s: 2, 300 s: 2, 1 h: 2}
//     overall(12)        -> window 3, uniques 2
//     top(1, 12)         -> {("home", 2)}
//     setWindow(60s); record({80, "about", "u3"})
//     stats("home", 80).window == 0 (10 and 12 left (20, 80]), top(1, 80) -> {("about", 1)}
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/base/deep_copy_ptr.h"
#include "core/base/hit_event.h"
#include "core/keyed/keyed_counter.h"
#include "core/multilevel/multi_level_counter.h"
#include "core/sketches/hyper_log_log.h"
#include "core/sketches/windowed_measures.h"
#include "core/sketches/windowed_top_k.h"
#include "core/sketches/windowed_uniques.h"

namespace hitcounter {

struct MonitorOptions {
    std::chrono::seconds window = kDefaultWindow;
    std::vector<std::chrono::seconds> levels{std::chrono::seconds{60}, std::chrono::seconds{300},
                                             std::chrono::seconds{3600}};
    std::chrono::seconds idle{0};  // per-key eviction, see KeyedOptions; 0: 2 x largest level
    std::size_t approximateTopCapacity = 0;     // counters per second; 0: no approximate top-K
    std::function<void(EvictedKey&&)> onEvict;  // unset: evicted keys go to the archive
    std::size_t maxKeyBytes = 0;  // KeyedOptions::maxKeyBytes (the key memory cap); 0: none
};

struct KeyStats {
    Count window = 0;  // hits in (now - W, now]
    Count allTime = 0;
    std::uint64_t uniques = 0;  // distinct visitors in (now - W, now]
    std::uint64_t allTimeUniques = 0;
    std::vector<LevelCount> levels;  // one per configured level, in order
};

class KeyedMonitor {
public:
    // Throws std::invalid_argument for a window < 1 s, no level, a level < 1 s or a window
    // larger than the largest level.
    explicit KeyedMonitor(MonitorOptions options = {});

    void record(const HitEvent& hit);
    // The same as record() of each hit in order; hits of one second in a row reach the
    // all-keys levels as one hit(t, n), and each key's hits of the head second reach its series
    // once, when the head moves on (keyed_counter.h).
    void record(std::span<const HitEvent> hits);
    // Only the measures of these events, which are not hits (statsd timers): their counts are
    // weights, no count changes (KeyedCounter::measure). Events too late for every view are
    // dropped.
    void recordMeasures(std::span<const HitEvent> events);
    // Moves the head (and evicts idle keys) without a hit.
    void advance(Timestamp now);
    // A new window W for the data already counted (see above). Throws std::invalid_argument
    // for w < 1 s or w larger than the largest level (then nothing changes).
    // O(keys with visitors) plus the seconds forgotten.
    void setWindow(std::chrono::seconds w);

    // All zero for a key never seen (or evicted: then allTime and allTimeUniques remain).
    KeyStats stats(std::string_view key, Timestamp now);
    KeyStats overall(Timestamp now);
    std::vector<KeyCount> top(std::size_t k, Timestamp now);
    // The key's and all keys' bytes and response times in (now - W, now].
    MeasuresSummary measures(std::string_view key, Timestamp now);
    MeasuresSummary overallMeasures(Timestamp now);
    // nullopt unless options.approximateTopCapacity > 0.
    std::optional<WindowedTopK::Result> approximateTop(std::size_t k, Timestamp now);

    std::chrono::seconds window() const { return m_keys.window(); }
    const KeyedCounter& keys() const { return m_keys; }
    // Per-key queries (countLast, uniques) without the all-keys work of stats().
    KeyedCounter& keys() { return m_keys; }
    Count droppedLate() const { return m_all.droppedLate(); }
    std::size_t memoryBytes() const;

private:
    // One hit whose all-keys count has been taken care of by the caller.
    void recordKeyed(const HitEvent& hit);

    KeyedCounter m_keys;
    std::vector<std::chrono::seconds> m_levels;
    MultiLevelCounter m_all;
    HyperLogLog m_allVisitors;
    WindowedUniques m_windowVisitors;
    WindowedMeasures m_allMeasures;
    DeepCopyPtr<WindowedTopK> m_approximateTop;
};

}  // namespace hitcounter
