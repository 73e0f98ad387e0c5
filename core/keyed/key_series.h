// KeySeries: one key's recent history as (second, cumulative count) points, one point per
// distinct second with hits, so that the hits in ANY window (from, to] inside the retained
// range are a difference of two prefix sums found by binary search.
//
// Not thread-safe; a member of one KeyedCounter entry.
//
// Semantics: cumulative(p) = every hit of the key at seconds <= p.second, since its first hit
// (expired points are folded into a base, so total() is the key's all-time count).
// between(from, to) = hits at seconds in (from, to]; seconds at or before the last expire()
// bound are no longer distinguishable and count as "before from".
// Exact while the key's all-time total stays below 2^64 (afterwards it saturates).
// Cost: hit() at or after the newest point O(1); a late hit O(log n + points after it).
//       between() O(log n). expire() O(points dropped), amortized O(1) per point.
// Memory: 16 bytes per retained distinct second plus the queue's spare capacity.
//
// Example: hit(10, 2) hit(10, 1) hit(12, 4) -> points (10, 3) (12, 7)
//     between(9, 12) == 7, between(10, 12) == 4, between(11, 11) == 0, total() == 7
//     expire(10) -> points (12, 7), base 3; total() still 7
#pragma once

#include <cstddef>

#include "core/base/types.h"
#include "core/counters/compacting_queue.h"

namespace hitcounter {

class KeySeries {
public:
    struct Point {
        Timestamp second;
        Count cumulative;
    };

    // base: hits counted before this series began (a key coming back from the archive).
    explicit KeySeries(Count base = 0) : m_base(base) {}

    // Precondition: t is after the last expire() bound.
    void hit(Timestamp t, Count n);
    // Forgets the points at seconds <= oldest.
    void expire(Timestamp oldest);

    Count between(Timestamp from, Timestamp to) const;
    Count total() const { return m_points.empty() ? m_base : m_points.back().cumulative; }
    bool empty() const { return m_points.empty(); }
    std::size_t pointCount() const { return m_points.size(); }
    std::size_t memoryBytes() const { return sizeof(*this) + m_points.capacityBytes(); }

private:
    // Hits at seconds <= t that are still distinguishable, plus the base.
    Count cumulativeAt(Timestamp t) const;

    CompactingQueue<Point> m_points;
    Count m_base;  // cumulative count of the expired points
};

}  // namespace hitcounter
