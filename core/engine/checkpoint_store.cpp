#include "core/engine/checkpoint_store.h"

#include <algorithm>

namespace hitcounter {

namespace {
bool headBefore(const std::shared_ptr<const CountingCheckpoint>& c, Timestamp head) {
    return c->point().head < head;
}
}  // namespace

CheckpointStore::CheckpointStore(std::size_t budgetBytes) : m_budget(budgetBytes) {}

std::shared_ptr<const SeekCheckpoint> CheckpointStore::newestAtOrBefore(std::uint64_t stream,
                                                                        Timestamp t) const {
    std::lock_guard lock(m_mutex);
    if (stream == 0 || stream != m_stream) {
        return nullptr;
    }
    // The first checkpoint after t, then one back.
    auto after = std::upper_bound(m_kept.begin(), m_kept.end(), t,
                                  [](Timestamp x, const auto& c) { return x < c->point().head; });
    return after == m_kept.begin() ? nullptr : *std::prev(after);
}

bool CheckpointStore::wants(std::uint64_t stream, std::uint64_t generation, Timestamp head,
                            std::size_t bytes) const {
    std::lock_guard lock(m_mutex);
    return wantsLocked(stream, generation, head, bytes);
}

bool CheckpointStore::wantsLocked(std::uint64_t stream, std::uint64_t generation, Timestamp head,
                                  std::size_t bytes) const {
    if (stream == 0 || generation != m_generation || bytes > m_budget) {
        return false;
    }
    if (stream != m_stream) {
        return true;  // replaces the other stream's
    }
    const auto next = std::lower_bound(m_kept.begin(), m_kept.end(), head, headBefore);
    const bool farFromNext = next == m_kept.end() || (*next)->point().head - head >= m_spacing;
    const bool farFromPrevious =
        next == m_kept.begin() || head - (*std::prev(next))->point().head >= m_spacing;
    return farFromNext && farFromPrevious;
}

void CheckpointStore::add(std::uint64_t stream,
                          std::shared_ptr<const CountingCheckpoint> checkpoint) {
    std::lock_guard lock(m_mutex);
    if (!wantsLocked(stream, checkpoint->generation(), checkpoint->point().head,
                     checkpoint->bytes())) {
        return;
    }
    if (stream != m_stream) {
        m_kept.clear();
        m_bytes = 0;
        m_spacing = kFirstSpacing;
        m_stream = stream;
    }
    m_bytes += checkpoint->bytes();
    const auto at =
        std::lower_bound(m_kept.begin(), m_kept.end(), checkpoint->point().head, headBefore);
    m_kept.insert(at, std::move(checkpoint));
    thinLocked();
}

void CheckpointStore::thinLocked() {
    while (m_bytes > m_budget && m_kept.size() > 1) {
        m_spacing *= 2;
        std::vector<std::shared_ptr<const CountingCheckpoint>> kept;
        m_bytes = 0;
        for (auto& c : m_kept) {
            if (kept.empty() || c->point().head - kept.back()->point().head >= m_spacing) {
                m_bytes += c->bytes();
                kept.push_back(std::move(c));
            }
        }
        m_kept = std::move(kept);
    }
}

std::uint64_t CheckpointStore::invalidate() {
    std::lock_guard lock(m_mutex);
    m_kept.clear();
    m_bytes = 0;
    m_spacing = kFirstSpacing;
    return ++m_generation;
}

std::uint64_t CheckpointStore::generation() const {
    std::lock_guard lock(m_mutex);
    return m_generation;
}

std::size_t CheckpointStore::budgetForFile(std::uintmax_t fileBytes) {
    return static_cast<std::size_t>(
        std::clamp<std::uintmax_t>(fileBytes / 10, kDefaultBudgetBytes, kMaxBudgetBytes));
}

void CheckpointStore::setBudget(std::size_t bytes) {
    std::lock_guard lock(m_mutex);
    m_budget = bytes;
    thinLocked();
    if (m_bytes > m_budget) {
        m_kept.clear();
        m_bytes = 0;
    }
}

std::size_t CheckpointStore::budgetBytes() const {
    std::lock_guard lock(m_mutex);
    return m_budget;
}

CheckpointStore::Stats CheckpointStore::stats() const {
    std::lock_guard lock(m_mutex);
    return {m_kept.size(), m_bytes, m_spacing};
}

}  // namespace hitcounter
