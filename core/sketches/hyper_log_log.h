// HyperLogLog: an estimate of how many distinct values (visitors) were added.
//
// Not thread-safe; a value type (copy, move, merge) owned by one thread.
//
// Precision 14: 16,384 registers of 6 bits packed into 12,288 bytes (12 KiB) once dense;
// standard error 1.04 / sqrt(16384) = 0.81 %. Small sets stay in a sparse form: a sorted list
// of (25-bit index, rank) entries, 4 bytes each, estimated by linear counting over 2^25
// buckets, which is within 1 of the truth for hundreds of values. The list turns dense past
// 1,024 entries (4 KiB), so a sketch never holds more than 12 KiB.
// The dense estimate is Ertl's improved raw estimator (2017), unbiased from 0 to 2^50
// without the empirical bias tables of HLL++.
//
// Values are hashed with hashOf() (64 bits); add() takes a hash so callers can hash once and
// feed several sketches. merge() gives the sketch of the union, exactly as if every value
// had been added to one sketch.
// Cost: add() sparse O(entries) worst case (a sorted insert into at most 4 KiB), dense O(1);
//       estimate() sparse O(1), dense O(16384); merge() O(size of both).
// Memory: sizeof(HyperLogLog) + 4 bytes per sparse entry (capacity), or + 12,288 dense.
//
// Example: add(hashOf("u1")); add(hashOf("u2")); add(hashOf("u1"));  estimate() == 2
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace hitcounter {

class HyperLogLog {
public:
    static constexpr int kPrecision = 14;
    static constexpr std::size_t kRegisters = std::size_t{1} << kPrecision;
    static constexpr std::size_t kDenseBytes = kRegisters * 6 / 8;
    // A third of the dense size: sorted inserts stay cheap, and 1,024 values are plenty for
    // the near-exact small range.
    static constexpr std::size_t kMaxSparseEntries = kDenseBytes / 3 / sizeof(std::uint32_t);

    static std::uint64_t hashOf(std::string_view value);

    void add(std::uint64_t hash);
    void merge(const HyperLogLog& other);
    // The estimated number of distinct values, rounded to the nearest integer.
    std::uint64_t estimate() const;

    bool isSparse() const { return m_dense.empty(); }
    bool empty() const { return m_dense.empty() && m_sparse.empty(); }
    std::size_t memoryBytes() const;

private:
    void addSparse(std::uint32_t entry);
    void toDense();
    void foldSparseIntoDense(const std::vector<std::uint32_t>& entries);
    std::uint8_t registerAt(std::size_t index) const;
    void raiseRegister(std::size_t index, std::uint8_t rank);

    std::vector<std::uint32_t> m_sparse;  // sorted by index: (25-bit index << 7) | rank
    std::vector<std::uint8_t> m_dense;    // kDenseBytes of 6-bit registers, or empty
};

}  // namespace hitcounter
