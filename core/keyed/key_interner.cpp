#include "core/keyed/key_interner.h"

#include <cstring>
#include <random>

namespace hitcounter {

namespace {

constexpr std::size_t kInitialSlots = 16;

std::uint64_t load64(const char* p) {
    std::uint64_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
}

std::uint32_t load32(const char* p) {
    std::uint32_t v = 0;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// The two halves of a 64 x 64 -> 128-bit product, folded: wyhash's mixing step.
[[gnu::always_inline]] inline std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
    return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
}

constexpr std::uint64_t kMix1 = 0xa0761d6478bd642fULL;
constexpr std::uint64_t kMix2 = 0xe7037ed1a0b428dbULL;

// The n bytes at a and b are equal; up to 24 bytes are compared inline (overlapping word
// loads, never reading past either end), longer ones by memcmp.
[[gnu::always_inline]] inline bool sameBytes(const char* a, const char* b, std::size_t n) {
    if (n >= 8 && n <= 24) {
        const bool ends = load64(a) == load64(b) && load64(a + n - 8) == load64(b + n - 8);
        return n <= 16 ? ends : ends && load64(a + 8) == load64(b + 8);
    }
    if (n >= 4 && n < 8) {
        return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
    }
    return std::memcmp(a, b, n) == 0;
}

std::uint64_t randomSeed() {
    std::random_device device;
    return std::uint64_t{device()} << 32 | device();
}

}  // namespace

KeyInterner::KeyInterner() : m_seed(randomSeed()), m_slots(kInitialSlots) {}

// The hot path (hash, probe, compare) is inlined into intern() and find().
[[gnu::always_inline]] inline std::uint64_t KeyInterner::hashOf(std::string_view key) const {
    // wyhash's structure: 16 bytes per step, the tail read as two (overlapping) words.
    const char* p = key.data();
    std::size_t n = key.size();
    std::uint64_t h = m_seed ^ mix(n ^ kMix1, kMix2);
    for (; n > 16; p += 16, n -= 16) {
        h = mix(load64(p) ^ kMix1, load64(p + 8) ^ h);
    }
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    if (n >= 8) {
        a = load64(p);
        b = load64(p + n - 8);
    } else if (n >= 4) {
        a = load32(p);
        b = load32(p + n - 4);
    } else if (n > 0) {
        a = std::uint64_t{static_cast<unsigned char>(p[0])} << 16 |
            std::uint64_t{static_cast<unsigned char>(p[n / 2])} << 8 |
            static_cast<unsigned char>(p[n - 1]);
    }
    return mix(a ^ kMix1 ^ n, mix(b ^ kMix2, h));
}

[[gnu::always_inline]] inline std::size_t KeyInterner::probe(std::string_view key,
                                                             std::uint64_t hash) const {
    const std::size_t mask = m_slots.size() - 1;
    const std::uint32_t tag = tagOf(hash);
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.id == kEmpty) {
            return i;
        }
        if (slot.id != kErased && slot.tag == tag && holds(slot, key)) {
            return i;
        }
    }
}

[[gnu::always_inline]] inline bool KeyInterner::holds(const Slot& slot,
                                                      std::string_view key) const {
    if (slot.length != kLongKey) {
        return slot.length == key.size() && sameBytes(slot.bytes, key.data(), key.size());
    }
    const std::string& stored = m_keys[slot.id];
    return stored.size() == key.size() && sameBytes(stored.data(), key.data(), key.size());
}

KeyInterner::Slot KeyInterner::slotFor(Id id) const {
    Slot slot;
    slot.id = id;
    slot.tag = tagOf(m_hashes[id]);
    const std::string& key = m_keys[id];
    if (key.size() <= kInlineBytes) {
        slot.length = static_cast<std::uint8_t>(key.size());
        std::memcpy(slot.bytes, key.data(), key.size());
    } else {
        slot.length = kLongKey;
    }
    return slot;
}

KeyInterner::Id KeyInterner::find(std::string_view key) const {
    return m_slots[probe(key, hashOf(key))].id;  // kEmpty == kNoId
}

KeyInterner::Id KeyInterner::intern(std::string_view key) {
    const std::uint64_t hash = hashOf(key);
    std::size_t i = probe(key, hash);
    if (m_slots[i].id != kEmpty) {
        return m_slots[i].id;
    }
    // Erased slots are not reused for inserts (the probe above stops only at an empty one), so
    // they count toward the fill until the next rebuild drops them.
    if ((m_size + m_erased + 1) * 4 > m_slots.size() * 3) {
        rebuild((m_size + 1) * 2 > m_slots.size() ? m_slots.size() * 2 : m_slots.size());
        i = probe(key, hash);
    }
    Id id = 0;
    if (!m_free.empty()) {
        id = m_free.back();
        m_free.pop_back();
        m_keys[id].assign(key);
        m_hashes[id] = hash;
        m_live[id] = true;
    } else {
        id = static_cast<Id>(m_keys.size());
        m_keys.emplace_back(key);
        m_hashes.push_back(hash);
        m_live.push_back(true);
    }
    m_slots[i] = slotFor(id);
    ++m_size;
    return id;
}

void KeyInterner::erase(Id id) {
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = m_hashes[id] & mask;
    while (m_slots[i].id != id) {
        i = (i + 1) & mask;
    }
    m_slots[i].id = kErased;
    ++m_erased;
    --m_size;
    m_live[id] = false;
    std::string().swap(m_keys[id]);  // its heap bytes go now, not when the id is reused
    m_free.push_back(id);
}

void KeyInterner::rebuild(std::size_t capacity) {
    std::vector<Slot> slots(capacity);
    const std::size_t mask = capacity - 1;
    for (Id id = 0; id < m_keys.size(); ++id) {
        if (!m_live[id]) {
            continue;
        }
        std::size_t i = m_hashes[id] & mask;
        while (slots[i].id != kEmpty) {
            i = (i + 1) & mask;
        }
        slots[i] = slotFor(id);
    }
    m_slots = std::move(slots);
    m_erased = 0;
}

std::size_t KeyInterner::memoryBytes() const {
    std::size_t bytes = sizeof(*this) + m_slots.capacity() * sizeof(Slot) +
                        m_keys.capacity() * sizeof(std::string) +
                        m_hashes.capacity() * sizeof(std::uint64_t) + m_live.capacity() / 8 +
                        m_free.capacity() * sizeof(Id);
    for (const std::string& key : m_keys) {
        bytes += key.capacity() > std::string().capacity() ? key.capacity() + 1 : 0;
    }
    return bytes;
}

std::size_t KeyInterner::bytesPerKey(const std::string& key) {
    // Between 4/3 and 4 slots per live key; charge about the middle of that range.
    constexpr std::size_t kSlotBytes = 2 * sizeof(Slot);
    // From the length, not the capacity: the charge taken when a key comes must be the one
    // given back when it goes, also in a copy of the table (whose strings hold no spare room).
    const std::size_t heap = key.size() > std::string().capacity() ? key.size() + 1 : 0;
    return kSlotBytes + sizeof(std::string) + sizeof(std::uint64_t) + heap;
}

}  // namespace hitcounter
