// CompactingQueue<T>: a FIFO in one std::vector. pop_front() advances an index and compacts
// when more than half of the storage is dead, so it is O(1) amortized; memory held is the
// vector's real capacity (reported by capacityBytes()). Unlike std::deque it also allows an
// insert in the middle (used for late hits) and random access for binary search.
// Not thread-safe.
#pragma once

#include <cstddef>
#include <vector>

namespace hitcounter {

template <typename T>
class CompactingQueue {
public:
    using iterator = typename std::vector<T>::iterator;
    using const_iterator = typename std::vector<T>::const_iterator;

    bool empty() const { return m_front == m_items.size(); }
    std::size_t size() const { return m_items.size() - m_front; }
    std::size_t capacityBytes() const { return m_items.capacity() * sizeof(T); }
    // What the storage holds, for views that explain the bytes: the popped items kept until
    // the next compaction (pop_front below), and the room for items in all.
    std::size_t poppedKept() const { return m_front; }
    std::size_t capacity() const { return m_items.capacity(); }
    // pop_front() compacts once at least this many items are dead and they are at least half.
    static constexpr std::size_t kCompactAfter = 64;

    iterator begin() { return m_items.begin() + static_cast<std::ptrdiff_t>(m_front); }
    iterator end() { return m_items.end(); }
    const_iterator begin() const { return m_items.begin() + static_cast<std::ptrdiff_t>(m_front); }
    const_iterator end() const { return m_items.end(); }

    T& front() { return m_items[m_front]; }
    T& back() { return m_items.back(); }
    const T& front() const { return m_items[m_front]; }
    const T& back() const { return m_items.back(); }

    void push_back(const T& item) { m_items.push_back(item); }
    iterator insert(iterator position, const T& item) { return m_items.insert(position, item); }

    void pop_front() {
        ++m_front;
        if (m_front == m_items.size()) {
            m_items.clear();
            m_front = 0;
        } else if (m_front >= kCompactAfter && m_front * 2 >= m_items.size()) {
            m_items.erase(m_items.begin(), m_items.begin() + static_cast<std::ptrdiff_t>(m_front));
            m_front = 0;
        }
    }

private:
    std::vector<T> m_items;
    std::size_t m_front = 0;
};

}  // namespace hitcounter
