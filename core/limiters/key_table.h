// KeyTable<State>: one State per key, with the keys kept in order of their last touch so that
// the ones idle for a given time are evicted oldest first in O(1) each. The storage under every
// per-key limiter and under WindowPeak.
//
// Not thread-safe; owned by its limiter.
//
// Semantics: insert() creates a key's entry (State{} touched at `now`); touch() marks it used
// at `now` (callers pass non-decreasing times); evictIdle(now) erases every entry last touched
// at or before now - idle. Entries are stable in memory until erased.
// Memory: memoryBytes() = the map's buckets plus, per entry, its node, its key's heap bytes and
// what stateHeapBytes(state) reports; O(entries) to compute.
//
// Example, idle 60: insert("a", 0); insert("b", 30); touch(a, 50);
//     evictIdle(89): nothing (b touched at 30 > 89 - 60); evictIdle(90): b evicted;
//     evictIdle(110): a evicted (touched at 50 <= 110 - 60)
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/base/types.h"

namespace hitcounter {

template <typename State>
class KeyTable {
public:
    struct Entry {
        State state{};
        Timestamp touched = 0;
        Entry* older = nullptr;
        Entry* newer = nullptr;
        const std::string* key = nullptr;  // the map's own key
    };

    explicit KeyTable(Timestamp idle) : m_idle(idle) {}
    KeyTable(const KeyTable&) = delete;
    KeyTable& operator=(const KeyTable&) = delete;
    // Moving keeps the entries where they are (unordered_map moves its nodes).
    KeyTable(KeyTable&& other) noexcept
        : m_idle(other.m_idle),
          m_entries(std::move(other.m_entries)),
          m_oldest(std::exchange(other.m_oldest, nullptr)),
          m_newest(std::exchange(other.m_newest, nullptr)),
          m_evicted(other.m_evicted) {
        other.m_entries.clear();
    }
    KeyTable& operator=(KeyTable&&) = delete;

    Entry* find(std::string_view key) {
        const auto it = m_entries.find(key);
        return it == m_entries.end() ? nullptr : &it->second;
    }
    const Entry* find(std::string_view key) const {
        const auto it = m_entries.find(key);
        return it == m_entries.end() ? nullptr : &it->second;
    }

    // The key must not be present.
    Entry& insert(std::string_view key, Timestamp now) {
        auto [it, inserted] = m_entries.try_emplace(std::string(key));
        Entry& entry = it->second;
        entry.key = &it->first;
        entry.touched = now;
        linkNewest(entry);
        return entry;
    }

    void touch(Entry& entry, Timestamp now) {
        entry.touched = now;
        if (&entry == m_newest)
            return;
        unlink(entry);
        linkNewest(entry);
    }

    void evictIdle(Timestamp now) {
        while (m_oldest != nullptr && m_oldest->touched <= now - m_idle) {
            Entry* entry = m_oldest;
            unlink(*entry);
            m_entries.erase(*entry->key);
            ++m_evicted;
        }
    }

    std::size_t size() const { return m_entries.size(); }
    Count evicted() const { return m_evicted; }

    template <typename StateHeapBytes>
    std::size_t memoryBytes(StateHeapBytes stateHeapBytes) const {
        // An unordered_map node holds the value, the next pointer and the cached hash.
        constexpr std::size_t kNodeBytes = sizeof(typename Map::value_type) + 2 * sizeof(void*);
        std::size_t bytes = m_entries.bucket_count() * sizeof(void*);
        for (const auto& [key, entry] : m_entries) {
            const bool onHeap = key.capacity() > std::string().capacity();
            bytes += kNodeBytes + (onHeap ? key.capacity() + 1 : 0) + stateHeapBytes(entry.state);
        }
        return bytes;
    }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };
    using Map = std::unordered_map<std::string, Entry, Hash, std::equal_to<>>;

    void linkNewest(Entry& entry) {
        entry.older = m_newest;
        entry.newer = nullptr;
        if (m_newest != nullptr)
            m_newest->newer = &entry;
        else
            m_oldest = &entry;
        m_newest = &entry;
    }
    void unlink(Entry& entry) {
        (entry.older != nullptr ? entry.older->newer : m_oldest) = entry.newer;
        (entry.newer != nullptr ? entry.newer->older : m_newest) = entry.older;
        entry.older = entry.newer = nullptr;
    }

    Timestamp m_idle;
    Map m_entries;
    Entry* m_oldest = nullptr;
    Entry* m_newest = nullptr;
    Count m_evicted = 0;
};

}  // namespace hitcounter
