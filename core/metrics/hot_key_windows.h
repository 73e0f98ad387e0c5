// HotKeyWindows: per-key hit totals, window counts (by default the last 60 s, 5 min and 1 h)
// and distinct visitors for at most K keys, the hottest, with every other key's hits summed
// in one "other" row: what a metrics endpoint can expose when the number of keys senders
// invent is unbounded (a label per key would make every scrape and Prometheus' memory grow
// with them).
//
// Not thread-safe; owned by the counting thread (listen's main loop), which copies rows()
// into the immutable snapshot the HTTP thread serves (metrics_snapshot.h).
//
// Semantics:
//  - add(hit, now): the hit counts under its key's row if the key has one; else, while there
//    are fewer than K rows, the key gets a row (unless its label, label_text.h, is "__other__"
//    or already another row's: those hits stay in other); else it counts in other. A hit
//    stamped after `now` counts at `now` (a sender's clock a little ahead must not hide its
//    hits); one at or before head - longest window counts in the totals but in no window
//    (tooOldHits()). The head is the newest `now` seen.
//  - A row's total and windows count from the moment the row was made: for a key that got its
//    row at its first hit (every key while fewer than K are seen) that is all its hits.
//  - rebalance(now): when every row is taken, the key outside with the most hits in the last
//    5 minutes (found by a SpaceSaving sketch over other's hits, windowed_top_k.h; its lower
//    bound is what counts) takes the row of the coldest key (fewest hits in the last 5
//    minutes) when it has more than twice as many and at least kMinSwapHits (so rows do not
//    flap between keys of similar rate), at most kMaxSwaps per call. The coldest row is
//    folded into other: its total and its window hits are added there. The new row starts
//    at 0; the key's earlier hits stay in other.
//  - Invariants (tested): the rows' totals plus other's = every hit added (saturating); for
//    every window, the rows' counts plus other's = the hits of all keys in that window.
//    Other's total never goes down (a counter), nor does a row's while the row exists.
//  - Uniques: a row or other counts distinct visitors in the last `uniquesWindow` once a hit
//    with a visitor arrives (HyperLogLog, hyper_log_log.h's error); hasUniques() says if one
//    did. A folded row's visitors do not move to other (other's uniques may read low for up
//    to uniquesWindow after a fold).
// Cost: add() O(1) for a key with a row (a hash lookup, the series' append), O(log m) for
//       other (m = the sketch's counters per second); rows() O(K x windows x log n);
//       rebalance() O(seconds x m) for the sketch's top, only when other had hits.
// Memory: per row its key and label, 16 bytes per distinct second of the longest window
//       with hits (57 KiB for a key hit every second of an hour), and its visitor sketches
//       once it has visitors (windowed_uniques.h: at most 4.3 MiB, a few KiB for most);
//       other: 86 KiB for an hour; the sketch: m counters (about 100 bytes each) per second
//       of 5 minutes, m = 2K clamped to [64, 1024].
//
// Example, K = 1, windows {60 s, 300 s}:
//     add({100, "a"}, 100) add({100, "b"}, 100)   // "a" has the row, "b" counts in other
//     rows(100) == {{"a", total 1, windows {1, 1}}}, other(100) == {total 1, windows {1, 1}}
//     add({130, "b", "", 20}, 130); rebalance(130)  // b: 21 hits in 5 min > 2 x 1, >= 10
//     rows(130) == {{"b", total 0, windows {0, 0}}}
//     other(130) == {total 22, windows {20, 22}}    // a's row folded in, b's hits so far
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/base/hit_event.h"
#include "core/base/types.h"
#include "core/keyed/key_series.h"
#include "core/multilevel/multi_level_counter.h"
#include "core/sketches/windowed_top_k.h"
#include "core/sketches/windowed_uniques.h"

namespace hitcounter::metrics {

inline constexpr std::string_view kOtherLabel = "__other__";

struct HotKeyOptions {
    std::size_t maxKeys = 100;  // K, at least 1
    std::vector<std::chrono::seconds> windows{std::chrono::seconds{60}, std::chrono::seconds{300},
                                              std::chrono::seconds{3600}};
    std::chrono::seconds uniquesWindow{300};
    std::size_t labelBytes = 1024;  // keyLabel()'s bound
};

// One row as the snapshot holds it: plain values.
struct KeyWindowRow {
    std::string label;                     // keyLabel(key), or kOtherLabel
    Count total = 0;                       // hits since the row was made
    std::vector<Count> windows;            // one per HotKeyOptions::windows, in order
    std::optional<std::uint64_t> uniques;  // set once a hit with a visitor arrived
    friend bool operator==(const KeyWindowRow&, const KeyWindowRow&) = default;
};

class HotKeyWindows {
public:
    static constexpr Count kMinSwapHits = 10;
    static constexpr std::size_t kMaxSwaps = 16;
    static constexpr std::chrono::seconds kHotWindow{300};

    // Throws std::invalid_argument for maxKeys 0, no window, a window < 1 s or uniquesWindow
    // < 1 s.
    explicit HotKeyWindows(HotKeyOptions options = {});
    ~HotKeyWindows();
    HotKeyWindows(const HotKeyWindows&) = delete;
    HotKeyWindows& operator=(const HotKeyWindows&) = delete;

    void add(const HitEvent& hit, Timestamp now);
    void add(const HitBatch& batch, Timestamp now);
    void advance(Timestamp now);
    void rebalance(Timestamp now);
    // A new K (>= 1, else std::invalid_argument). Fewer: the coldest rows are folded into
    // other now; more: rows free up for new keys (and for rebalance()).
    void setMaxKeys(std::size_t maxKeys, Timestamp now);

    // The rows, hottest first (hits in the last 5 minutes, then label); then other().
    std::vector<KeyWindowRow> rows(Timestamp now);
    KeyWindowRow other(Timestamp now);

    const std::vector<std::chrono::seconds>& windows() const { return m_options.windows; }
    std::size_t maxKeys() const { return m_options.maxKeys; }
    std::size_t size() const { return m_rows.size(); }
    Count tooOldHits() const { return m_tooOld; }
    Count swaps() const { return m_swaps; }

private:
    struct Row;
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };
    using Rows = std::unordered_map<std::string, std::unique_ptr<Row>, Hash, std::equal_to<>>;

    Timestamp clampToNow(Timestamp t, Timestamp now);
    bool tooOld(Timestamp t) const;
    Row* rowFor(std::string_view key);
    void addToOther(const HitEvent& hit, Timestamp t, bool windowed);
    Count hotCount(const Row& row) const;
    void fold(Rows::iterator row);
    KeyWindowRow rowValues(const Row& row) const;

    HotKeyOptions m_options;
    std::int64_t m_longest;  // seconds of the longest window (and of other's counter)
    Timestamp m_head = 0;
    bool m_started = false;
    Rows m_rows;
    std::unordered_set<std::string, Hash, std::equal_to<>> m_labels;  // the rows' labels
    Count m_otherTotal = 0;
    MultiLevelCounter m_otherWindows;
    std::unique_ptr<WindowedUniques> m_otherVisitors;
    WindowedTopK m_candidates;  // other's keys, for rebalance()
    bool m_otherHitSinceRebalance = false;
    Count m_tooOld = 0;
    Count m_swaps = 0;
};

}  // namespace hitcounter::metrics
