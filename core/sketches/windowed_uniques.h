// WindowedUniques: distinct visitors in the last w seconds, for any w up to the retention, as
// one HyperLogLog per second with visits, merged on read.
//
// Not thread-safe; owned by one thread.
//
// Semantics: estimate(from, to) = distinct hashes added at seconds in (from, to], with the
// error of one HyperLogLog over that union (hyper_log_log.h: near-exact below a few thousand,
// 0.81 % standard error above). Per-second buckets make the window edges exact: nothing
// is interpolated. add() with t <= head - retention is ignored and returns false (late).
// Cost: add() O(1) at the newest second (plus the sketch's own add), a late second
//       O(log buckets + buckets after it); estimate() merges one sketch per second with visits
//       in the range: O(range seconds x sketch size), at most W x 12 KiB of reads.
// Memory: one sketch per retained second with visits (a few bytes when that second saw few
//       visitors, 12 KiB at most), plus the queue.
//
// Example, retention 300: add(10, h("a")) add(11, h("b")) add(11, h("a"))
//     estimate(9, 11) == 2, estimate(10, 11) == 2, estimate(10, 10) == 0
#pragma once

#include <chrono>

#include "core/counters/compacting_queue.h"
#include "core/counters/window_counter.h"
#include "core/sketches/hyper_log_log.h"

namespace hitcounter {

class WindowedUniques {
public:
    explicit WindowedUniques(std::chrono::seconds retention = kDefaultWindow);

    // Records one visit of the value with this hash (HyperLogLog::hashOf) at second t.
    bool add(Timestamp t, std::uint64_t hash);
    // Moves the head to now if it is newer and forgets the seconds that left the retention.
    void advance(Timestamp now);

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

    std::int64_t m_retention;
    Timestamp m_head = 0;
    bool m_started = false;
    CompactingQueue<Bucket> m_buckets;
};

}  // namespace hitcounter
