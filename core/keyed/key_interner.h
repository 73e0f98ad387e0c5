// KeyInterner: gives every distinct key a small id (0, 1, 2, ...) and finds the id again from
// the key's bytes, through a flat open-addressing table, so that per-key state can live in a
// plain vector indexed by id instead of in hash-map nodes.
//
// Not thread-safe; a member of one KeyedCounter.
//
// Semantics: intern(key) returns the key's id, giving it one if it has none (the most recently
// freed id first, else the next new one); find(key) returns the id or kNoId; erase(id) forgets
// the key and frees its id; key(id) is the key's bytes while the id is live. Ids stay below
// idLimit(), which grows only when every id below it is live, so a vector indexed by id
// holds at most the peak number of live keys.
// Cost: intern() and find() O(1) expected: one hash of the key's bytes (wyhash's mixing, seeded
//       per table from std::random_device, so colliding keys cannot be prepared in advance),
//       then linear probing over 32-byte slots holding the id, 32 bits of its hash and, for a
//       key of up to 23 bytes, the key itself: a probe compares bytes only on a hash match and
//       a short key is found without touching anything but its slot. The table stays at most 3/4
//       full counting erased slots; when it would be fuller it is rebuilt, twice as large when the
//       live keys fill more than half of it, else in place (erased slots dropped): O(keys) then,
//       O(1) amortized per intern().
// Memory: the table (32 bytes per slot, 4/3 to 4 slots per live key) plus per id its key
//       (a std::string) and its 8-byte hash: memoryBytes().
//
// Example: intern("home") == 0, intern("about") == 1, intern("home") == 0, find("x") == kNoId;
//          erase(0); intern("x") == 0 (reused), key(0) == "x", find("home") == kNoId
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hitcounter {

class KeyInterner {
public:
    using Id = std::uint32_t;
    static constexpr Id kNoId = 0xFFFF'FFFFU;

    KeyInterner();

    Id intern(std::string_view key);
    Id find(std::string_view key) const;
    // Precondition: id is live.
    void erase(Id id);

    const std::string& key(Id id) const { return m_keys[id]; }
    bool live(Id id) const { return id < m_live.size() && m_live[id]; }
    std::size_t size() const { return m_size; }
    Id idLimit() const { return static_cast<Id>(m_keys.size()); }
    std::size_t memoryBytes() const;
    // What one more live key costs here, on average (its slots, hash and std::string).
    static std::size_t bytesPerKey(const std::string& key);

private:
    // 32 bytes, half a cache line: a key of up to kInlineBytes is compared right here.
    static constexpr std::size_t kInlineBytes = 23;
    struct Slot {
        Id id = kEmpty;
        std::uint32_t tag = 0;     // the hash's high 32 bits
        std::uint8_t length = 0;   // the key's length, kLongKey if it is not inline
        char bytes[kInlineBytes];  // the key, if it fits
    };
    static constexpr std::uint8_t kLongKey = 0xFF;
    static constexpr Id kEmpty = 0xFFFF'FFFFU;
    static constexpr Id kErased = 0xFFFF'FFFEU;

    std::uint64_t hashOf(std::string_view key) const;
    static std::uint32_t tagOf(std::uint64_t hash) {
        return static_cast<std::uint32_t>(hash >> 32);
    }
    Slot slotFor(Id id) const;
    bool holds(const Slot& slot, std::string_view key) const;
    // The slot holding `key`, or the first empty slot of its probe sequence.
    std::size_t probe(std::string_view key, std::uint64_t hash) const;
    void rebuild(std::size_t capacity);

    // Per table, so that keys chosen to collide in one process do not collide in another.
    const std::uint64_t m_seed;
    std::vector<Slot> m_slots;  // a power of two
    std::size_t m_size = 0;     // live keys
    std::size_t m_erased = 0;   // erased slots
    std::vector<std::string> m_keys;
    std::vector<std::uint64_t> m_hashes;
    std::vector<bool> m_live;
    std::vector<Id> m_free;
};

}  // namespace hitcounter
