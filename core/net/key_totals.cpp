#include "core/net/key_totals.h"

#include <algorithm>

#include "core/base/saturating.h"

namespace hitcounter {

KeyTotals::KeyTotals(std::size_t maxBytes) : m_maxBytes(maxBytes) {}

std::size_t KeyTotals::entryBytes(std::string_view key) {
    // A list node (two links, a std::string, a count), a hash node and its bucket.
    constexpr std::size_t kOverhead = 2 * sizeof(void*) + sizeof(Node) + 4 * sizeof(void*) +
                                      sizeof(std::string_view) + sizeof(void*);
    // Past the short-string buffer the key lives on the heap.
    return kOverhead + (key.size() < sizeof(std::string) ? 0 : key.size() + 1);
}

void KeyTotals::add(std::string_view key, Count hits) {
    m_total = saturatingAdd(m_total, hits);
    if (const auto found = m_index.find(key); found != m_index.end()) {
        const auto node = found->second;
        node->hits = saturatingAdd(node->hits, hits);
        m_recent.splice(m_recent.begin(), m_recent, node);
        return;
    }
    const std::size_t bytes = entryBytes(key);
    if (bytes > m_maxBytes) {
        ++m_folded.keys;
        m_folded.hits = saturatingAdd(m_folded.hits, hits);
        return;
    }
    while (m_bytes + bytes > m_maxBytes) {
        foldIdlest();
    }
    m_recent.push_front(Node{std::string(key), hits});
    m_index.emplace(m_recent.front().key, m_recent.begin());
    m_bytes += bytes;
}

void KeyTotals::foldIdlest() {
    const Node& idlest = m_recent.back();
    ++m_folded.keys;
    m_folded.hits = saturatingAdd(m_folded.hits, idlest.hits);
    m_bytes -= entryBytes(idlest.key);
    m_index.erase(idlest.key);
    m_recent.pop_back();
}

std::vector<KeyTotals::Entry> KeyTotals::byHits() const {
    std::vector<Entry> entries = byKey();
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.second > b.second; });
    return entries;
}

std::vector<KeyTotals::Entry> KeyTotals::byKey() const {
    std::vector<Entry> entries;
    entries.reserve(m_recent.size());
    for (const Node& n : m_recent) {
        entries.emplace_back(n.key, n.hits);
    }
    std::sort(entries.begin(), entries.end());
    return entries;
}

}  // namespace hitcounter
