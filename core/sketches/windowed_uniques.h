// WindowedUniques: distinct visitors in the last w seconds, for any w up to the retention, as
// one HyperLogLog per second with visits, whose union over a window is kept ready as two
// sketches (the "two stacks" sliding-window aggregate: the max of HyperLogLog registers is
// associative and idempotent, so the union of a window is an aggregate like any other).
//
// Not thread-safe; owned by one thread.
//
// Semantics: estimate(from, to) = distinct hashes added at seconds in (from, to], with the
// error of one HyperLogLog over that union (hyper_log_log.h: near-exact below a few thousand,
// 0.81 % standard error above). Per-second buckets make the window edges exact: nothing
// is interpolated. add() with t <= head - retention is ignored and returns false (late).
// How: the retained seconds are split into an older part (the "front", at most 64 seconds)
// and a newer part (the "back"). The back's union is one sketch, updated by every add. Each
// front second keeps the union of itself and every later front second (its suffix). A window
// that ends at or after the newest second with visits and starts in the front is the union of
// one suffix sketch and the back sketch: one copy, one merge and one estimate. When the
// oldest second must leave and the front is empty, the unions are dropped and rebuilt by the
// next window query (the oldest 64 seconds become the front): a sketch that is never queried
// keeps no unions and an add then touches only its second's sketch.
// Cost: add() O(1) at the newest second (twice the sketch's own add while the unions are
//       kept), a late second O(log buckets + buckets after it) plus one sketch add per front
//       second before it. estimate(from, to) with to >= the newest second with visits
//       ("now"): O(sketch size), at most 12 KiB copied and merged plus one dense estimate
//       (tens of microseconds, docs/benchmarks.md); once every 64 seconds the query that
//       rebuilds the unions merges every retained second instead (the cost of a window merge:
//       up to W x 12 KiB). Other ranges (a window ending in the past, or starting after the
//       front) merge one sketch per second with visits in the range: O(range seconds x
//       sketch size). advance(): O(1) amortized.
// Memory: one sketch per retained second with visits (a few bytes when that second saw few
//       visitors, 12 KiB at most), plus while the unions are kept at most 64 suffix sketches
//       (each the union of at most 64 seconds: sparse, about 4 bytes per visitor, while that
//       is under 1,024 visitors, else 12 KiB) and one back sketch (12 KiB at most). Bound:
//       (W + 65) x 12 KiB, about 4.3 MiB at W = 300.
//
// Example, retention 300: add(10, h("a")) add(11, h("b")) add(11, h("a"))
//     estimate(9, 11) == 2, estimate(10, 11) == 2, estimate(10, 10) == 0
#pragma once

#include <chrono>
#include <deque>

#include "core/base/types.h"
#include "core/counters/compacting_queue.h"
#include "core/sketches/hyper_log_log.h"

namespace hitcounter {

class WindowedUniques {
public:
    explicit WindowedUniques(std::chrono::seconds retention = kDefaultWindow);

    // Records one visit of the value with this hash (HyperLogLog::hashOf) at second t.
    bool add(Timestamp t, std::uint64_t hash);
    // Moves the head to now if it is newer and forgets the seconds that left the retention.
    void advance(Timestamp now);
    // A new retention (>= 1 s, else std::invalid_argument), keeping what it can. Shorter: the
    // seconds at or before head - retention are forgotten now, and every later answer equals
    // that of a sketch that had the shorter retention all along. Longer: only the seconds kept
    // so far are there (those before the old retention are gone), so a range reaching further
    // back misses their visitors (an undercount) until the new retention has passed; later
    // adds are kept for the new retention. O(retained seconds) when shorter, O(1) otherwise.
    void setRetention(std::chrono::seconds retention);

    std::uint64_t estimate(Timestamp from, Timestamp to) const;
    // The union sketch itself, for merging with other keys.
    HyperLogLog merged(Timestamp from, Timestamp to) const;

    std::chrono::seconds retention() const { return std::chrono::seconds{m_retention}; }
    bool empty() const { return m_buckets.empty(); }
    std::size_t memoryBytes() const;

private:
    struct Bucket {
        Timestamp second;
        HyperLogLog sketch;
    };

    // At most this many seconds form the front: their suffixes cover a short span, so they
    // stay small (sparse) for a key with few visitors a second.
    static constexpr std::size_t kMaxFrontSeconds = 64;

    void rebuildUnions() const;
    HyperLogLog mergedSlowly(Timestamp from, Timestamp to) const;

    std::int64_t m_retention;
    Timestamp m_head = 0;
    bool m_started = false;
    CompactingQueue<Bucket> m_buckets;
    // The ready-made unions, built by the first window query after the back had to lose a
    // second (so a sketch that is never queried keeps none); mutable: a cache.
    // m_suffix[i]: union of m_buckets[i .. m_suffix.size()), the front part.
    mutable std::deque<HyperLogLog> m_suffix;
    mutable HyperLogLog m_back;        // union of the buckets after the front part
    mutable bool m_aggregated = true;  // false: m_suffix and m_back must be rebuilt
};

}  // namespace hitcounter
