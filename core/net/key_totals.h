// KeyTotals: hits per key for a long-running listener, in bounded memory.
//
// Not thread-safe: owned by the consumer thread (hitcounter-cli listen's main loop).
//
// Semantics: add(key, n) adds n hits to key (saturating at UINT64_MAX). The memory the keys
// hold is estimated as entryBytes(key) per key; when a new key would take the total above
// maxBytes, the keys updated least recently ("idle" keys) are folded: each is removed and its
// hits move to the "other keys" total (folded().hits, folded().keys counts the foldings; a
// key that comes back after being folded starts again from 0 and may be folded again). So
// every hit stays in total() = sum of the kept keys + folded().hits, exactly (saturating).
// A key whose own entry exceeds maxBytes is folded at once.
//
// Cost: add() is O(1) on average (a hash lookup and a list splice). byHits() and byKey()
// are O(n log n) in the kept keys. Memory: at most about maxBytes.
//
// Example: KeyTotals t(2 * KeyTotals::entryBytes("a")); t.add("a", 1); t.add("b", 2);
//          t.add("a", 1); t.add("c", 5);  // "b" is the idlest: folded
//          t.byHits() == {{"c", 5}, {"a", 2}}; t.folded() == {1 key, 2 hits}
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/types.h"

namespace hitcounter {

class KeyTotals {
public:
    struct Folded {
        std::uint64_t keys = 0;  // foldings so far
        Count hits = 0;          // their hits
        friend bool operator==(const Folded&, const Folded&) = default;
    };
    using Entry = std::pair<std::string_view, Count>;  // views into this object

    explicit KeyTotals(std::size_t maxBytes);

    void add(std::string_view key, Count hits);

    // The memory one key is estimated to take (its bytes and the bookkeeping around them).
    static std::size_t entryBytes(std::string_view key);

    std::size_t size() const { return m_index.size(); }
    std::size_t bytes() const { return m_bytes; }
    const Folded& folded() const { return m_folded; }
    // Every hit added: the kept keys plus the folded ones (saturating).
    Count total() const { return m_total; }

    // The kept keys, most hits first (ties by key bytes); valid until the next add().
    std::vector<Entry> byHits() const;
    // The kept keys in byte order of the key; valid until the next add().
    std::vector<Entry> byKey() const;

private:
    struct Node {
        std::string key;
        Count hits = 0;
    };
    void foldIdlest();

    const std::size_t m_maxBytes;
    std::list<Node> m_recent;  // most recently updated first
    std::unordered_map<std::string_view, std::list<Node>::iterator> m_index;  // keys view nodes
    std::size_t m_bytes = 0;
    Folded m_folded;
    Count m_total = 0;
};

}  // namespace hitcounter
