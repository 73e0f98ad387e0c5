// SpaceSaving: the heaviest keys of a stream in a fixed number of counters (Metwally, Agrawal,
// El Abbadi 2005, weighted form), for key spaces too large to count exactly.
//
// Not thread-safe; a value owned by one thread.
//
// Bound: with m counters and N hits added, every monitored key has
//     count - error <= true count <= count,   error <= minCount() <= N / m,
// and a key that is not monitored has a true count <= minCount(). So every key with more
// than N / m hits is monitored. minCount() is 0 until all m counters are in use (exact).
// Cost: add() O(log m) (a min-heap of counters indexed by a hash map).
// Memory: m counters of (key, count, error) plus the index: about 100 bytes per counter for
// short keys.
//
// Example, m = 2: add("a") add("a") add("b") add("c") -> "c" takes b's counter:
//     counters a: 2 (error 0), c: 2 (error 1); minCount() == 2; true c is in [1, 2].
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/types.h"

namespace hitcounter {

class SpaceSaving {
public:
    struct Counter {
        std::string key;
        Count count = 0;
        Count error = 0;  // count may exceed the key's true count by at most this
    };

    // Throws std::invalid_argument for capacity 0.
    explicit SpaceSaving(std::size_t capacity);

    void add(std::string_view key, Count n = 1);

    // The monitored counters, in no particular order.
    const std::vector<Counter>& counters() const { return m_heap; }
    Count minCount() const;
    Count total() const { return m_total; }
    std::size_t capacity() const { return m_capacity; }
    std::size_t memoryBytes() const;

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };

    void siftDown(std::size_t i);
    void swapCounters(std::size_t a, std::size_t b);

    std::size_t m_capacity;
    Count m_total = 0;
    std::vector<Counter> m_heap;  // min-heap by count
    std::unordered_map<std::string, std::size_t, Hash, std::equal_to<>> m_position;
};

}  // namespace hitcounter
