// MultiLevelCounter: one structure for the 1 min, 5 min, 1 h and all-time views of a stream,
// and the exact hits of the last w seconds for ANY w up to the largest level, in O(log W).
// Like folly's MultiLevelTimeSeries, but exact: one slot per second of the largest window W
// under a Fenwick (binary indexed) tree, so a window is a difference of two prefix sums
// instead of folly's interpolated partial buckets (O(buckets)).
//
// Not thread-safe; owned by one thread.
//
// Semantics: window_counter.h's rules with W = the largest level: the head is the newest
// second seen (hits or queries); a hit at t <= head - W is dropped and counted in
// droppedLate(); countLast(now, w) = hits at seconds in (now - w, now], of which only the
// retained seconds (head - W, now] can be seen; allTime() = every hit accepted.
// Counts saturate at 2^64 - 1 (the tree keeps 128-bit sums).
// Cost: hit() O(log W); moving the head by k seconds O(min(k, W) + expired slots x log W);
//       countLast() O(log W); levels() O(levels x log W).
// Memory: W x (8 + 16) bytes, fixed: 86 KiB for one hour.
//
// Example, levels {60 s, 300 s, 3600 s}:
//     hit(100) hit(3000) hit(3550, 2)
//     countLast(3600, 60s) == 2, countLast(3600, 51s) == 2, countLast(3600, 50s) == 0
//     levels(3600) == {60 s: 2, 300 s: 2, 3600 s: 4}, allTime() == 4
//     countLast(3700, 3600s) == 3   (the hit at 100 has left the hour)
#pragma once

#include <chrono>
#include <vector>

#include "core/base/saturating.h"
#include "core/base/types.h"

namespace hitcounter {

struct LevelCount {
    std::chrono::seconds window;
    Count count = 0;
    friend bool operator==(const LevelCount&, const LevelCount&) = default;
};

class MultiLevelCounter {
public:
    // Throws std::invalid_argument if a level is < 1 s or there is none.
    explicit MultiLevelCounter(std::vector<std::chrono::seconds> levels = {
                                   std::chrono::seconds{60}, std::chrono::seconds{300},
                                   std::chrono::seconds{3600}});

    void hit(Timestamp t, Count n = 1);
    // Whether hit(t) would drop its hits as older than the largest level (it counts them).
    bool dropsAt(Timestamp t) const { return m_started && t <= m_head - m_span; }
    void advance(Timestamp now);
    // Throws std::invalid_argument unless 1 s <= w <= span().
    Count countLast(Timestamp now, std::chrono::seconds w);
    std::vector<LevelCount> levels(Timestamp now);
    Count allTime() const { return clampToCount(m_allTime); }
    Count droppedLate() const { return m_droppedLate; }
    std::chrono::seconds span() const { return std::chrono::seconds{m_span}; }
    std::size_t memoryBytes() const;

private:
    std::size_t slotOf(Timestamp t) const { return static_cast<std::size_t>(floorMod(t, m_span)); }
    void add(std::size_t slot, Wide128 delta);
    Wide128 prefix(std::size_t slot) const;  // slots 0 .. slot, inclusive
    Wide128 seconds(Timestamp first, Timestamp last) const;

    std::vector<std::chrono::seconds> m_levels;
    std::int64_t m_span;
    Timestamp m_head = 0;
    bool m_started = false;
    std::vector<Count> m_slots;   // hits of the second that maps to each slot
    std::vector<Wide128> m_tree;  // Fenwick tree over m_slots, 1-based
    Wide128 m_allTime = 0;
    Count m_droppedLate = 0;
};

}  // namespace hitcounter
