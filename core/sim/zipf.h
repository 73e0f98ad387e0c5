// ZipfTable: draws ranks 0..n-1 with P(rank i) proportional to 1 / (i + 1)^s, so rank 0 is
// the most popular (with s = 1 and 100 keys it takes about 19% of the draws).
//
// Immutable after construction, so concurrent draws are safe (each caller brings its own
// Random). Draw: O(log n) (binary search in the cumulative table). Memory: n doubles.
#pragma once

#include <cstdint>
#include <vector>

#include "core/sim/random.h"

namespace hitcounter::sim {

class ZipfTable {
public:
    // n >= 1, s >= 0 (s = 0 is uniform).
    ZipfTable(std::uint32_t n, double s);

    std::uint32_t draw(Random& random) const;
    // The probability of rank i.
    double probability(std::uint32_t i) const;
    std::uint32_t size() const { return static_cast<std::uint32_t>(m_cumulative.size()); }

private:
    std::vector<double> m_cumulative;  // m_cumulative[i] = P(rank <= i); the last is 1
};

}  // namespace hitcounter::sim
