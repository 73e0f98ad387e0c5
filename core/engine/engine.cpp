#include "core/engine/engine.h"

#include <algorithm>

#include "core/base/invariant.h"
#include "core/base/saturating.h"
#include "core/counters/counter_factory.h"
#include "core/engine/batch_coalescing.h"
#include "core/engine/history_delta.h"

namespace hitcounter {

Engine::Engine(EngineOptions options) : m_dirtyFrom(kNoChangedSecond) {
    reset(std::move(options));
}

Engine::Engine(CloneTag, const Engine& other, Lockstep policies)
    : m_options(other.m_options),
      m_policies(std::move(policies)),
      m_ring(static_cast<RingCounter*>(m_policies.policies().front().get())),
      m_keyed(std::make_unique<KeyedMonitor>(*other.m_keyed)),
      m_history(other.m_history),
      m_empty(other.m_empty),
      m_head(other.m_head),
      m_totalHits(other.m_totalHits),
      m_lateHits(other.m_lateHits),
      m_tooLate(other.m_tooLate),
      m_epoch(other.m_epoch),
      m_streamEpoch(other.m_streamEpoch),
      m_staleBatches(other.m_staleBatches),
      m_dirtyFrom(other.m_dirtyFrom) {}

Engine::~Engine() = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

bool Engine::restore(const Engine& checkpoint, std::uint64_t streamEpoch) {
    std::unique_ptr<Engine> copy = checkpoint.clone();
    if (!copy) {
        return false;
    }
    const std::uint64_t epoch = std::max(m_epoch, copy->m_epoch) + 1;
    const std::uint64_t stale = m_staleBatches;
    *this = std::move(*copy);
    m_epoch = epoch;
    m_staleBatches = stale;
    m_streamEpoch = streamEpoch;
    m_dirtyFrom = kNoChangedSecond;
    return true;
}

std::unique_ptr<Engine> Engine::clone() const {
    std::optional<Lockstep> policies = m_policies.clone();
    if (!policies) {
        return nullptr;
    }
    return std::unique_ptr<Engine>(new Engine(CloneTag{}, *this, std::move(*policies)));
}

std::size_t Engine::memoryBytes() const {
    std::size_t bytes = sizeof(*this) + m_keyed->memoryBytes() + m_policies.heldBytes();
    for (const SecondRecord& record : m_history) {
        bytes += sizeof(record) + record.counts.capacity() * sizeof(Count) +
                 record.memory.capacity() * sizeof(std::size_t);
    }
    return bytes;
}

void Engine::reset(EngineOptions options) {
    m_options = std::move(options);
    const CounterOptions counterOptions{m_options.window, m_options.coarseBucket};
    std::vector<std::unique_ptr<WindowCounter>> policies;
    auto ring = std::make_unique<RingCounter>(m_options.window);
    m_ring = ring.get();
    policies.push_back(std::move(ring));
    for (const std::string& name : m_options.policies) {
        if (name == "ring") {
            continue;
        }
        if (auto counter = m_options.makePolicy ? m_options.makePolicy(name, counterOptions)
                                                : makeCounter(name, counterOptions)) {
            policies.push_back(std::move(counter));
        }
    }
    m_policies = Lockstep(std::move(policies));
    MonitorOptions monitor;
    monitor.window = m_options.window;
    monitor.maxKeyBytes = m_options.keyMemoryCap;
    m_keyed = std::make_unique<KeyedMonitor>(monitor);
    m_history.clear();
    m_empty = true;
    m_head = 0;
    m_totalHits = 0;
    m_lateHits = 0;
    m_tooLate = 0;
    m_dirtyFrom = kNoChangedSecond;
    ++m_epoch;
}

void Engine::rewindow(EngineOptions options) {
    std::deque<SecondRecord> past = std::move(m_history);
    const bool wasEmpty = m_empty;
    const Count total = m_totalHits;
    const Count late = m_lateHits;
    const Count tooLate = m_tooLate;
    std::unique_ptr<KeyedMonitor> keyed = std::move(m_keyed);
    reset(std::move(options));
    m_totalHits = total;
    m_lateHits = late;
    m_tooLate = tooLate;
    if (wasEmpty) {
        return;
    }
    if (keyed && m_options.window <= keyed->keys().retention()) {
        // Its per-key history reaches back further than the engine's: kept, not rebuilt.
        keyed->setWindow(m_options.window);
        m_keyed = std::move(keyed);
    }
    for (const SecondRecord& old : past) {
        moveHeadTo(old.second);
        SecondRecord& record = m_history.back();
        record.hits = old.hits;
        record.statusHits = old.statusHits;
        if (old.hits > 0) {
            const SecondHits hits{old.second, old.hits};
            m_policies.feed({&hits, 1});
        }
    }
}

void Engine::countTooLate(Count hits) {
    m_totalHits = saturatingAdd(m_totalHits, hits);
    m_tooLate = saturatingAdd(m_tooLate, hits);
}

void Engine::ingest(const HitBatch& batch) {
    if (batch.kind == BatchKind::Reset) {
        reset(m_options);
        m_streamEpoch = batch.epoch;
        return;
    }
    if (batch.epoch != m_streamEpoch) {
        ++m_staleBatches;
        return;
    }
    if (batch.kind == BatchKind::Clock) {
        if (!m_empty) {
            advanceTo(batch.clock);
        }
        return;
    }
    std::size_t i = 0;
    while (i < batch.size()) {
        // The run fed next starts at the new head, so every counter sees it by hit().
        moveHeadTo(batch[i].time);
        std::size_t j = i;
        while (j < batch.size() && batch[j].time <= m_head) {
            ++j;
        }
        feedRun(batch, i, j);
        i = j;
    }
}

void Engine::feedRun(const HitBatch& batch, std::size_t first, std::size_t last) {
    const Timestamp windowStart = m_head - m_options.window.count();
    const Timestamp historyStart = m_history.empty() ? m_head : m_history.front().second;
    for (std::size_t k = first; k < last; ++k) {
        const HitEvent& e = batch[k];
        m_totalHits = saturatingAdd(m_totalHits, e.count);
        if (e.time < m_head && e.time > windowStart) {
            m_lateHits = saturatingAdd(m_lateHits, e.count);
        }
        if (e.time >= historyStart) {
            HITCOUNTER_DCHECK(static_cast<std::uint64_t>(e.time - historyStart) < m_history.size(),
                              "a fed hit is not after the head");
            SecondRecord& record = m_history[static_cast<std::size_t>(e.time - historyStart)];
            record.hits = saturatingAdd(record.hits, e.count);
            Count& byClass = record.statusHits[std::min<std::size_t>(e.statusClass, 5)];
            byClass = saturatingAdd(byClass, e.count);
            HITCOUNTER_DCHECK(record.second == e.time, "history seconds are contiguous");
            m_dirtyFrom = std::min(m_dirtyFrom, e.time);
        }
    }
    const auto hits = std::span(batch).subspan(first, last - first);
    m_keyed->record(hits);
    coalesceBySecond(hits, m_runs);
    m_policies.feed(m_runs);
}

void Engine::advanceTo(Timestamp t) {
    if (!m_empty && t <= m_head) {
        return;
    }
    moveHeadTo(t);
    // No hit brings the counters to the new head: a query does (their head moves with hit()
    // or count()). Without it the first snapshot() would move them, and what a later late hit
    // does (counted or dropped as too late) would depend on when a frame was taken.
    for (std::size_t p = 0; p < m_policies.size(); ++p) {
        m_policies.count(p, m_head);
    }
}

void Engine::moveHeadTo(Timestamp t) {
    if (m_empty) {
        m_empty = false;
        m_head = t;
        openSecond(t);
        return;
    }
    if (t <= m_head) {
        return;
    }
    closeHead();
    const auto gap = static_cast<std::uint64_t>(t - m_head - 1);
    if (gap >= m_options.historySeconds) {
        // Closing every quiet second would cost up to historySeconds queries per policy for
        // records that would be trimmed at once: start a new history instead.
        m_history.clear();
        ++m_epoch;
    } else {
        for (Timestamp s = m_head + 1; s < t; ++s) {
            m_head = s;
            openSecond(s);
            closeHead();
        }
    }
    m_head = t;
    openSecond(t);
}

void Engine::openSecond(Timestamp t) {
    HITCOUNTER_DCHECK(m_history.empty() || m_history.back().second + 1 == t,
                      "history seconds are contiguous");
    SecondRecord record;
    record.second = t;
    record.counts.assign(m_policies.size(), 0);
    record.memory.assign(m_policies.size(), 0);
    m_history.push_back(std::move(record));
    while (m_history.size() > std::max<std::size_t>(m_options.historySeconds, 1)) {
        m_history.pop_front();
    }
    m_dirtyFrom = std::min(m_dirtyFrom, t);
}

void Engine::closeHead() {
    HITCOUNTER_DCHECK(!m_history.empty() && m_history.back().second == m_head,
                      "the last history record is the head");
    SecondRecord& record = m_history.back();
    for (std::size_t p = 0; p < m_policies.size(); ++p) {
        record.counts[p] = m_policies.count(p, m_head);
        record.memory[p] = m_policies.memoryBytes(p);
    }
    m_dirtyFrom = std::min(m_dirtyFrom, m_head);
    stopOversizedPolicies();
}

void Engine::stopOversizedPolicies() {
    for (std::size_t p = 1; p < m_policies.size(); ++p) {
        if (!m_policies.stopped(p) && m_policies.memoryBytes(p) > m_options.policyMemoryCap) {
            m_policies.stop(p, m_head);
        }
    }
}

EngineSnapshot Engine::snapshot() const {
    EngineSnapshot s;
    s.windowSeconds = m_options.window.count();
    s.policyMemoryCap = m_options.policyMemoryCap;
    s.empty = m_empty;
    s.head = m_head;
    s.totalHits = m_totalHits;
    s.lateHits = m_lateHits;
    s.droppedLate = saturatingAdd(m_ring->droppedLate(), m_tooLate);
    s.slots.reserve(m_ring->slotCount());
    for (std::size_t i = 0; i < m_ring->slotCount(); ++i) {
        s.slots.push_back(m_ring->slot(i));
    }
    s.policies.reserve(m_policies.size());
    const Count exact = m_empty ? 0 : m_ring->count(m_head);
    s.windowCount = exact;
    if (!m_history.empty() && m_history.back().second == m_head) {
        s.headHits = m_history.back().hits;
    }
    for (std::size_t p = 0; p < m_policies.size(); ++p) {
        const WindowCounter& counter = *m_policies.policies()[p];
        PolicyState state;
        state.name = std::string(counter.name());
        state.exact = counter.isExact();
        state.stopped = m_policies.stopped(p);
        state.count = m_empty ? 0 : m_policies.count(p, m_head);
        state.memoryBytes = m_policies.memoryBytes(p);
        state.stoppedAt = m_policies.stoppedAt(p);
        state.error = static_cast<std::int64_t>(state.count) - static_cast<std::int64_t>(exact);
        state.errorPercent =
            exact == 0 ? 0.0
                       : 100.0 * static_cast<double>(state.error) / static_cast<double>(exact);
        s.policies.push_back(std::move(state));
    }
    return s;
}

std::vector<SecondRecord> Engine::historyFrom(Timestamp from) const {
    std::vector<SecondRecord> records = historyDeltaFrom(m_history, from, false);
    if (!records.empty() && records.back().second == m_head && !m_empty) {
        SecondRecord& open = records.back();
        for (std::size_t p = 0; p < m_policies.size(); ++p) {
            open.counts[p] = m_policies.count(p, m_head);
            open.memory[p] = m_policies.memoryBytes(p);
        }
    }
    return records;
}

void Engine::markClean() {
    m_dirtyFrom = kNoChangedSecond;
}

}  // namespace hitcounter
