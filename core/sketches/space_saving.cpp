#include "core/sketches/space_saving.h"

#include <stdexcept>

#include "core/base/saturating.h"

namespace hitcounter {

SpaceSaving::SpaceSaving(std::size_t capacity) : m_capacity(capacity) {
    if (capacity == 0) {
        throw std::invalid_argument("Space-Saving needs at least one counter");
    }
}

Count SpaceSaving::minCount() const {
    return m_heap.size() < m_capacity ? 0 : m_heap.front().count;
}

std::size_t SpaceSaving::memoryBytes() const {
    std::size_t bytes = sizeof(*this) + m_heap.capacity() * sizeof(Counter) +
                        m_position.bucket_count() * sizeof(void*);
    for (const auto& [key, position] : m_position) {
        bytes += sizeof(std::pair<const std::string, std::size_t>) + 2 * sizeof(void*);
        // The key is held twice (heap and index); count heap storage beyond the inline buffer.
        if (key.capacity() > std::string().capacity()) {
            bytes += 2 * (key.capacity() + 1);
        }
    }
    return bytes;
}

void SpaceSaving::swapCounters(std::size_t a, std::size_t b) {
    std::swap(m_heap[a], m_heap[b]);
    m_position.find(m_heap[a].key)->second = a;
    m_position.find(m_heap[b].key)->second = b;
}

void SpaceSaving::siftDown(std::size_t i) {
    for (;;) {
        const std::size_t left = 2 * i + 1;
        const std::size_t right = left + 1;
        std::size_t smallest = i;
        if (left < m_heap.size() && m_heap[left].count < m_heap[smallest].count) {
            smallest = left;
        }
        if (right < m_heap.size() && m_heap[right].count < m_heap[smallest].count) {
            smallest = right;
        }
        if (smallest == i) {
            return;
        }
        swapCounters(i, smallest);
        i = smallest;
    }
}

void SpaceSaving::add(std::string_view key, Count n) {
    m_total = saturatingAdd(m_total, n);
    if (const auto it = m_position.find(key); it != m_position.end()) {
        Counter& counter = m_heap[it->second];
        counter.count = saturatingAdd(counter.count, n);
        siftDown(it->second);  // a larger count only moves down a min-heap
        return;
    }
    if (m_heap.size() < m_capacity) {
        // A new counter of count n may belong anywhere: sift it up from the end.
        m_heap.push_back(Counter{std::string(key), n, 0});
        std::size_t i = m_heap.size() - 1;
        m_position.emplace(m_heap[i].key, i);
        while (i > 0 && m_heap[(i - 1) / 2].count > m_heap[i].count) {
            swapCounters(i, (i - 1) / 2);
            i = (i - 1) / 2;
        }
        return;
    }
    // Full: the key takes over the smallest counter, inheriting its count as possible error.
    Counter& smallest = m_heap.front();
    m_position.erase(smallest.key);
    smallest.error = smallest.count;
    smallest.count = saturatingAdd(smallest.count, n);
    smallest.key = std::string(key);
    m_position.emplace(smallest.key, 0);
    siftDown(0);
}

}  // namespace hitcounter
