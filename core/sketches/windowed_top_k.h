// WindowedTopK: approximate top-K over the last w seconds (any w up to the retention) for
// unbounded key spaces: one SpaceSaving summary of m counters per second, merged on read.
// The exact top-K (KeyedCounter::top) is the default; use this when the keys active in the
// window do not fit in memory.
//
// Not thread-safe; owned by one thread.
//
// Bound for top(k, from, to), with N the hits at seconds in (from, to] and per second b its
// summary's smallest counter min_b (0 while that second saw at most m keys):
//     eps = sum of min_b <= N / m
//     each reported estimate satisfies  lower <= true count <= estimate <= true count + eps
//     every key with true count > eps is a candidate, so it is reported if its estimate ranks
//     in the top k; a key left out has true count <= the k-th estimate.
// The estimate adds, for every second, the key's counter there or, if that second did not
// monitor it, min_b (the most an unmonitored key can have had).
// Cost: add() O(log m); top() O(seconds x m) plus sorting the candidates.
// Memory: at most m counters per retained second with hits (about 100 bytes each).
//
// Example, m = 1, two seconds: second 1 sees a, a, b; second 2 sees b.
//     second 1 keeps b: 3 (error 2), min 3; second 2 keeps b: 1, min 1. eps = 4.
//     top(1, 0, 2) == {b: estimate 4, lower 2}; true b = 2, true a = 2 <= eps.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/base/types.h"
#include "core/counters/compacting_queue.h"
#include "core/sketches/space_saving.h"

namespace hitcounter {

class WindowedTopK {
public:
    struct Estimate {
        std::string key;
        Count estimate = 0;  // upper bound of the true count
        Count lower = 0;     // lower bound of the true count
    };
    struct Result {
        std::vector<Estimate> top;  // estimate descending, ties by key ascending
        Count epsilon = 0;          // the largest possible overestimate, <= hits / m
        Count hits = 0;             // N, the hits in the range
    };

    // Throws std::invalid_argument for retention < 1 s or capacity 0.
    WindowedTopK(std::chrono::seconds retention, std::size_t capacityPerSecond);

    // Returns false (and ignores the hit) when t <= head - retention.
    bool add(Timestamp t, std::string_view key, Count n = 1);
    void advance(Timestamp now);
    // A new retention (>= 1 s, else std::invalid_argument), keeping what it can: shorter
    // forgets the seconds at or before head - retention now (later answers equal those of a
    // summary that had it all along); longer keeps only the seconds retained so far, so a
    // range reaching further back misses the older seconds' hits until the new retention has
    // passed. O(retained seconds) when shorter, O(1) otherwise.
    void setRetention(std::chrono::seconds retention);
    Result top(std::size_t k, Timestamp from, Timestamp to) const;

    std::size_t memoryBytes() const;

private:
    struct Bucket {
        Timestamp second;
        SpaceSaving summary;
    };

    std::int64_t m_retention;
    std::size_t m_capacity;
    Timestamp m_head = 0;
    bool m_started = false;
    CompactingQueue<Bucket> m_buckets;
};

}  // namespace hitcounter
