// BatchKeyIndex: which event of a batch holds a key, so that lines of one key and second can
// be added to one event (LineIngest::coalesceKeys()). A per-receiver-thread key table: no
// lock, cleared with each batch.
//
// Not thread-safe; a member of one LineIngest.
//
// Semantics: find(key, batch) is the index of the event in `batch` that add() recorded for
// `key` since the last clear(), or kNone. add() may decline (the table holds kSlots / 2 keys,
// or the key's probe sequence is longer than kMaxProbes, as keys chosen to collide would
// make it): the caller then appends events without merging, which is still exact.
// Cost: find() and add() at most kMaxProbes slots of 8 bytes and one key compare per slot;
// clear() O(1): slots of older generations count as empty.
// Memory: kSlots * 8 bytes (64 KiB), fixed.
//
// Example: add("home", 0); add("about", 1); find("home", batch) == 0; clear();
//          find("home", batch) == kNone
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/base/hit_event.h"

namespace hitcounter {

class BatchKeyIndex {
public:
    static constexpr std::size_t kNone = ~std::size_t{0};
    static constexpr std::size_t kSlots = 8192;    // half of them at most are used
    static constexpr std::size_t kMaxProbes = 32;  // beyond: not found, not added

    BatchKeyIndex() : m_slots(kSlots) {}

    std::size_t find(std::string_view key, const HitBatch& batch) const;
    // Records that batch[index] holds `key` (not found before).
    void add(std::string_view key, std::size_t index);
    void clear();

private:
    struct Slot {
        std::uint32_t generation = 0;
        std::uint32_t index = 0;
    };
    std::size_t home(std::string_view key) const;

    std::vector<Slot> m_slots;
    std::uint32_t m_generation = 1;
    std::size_t m_used = 0;
};

}  // namespace hitcounter
