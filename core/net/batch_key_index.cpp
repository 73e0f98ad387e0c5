#include "core/net/batch_key_index.h"

#include <algorithm>
#include <functional>

namespace hitcounter {

std::size_t BatchKeyIndex::home(std::string_view key) const {
    return std::hash<std::string_view>{}(key) & (kSlots - 1);
}

std::size_t BatchKeyIndex::find(std::string_view key, const HitBatch& batch) const {
    std::size_t i = home(key);
    for (std::size_t probe = 0; probe < kMaxProbes; ++probe, i = (i + 1) & (kSlots - 1)) {
        const Slot& slot = m_slots[i];
        if (slot.generation != m_generation) {
            return kNone;
        }
        if (batch[slot.index].key == key) {
            return slot.index;
        }
    }
    return kNone;
}

void BatchKeyIndex::add(std::string_view key, std::size_t index) {
    if (m_used >= kSlots / 2) {
        return;  // full: the caller appends instead
    }
    std::size_t i = home(key);
    for (std::size_t probe = 0; probe < kMaxProbes; ++probe, i = (i + 1) & (kSlots - 1)) {
        if (m_slots[i].generation != m_generation) {
            m_slots[i] = Slot{m_generation, static_cast<std::uint32_t>(index)};
            ++m_used;
            return;
        }
    }
    // Keys that collide this much (chosen to, perhaps) are not merged: bounded work per line.
}

void BatchKeyIndex::clear() {
    m_used = 0;
    if (++m_generation == 0) {
        // Forget every slot before a generation number comes back.
        std::fill(m_slots.begin(), m_slots.end(), Slot{});
        m_generation = 1;
    }
}

}  // namespace hitcounter
