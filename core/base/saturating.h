// Saturating arithmetic for hit counts: sums clamp at UINT64_MAX instead of wrapping.
// Wide128 is used for running totals so that subtracting an expired slot stays exact even
// after the reported total has saturated.
#pragma once

#include <cstdint>
#include <limits>

#include "core/base/types.h"

namespace hitcounter {

using Wide128 = unsigned __int128;

inline constexpr Count kMaxCount = std::numeric_limits<Count>::max();

constexpr Count saturatingAdd(Count a, Count b) {
    Count sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? kMaxCount : sum;
}

constexpr Count clampToCount(Wide128 value) {
    return value > Wide128{kMaxCount} ? kMaxCount : static_cast<Count>(value);
}

// Floor modulo, so that slot indices stay in [0, m) for any t.
constexpr std::int64_t floorMod(std::int64_t t, std::int64_t m) {
    const std::int64_t r = t % m;
    return r < 0 ? r + m : r;
}

// Floor division, so that negative times fall in the right bucket.
constexpr std::int64_t floorDiv(std::int64_t t, std::int64_t m) {
    return t / m - ((t % m != 0) && ((t < 0) != (m < 0)) ? 1 : 0);
}

}  // namespace hitcounter
