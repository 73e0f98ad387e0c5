// WindowedMeasures: what the hits of a sliding window measured: the bytes they sent and the
// quantiles (p50, p90, p99) and maximum of their response times, in (now - W, now]. One record
// per second with measures (its bytes, its times as a QuantileSketch, its slowest time), and
// their sums over the retained seconds kept ready: a second is added to them when it gets a
// value and subtracted when it leaves (the sketch's counts subtract exactly), so a window
// query reads one sketch instead of merging W of them.
//
// Not thread-safe; owned by one thread.
//
// Semantics:
//  - add(e) records at second e.time: e.bytes (if e.hasBytes(); e.count hits with bytes) and
//    e.seconds (if e.hasSeconds(), weighted by e.count: a statsd timer sampled at @0.1 stands
//    for 10). An event with neither changes nothing. e.time <= head - retention is dropped and
//    add() returns false (late); later ones, late or not, are counted exactly.
//  - window(now) answers for (now - W, now], W the retention, after moving the head to now if
//    newer; a query into the past (now < head) answers for (head - W, now], what is retained.
//    bytes and the hit counts are exact (saturating at 2^64 - 1); max is exact (the largest
//    float recorded); p50/p90/p99 are QuantileSketch::quantile(0.5 / 0.9 / 0.99) of the
//    window's times (the nearest-rank quantile: the smallest time with at least q n of the n
//    times at or below it; within 1 % of it for times from 1 ns to 10^6 s), never above max.
//  - setRetention(w): as WindowedUniques (shorter: the older seconds are forgotten now and
//    later answers equal those of one built with w; longer: the seconds already forgotten stay
//    missing until w has passed).
// Cost: add() O(log s) to find its second (O(1) at the newest) plus two QuantileSketch::add
//       (the second's and the sum's); advance() O(buckets of each second leaving); window(now)
//       at or after the head O(b + s) (b buckets of the sum, s retained seconds for the max);
//       into the past O(s x b).
// Memory: per retained second with measures sizeof(Second) (56 bytes) plus 16 bytes per bucket
//       of its times, and the sum's buckets: at most (W + 1) x 1,729 buckets (27 KiB each
//       second), in practice one bucket per distinct time per second, a few KiB for a key.
//
// Example, W = 300: add({10, "a", "", 1, 0, 0.2f, 512}) add({11, "b", "", 1, 0, 0.4f, 100})
//     window(11) -> bytes 612, bytesHits 2, timedHits 2, p50 0.2, p99 0.4, max 0.4 (p50 and p99
//     within 1 %, ranks 1 and 2 of 2); window(310) -> only second 11: bytes 100, p50 0.4;
//     window(311) -> nothing
#pragma once

#include <chrono>

#include "core/base/hit_event.h"
#include "core/base/saturating.h"
#include "core/counters/compacting_queue.h"
#include "core/sketches/quantile_sketch.h"

namespace hitcounter {

// A window's measures (WindowedMeasures::window). Times in seconds; all 0 when timedHits is 0.
struct MeasuresSummary {
    Count bytes = 0;      // bytes sent by the window's hits that name them
    Count bytesHits = 0;  // those hits (0: no hit in the window named its bytes)
    Count timedHits = 0;  // hits (or timer samples) with a response time
    double p50 = 0.0;
    double p90 = 0.0;
    double p99 = 0.0;
    double max = 0.0;

    bool hasBytes() const { return bytesHits > 0; }
    bool hasTimes() const { return timedHits > 0; }
    friend bool operator==(const MeasuresSummary&, const MeasuresSummary&) = default;
};

class WindowedMeasures {
public:
    // Throws std::invalid_argument for a retention under 1 s.
    explicit WindowedMeasures(std::chrono::seconds retention = kDefaultWindow);

    bool add(const HitEvent& event);
    // Moves the head to now if it is newer and forgets the seconds that left the retention.
    void advance(Timestamp now);
    // A new retention (>= 1 s, else std::invalid_argument); see Semantics.
    void setRetention(std::chrono::seconds retention);

    MeasuresSummary window(Timestamp now);

    std::chrono::seconds retention() const { return std::chrono::seconds{m_retention}; }
    bool empty() const { return m_seconds.empty(); }
    std::size_t memoryBytes() const;

private:
    struct Second {
        Timestamp second = 0;
        Count bytes = 0;
        Count bytesHits = 0;
        float slowest = HitEvent::kNoSeconds;
        QuantileSketch times;
    };

    void forgetOldest();
    static MeasuresSummary summarize(Count bytes, Count bytesHits, const QuantileSketch& times,
                                     float slowest);

    std::int64_t m_retention;
    Timestamp m_head = 0;
    bool m_started = false;
    CompactingQueue<Second> m_seconds;  // ascending, seconds in (head - retention, head]
    // The sums over m_seconds (Wide128: subtracting stays exact after a sum saturated).
    Wide128 m_bytes = 0;
    Wide128 m_bytesHits = 0;
    QuantileSketch m_times;
};

}  // namespace hitcounter
