// QuantileSketch: quantiles of non-negative values (response times in seconds) within a
// relative error, from logarithmic buckets: the DDSketch mapping (Masson, Rim and Lee, "DDSketch:
// a fast and fully-mergeable quantile sketch with relative-error guarantees", VLDB 2019), kept
// as a sorted list of the buckets that hold values.
//
// Not thread-safe; a value type (copy, merge, subtract) owned by one thread.
//
// Semantics:
//  - Relative accuracy a = 1 %, gamma = (1 + a) / (1 - a). A value x in [kMinValue, kMaxValue]
//    goes to bucket i = ceil(log_gamma x), which holds (gamma^(i-1), gamma^i] and stands for
//    v = 2 gamma^i / (gamma + 1): |v - x| <= a x for every x in it.
//  - quantile(q), q in [0, 1]: the nearest-rank quantile, the smallest value x with at least
//    q n of the values at or below it (n the total weight, each value counted `weight` times):
//    the value of rank rankOf(q, n) = max(1, ceil(q n)), 1-based in ascending order, so q = 0
//    and tiny q give the least value, q = 1 the largest, and the p99 of 2 values is the larger.
//    The answer is the value its bucket stands for, so it is within a x of that value x
//    (within a plus floating-point rounding, under 10^-12 relative: the buckets are monotone in
//    x, so the value of that rank lies in the bucket where the count reaches the rank).
//    Values below kMinValue (0 included, and NaN) share one bucket that stands for 0 (an error
//    under 1 ns); values above kMaxValue (and +inf) go to the top bucket, which stands for about
//    kMaxValue (an underestimate: 11.6 days). 0 when the sketch is empty.
//  - merge(other) adds the other sketch's counts bucket by bucket: the result equals the sketch
//    fed both streams, so every quantile does too. subtract(other) takes away a sketch that was
//    merged in (a second leaving a window) and drops the buckets it empties.
//  - Counts and the total weight saturate at 2^64 - 1, never wrap; a subtract from a saturated
//    bucket leaves it approximate.
// Cost: add() O(log b) to find its bucket, O(b) when the bucket is new (b: buckets held);
//       merge() and subtract() O(b + b'); quantile() O(b).
// Memory: 16 bytes per bucket holding values (the list grows by doubling), never more than
//       kMaxBuckets (1,729 buckets, 27 KiB) however many values were added: the range of
//       buckets is fixed, so nothing needs collapsing; values beyond it share its end buckets.
//
// Example:
//     QuantileSketch s;  s.add(0.1); s.add(0.2); s.add(0.3); s.add(5.0);
//     s.quantile(0.5) -> 0.2 (rank 2 of 4; within 1 %: 0.19996...), s.quantile(0.99) -> 5.0
//     (rank 4: within 1 %), s.quantile(0.0) -> 0.1 (rank 1)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/types.h"

namespace hitcounter {

class QuantileSketch {
public:
    static constexpr double kRelativeAccuracy = 0.01;
    static constexpr double kGamma = (1 + kRelativeAccuracy) / (1 - kRelativeAccuracy);
    // The range kept within kRelativeAccuracy: 1 ns to 10^6 s.
    static constexpr double kMinValue = 1e-9;
    static constexpr double kMaxValue = 1e6;
    // The buckets of kMinValue and kMaxValue (indexOf; tests check them), and the one of zero.
    static constexpr int kLowestIndex = -1036;
    static constexpr int kHighestIndex = 691;
    static constexpr int kZeroIndex = kLowestIndex - 1;
    static constexpr std::size_t kMaxBuckets = kHighestIndex - kZeroIndex + 1;

    struct Bucket {
        std::int32_t index = 0;
        Count count = 0;
        friend bool operator==(const Bucket&, const Bucket&) = default;
    };

    // The bucket of a value (see Semantics), and the value a bucket stands for.
    static int indexOf(double value);
    static double valueOf(int index);

    void add(double value, Count weight = 1);
    void merge(const QuantileSketch& other);
    // Precondition: `other` was merged into this sketch (or its values added) and not yet taken
    // away; a bucket `other` has and this one does not is ignored.
    void subtract(const QuantileSketch& other);
    void clear() { m_buckets.clear(), m_count = 0; }

    double quantile(double q) const;
    // The 1-based rank quantile(q) answers for among n values (see Semantics); q n within
    // 10^-9 of a whole number counts as that number (0.9 x 10 is 9, not 9.000000000000002).
    static Count rankOf(double q, Count n);
    // The total weight added (saturating).
    Count count() const { return m_count; }
    bool empty() const { return m_buckets.empty(); }
    // Ascending by index; the zero bucket first.
    const std::vector<Bucket>& buckets() const { return m_buckets; }
    // What the buckets hold beyond sizeof(QuantileSketch).
    std::size_t heapBytes() const { return m_buckets.capacity() * sizeof(Bucket); }

    friend bool operator==(const QuantileSketch&, const QuantileSketch&) = default;

private:
    std::vector<Bucket> m_buckets;
    Count m_count = 0;
};

}  // namespace hitcounter
