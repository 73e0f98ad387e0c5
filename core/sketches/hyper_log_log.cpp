#include "core/sketches/hyper_log_log.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>

namespace hitcounter {

namespace {

constexpr int kSparsePrecision = 25;
constexpr int kRankBits = 7;
constexpr std::uint32_t kRankMask = (1U << kRankBits) - 1;
constexpr int kMaxRank = 64 - HyperLogLog::kPrecision + 1;  // 51: the register's largest value

constexpr std::uint32_t sparseEntry(std::uint64_t hash) {
    const auto index = static_cast<std::uint32_t>(hash >> (64 - kSparsePrecision));
    const std::uint64_t rest = hash << kSparsePrecision;
    const int rank = rest == 0 ? 64 - kSparsePrecision + 1 : std::countl_zero(rest) + 1;
    return index << kRankBits | static_cast<std::uint32_t>(rank);
}

constexpr std::uint32_t indexOf(std::uint32_t entry) {
    return entry >> kRankBits;
}

// The dense register and rank a sparse entry stands for: the 11 index bits below precision 14
// are the first bits of the dense rank's bit string.
constexpr std::pair<std::size_t, std::uint8_t> denseOf(std::uint32_t entry) {
    constexpr int kExtraBits = kSparsePrecision - HyperLogLog::kPrecision;
    const std::uint32_t index = indexOf(entry);
    const std::uint32_t extra = index & ((1U << kExtraBits) - 1);
    const int rank = extra != 0 ? std::countl_zero(extra) - (32 - kExtraBits) + 1
                                : kExtraBits + static_cast<int>(entry & kRankMask);
    return {index >> kExtraBits, static_cast<std::uint8_t>(rank)};
}

std::uint32_t groupAt(const std::vector<std::uint8_t>& dense, std::size_t byte) {
    return static_cast<std::uint32_t>(dense[byte]) |
           static_cast<std::uint32_t>(dense[byte + 1]) << 8 |
           static_cast<std::uint32_t>(dense[byte + 2]) << 16;
}

double sigma(double x) {
    if (x == 1.0) {
        return std::numeric_limits<double>::infinity();
    }
    double y = 1.0;
    double z = x;
    double previous = 0.0;
    do {
        x *= x;
        previous = z;
        z += x * y;
        y += y;
    } while (z != previous);
    return z;
}

double tau(double x) {
    if (x == 0.0 || x == 1.0) {
        return 0.0;
    }
    double y = 1.0;
    double z = 1.0 - x;
    double previous = 0.0;
    do {
        x = std::sqrt(x);
        previous = z;
        y *= 0.5;
        z -= (1.0 - x) * (1.0 - x) * y;
    } while (z != previous);
    return z / 3.0;
}

}  // namespace

std::uint64_t HyperLogLog::hashOf(std::string_view value) {
    // std::hash mixes well in its low bits only; the finalizer of SplitMix64 spreads every input
    // bit over the top bits, which pick the register.
    std::uint64_t h = std::hash<std::string_view>{}(value);
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h;
}

std::size_t HyperLogLog::memoryBytes() const {
    return sizeof(*this) + m_sparse.capacity() * sizeof(std::uint32_t) + m_dense.capacity();
}

std::uint8_t HyperLogLog::registerAt(std::size_t index) const {
    const std::size_t bit = index * 6;
    const std::size_t byte = bit / 8;
    const std::size_t shift = bit % 8;
    unsigned value = static_cast<unsigned>(m_dense[byte]) >> shift;
    if (shift > 2) {
        value |= static_cast<unsigned>(m_dense[byte + 1]) << (8 - shift);
    }
    return static_cast<std::uint8_t>(value & 0x3F);
}

void HyperLogLog::raiseRegister(std::size_t index, std::uint8_t rank) {
    if (rank <= registerAt(index)) {
        return;
    }
    const std::size_t bit = index * 6;
    const std::size_t byte = bit / 8;
    const std::size_t shift = bit % 8;
    const unsigned mask = 0x3FU << shift;
    const unsigned value = static_cast<unsigned>(rank) << shift;
    m_dense[byte] = static_cast<std::uint8_t>((m_dense[byte] & ~mask) | (value & 0xFF));
    if (shift > 2) {
        m_dense[byte + 1] =
            static_cast<std::uint8_t>((m_dense[byte + 1] & ~(mask >> 8)) | (value >> 8));
    }
}

void HyperLogLog::add(std::uint64_t hash) {
    if (isSparse()) {
        addSparse(sparseEntry(hash));
        return;
    }
    const int rank = std::min(std::countl_zero(hash << kPrecision) + 1, kMaxRank);
    raiseRegister(hash >> (64 - kPrecision), static_cast<std::uint8_t>(rank));
}

void HyperLogLog::addSparse(std::uint32_t entry) {
    const auto it = std::lower_bound(m_sparse.begin(), m_sparse.end(), entry & ~kRankMask);
    if (it != m_sparse.end() && indexOf(*it) == indexOf(entry)) {
        *it = std::max(*it, entry);
        return;
    }
    if (m_sparse.size() == kMaxSparseEntries) {
        toDense();
        const auto [index, rank] = denseOf(entry);
        raiseRegister(index, rank);
        return;
    }
    const auto position = it - m_sparse.begin();
    if (m_sparse.size() == m_sparse.capacity()) {
        // Grow by doubling but never past the dense size.
        m_sparse.reserve(
            std::min(std::max<std::size_t>(4, 2 * m_sparse.size()), kMaxSparseEntries));
    }
    m_sparse.insert(m_sparse.begin() + position, entry);
}

void HyperLogLog::foldSparseIntoDense(const std::vector<std::uint32_t>& entries) {
    for (const std::uint32_t entry : entries) {
        const auto [index, rank] = denseOf(entry);
        raiseRegister(index, rank);
    }
}

void HyperLogLog::toDense() {
    m_dense.assign(kDenseBytes, 0);
    foldSparseIntoDense(m_sparse);
    m_sparse = std::vector<std::uint32_t>();  // not "= {}", which keeps the capacity
}

void HyperLogLog::merge(const HyperLogLog& other) {
    if (isSparse() && other.isSparse()) {
        std::vector<std::uint32_t> merged;
        merged.reserve(m_sparse.size() + other.m_sparse.size());
        std::merge(m_sparse.begin(), m_sparse.end(), other.m_sparse.begin(), other.m_sparse.end(),
                   std::back_inserter(merged));
        // Equal indexes are now adjacent with the larger rank last: keep that one.
        std::vector<std::uint32_t> unique;
        unique.reserve(merged.size());
        for (const std::uint32_t entry : merged) {
            if (!unique.empty() && indexOf(unique.back()) == indexOf(entry)) {
                unique.back() = entry;
            } else {
                unique.push_back(entry);
            }
        }
        if (unique.size() <= kMaxSparseEntries) {
            unique.shrink_to_fit();
            m_sparse = std::move(unique);
            return;
        }
        m_sparse = std::vector<std::uint32_t>();  // not "= {}", which keeps the capacity
        m_dense.assign(kDenseBytes, 0);
        foldSparseIntoDense(unique);
        return;
    }
    if (isSparse()) {
        toDense();
    }
    if (other.isSparse()) {
        foldSparseIntoDense(other.m_sparse);
        return;
    }
    // Four 6-bit registers fill three bytes exactly: take the maxima a group at a time.
    for (std::size_t byte = 0; byte < kDenseBytes; byte += 3) {
        const std::uint32_t mine = groupAt(m_dense, byte);
        const std::uint32_t theirs = groupAt(other.m_dense, byte);
        std::uint32_t merged = 0;
        for (int shift = 0; shift < 24; shift += 6) {
            merged |= std::max((mine >> shift) & 0x3FU, (theirs >> shift) & 0x3FU) << shift;
        }
        m_dense[byte] = static_cast<std::uint8_t>(merged);
        m_dense[byte + 1] = static_cast<std::uint8_t>(merged >> 8);
        m_dense[byte + 2] = static_cast<std::uint8_t>(merged >> 16);
    }
}

std::uint64_t HyperLogLog::estimate() const {
    if (isSparse()) {
        // Linear counting over the 2^25 sparse buckets.
        const double buckets = std::ldexp(1.0, kSparsePrecision);
        const double empty = buckets - static_cast<double>(m_sparse.size());
        return static_cast<std::uint64_t>(std::llround(buckets * std::log(buckets / empty)));
    }
    std::array<double, kMaxRank + 1> histogram{};
    for (std::size_t byte = 0; byte < kDenseBytes; byte += 3) {
        const std::uint32_t group = groupAt(m_dense, byte);
        for (int shift = 0; shift < 24; shift += 6) {
            histogram[(group >> shift) & 0x3FU] += 1.0;
        }
    }
    const double m = static_cast<double>(kRegisters);
    double z = m * tau(1.0 - histogram[kMaxRank] / m);
    for (int k = kMaxRank - 1; k >= 1; --k) {
        z = 0.5 * (z + histogram[static_cast<std::size_t>(k)]);
    }
    z += m * sigma(histogram[0] / m);
    const double alpha = 0.5 / std::log(2.0);
    return static_cast<std::uint64_t>(std::llround(alpha * m * m / z));
}

}  // namespace hitcounter
