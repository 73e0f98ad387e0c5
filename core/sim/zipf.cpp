#include "core/sim/zipf.h"

#include <algorithm>
#include <cmath>

namespace hitcounter::sim {

ZipfTable::ZipfTable(std::uint32_t n, double s) : m_cumulative(std::max<std::uint32_t>(n, 1)) {
    double sum = 0;
    for (std::size_t i = 0; i < m_cumulative.size(); ++i) {
        sum += 1.0 / std::pow(static_cast<double>(i + 1), s);
        m_cumulative[i] = sum;
    }
    for (double& c : m_cumulative) {
        c /= sum;
    }
    // Rounding may leave the last entry a hair below 1; a draw of 0.99999... must still land.
    m_cumulative.back() = 1.0;
}

std::uint32_t ZipfTable::draw(Random& random) const {
    const auto it = std::upper_bound(m_cumulative.begin(), m_cumulative.end(), random.uniform());
    return static_cast<std::uint32_t>(std::min<std::ptrdiff_t>(
        it - m_cumulative.begin(), static_cast<std::ptrdiff_t>(m_cumulative.size()) - 1));
}

double ZipfTable::probability(std::uint32_t i) const {
    return i == 0 ? m_cumulative[0] : m_cumulative[i] - m_cumulative[i - 1];
}

}  // namespace hitcounter::sim
