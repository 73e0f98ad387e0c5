#include "core/sketches/quantile_sketch.h"

#include <algorithm>
#include <cmath>

#include "core/base/saturating.h"

namespace hitcounter {

namespace {
const double kLogGamma = std::log(QuantileSketch::kGamma);

bool byIndex(const QuantileSketch::Bucket& bucket, std::int32_t index) {
    return bucket.index < index;
}
}  // namespace

int QuantileSketch::indexOf(double value) {
    if (!(value >= kMinValue)) {
        return kZeroIndex;
    }
    if (value >= kMaxValue) {
        return kHighestIndex;
    }
    const double index = std::ceil(std::log(value) / kLogGamma);
    return std::clamp(static_cast<int>(index), kLowestIndex, kHighestIndex);
}

double QuantileSketch::valueOf(int index) {
    if (index <= kZeroIndex) {
        return 0.0;
    }
    return 2.0 * std::exp(index * kLogGamma) / (kGamma + 1.0);
}

void QuantileSketch::add(double value, Count weight) {
    if (weight == 0) {
        return;
    }
    const auto index = static_cast<std::int32_t>(indexOf(value));
    auto at = std::lower_bound(m_buckets.begin(), m_buckets.end(), index, byIndex);
    if (at != m_buckets.end() && at->index == index) {
        at->count = saturatingAdd(at->count, weight);
    } else {
        if (m_buckets.size() == m_buckets.capacity()) {
            // Grown by hand, so that the capacity never passes kMaxBuckets (the memory bound).
            const auto position = at - m_buckets.begin();
            m_buckets.reserve(std::clamp<std::size_t>(2 * m_buckets.size(), 4, kMaxBuckets));
            at = m_buckets.begin() + position;
        }
        m_buckets.insert(at, Bucket{index, weight});
    }
    m_count = saturatingAdd(m_count, weight);
}

void QuantileSketch::merge(const QuantileSketch& other) {
    if (other.empty()) {
        return;
    }
    std::vector<Bucket> merged;
    merged.reserve(std::min(m_buckets.size() + other.m_buckets.size(), kMaxBuckets));
    auto mine = m_buckets.begin();
    auto theirs = other.m_buckets.begin();
    while (mine != m_buckets.end() || theirs != other.m_buckets.end()) {
        if (theirs == other.m_buckets.end() ||
            (mine != m_buckets.end() && mine->index < theirs->index)) {
            merged.push_back(*mine++);
        } else if (mine == m_buckets.end() || theirs->index < mine->index) {
            merged.push_back(*theirs++);
        } else {
            merged.push_back(Bucket{mine->index, saturatingAdd(mine->count, theirs->count)});
            ++mine, ++theirs;
        }
    }
    m_buckets.swap(merged);
    m_count = saturatingAdd(m_count, other.m_count);
}

void QuantileSketch::subtract(const QuantileSketch& other) {
    auto mine = m_buckets.begin();
    for (const Bucket& taken : other.m_buckets) {
        mine = std::lower_bound(mine, m_buckets.end(), taken.index, byIndex);
        if (mine == m_buckets.end()) {
            break;
        }
        if (mine->index == taken.index) {
            mine->count -= std::min(mine->count, taken.count);
        }
    }
    std::erase_if(m_buckets, [](const Bucket& bucket) { return bucket.count == 0; });
    m_count -= std::min(m_count, other.m_count);
    if (m_buckets.empty()) {
        m_count = 0;
    }
}

Count QuantileSketch::rankOf(double q, Count n) {
    // In long double, whose 64-bit mantissa holds any count; q n within 10^-9 of a whole
    // number is that number, so that 0.9 x 10 is 9 although the double 0.9 is not 9/10.
    const long double scaled =
        static_cast<long double>(std::clamp(q, 0.0, 1.0)) * static_cast<long double>(n);
    const long double whole = std::round(scaled);
    const long double rank =
        std::abs(scaled - whole) <= 1e-9L * std::max(1.0L, whole) ? whole : std::ceil(scaled);
    return std::max<Count>(static_cast<Count>(rank), 1);
}

double QuantileSketch::quantile(double q) const {
    if (m_buckets.empty()) {
        return 0.0;
    }
    const Count rank = rankOf(q, m_count);
    Count atOrBelow = 0;
    for (const Bucket& bucket : m_buckets) {
        atOrBelow = saturatingAdd(atOrBelow, bucket.count);
        if (atOrBelow >= rank) {
            return valueOf(bucket.index);
        }
    }
    return valueOf(m_buckets.back().index);
}

}  // namespace hitcounter
