#include "app/cli/replay_run.h"

#include <algorithm>

namespace hitcounter::cli {

ReplayRun::ReplayRun(std::vector<std::unique_ptr<WindowCounter>> counters,
                     std::vector<Timestamp> queries)
    : m_counters(std::move(counters)),
      m_queries(std::move(queries)),
      m_answerAtNewest(m_queries.empty()),
      m_hitTime(m_counters.size()) {
    std::sort(m_queries.begin(), m_queries.end());
    m_batch.reserve(kBatchHits);
}

void ReplayRun::add(const HitEvent& event) {
    while (m_nextQuery < m_queries.size() && m_queries[m_nextQuery] < event.time)
        answer(m_queries[m_nextQuery++]);
    m_batch.emplace_back(event.time, event.count);
    ++m_hitCalls;
    m_newest = std::max(m_newest.value_or(event.time), event.time);
    if (m_batch.size() == kBatchHits)
        flush();
}

void ReplayRun::flush() {
    // Timing a whole batch keeps the clock's own cost (tens of ns) out of the per-hit figure.
    for (std::size_t i = 0; i < m_counters.size(); ++i) {
        WindowCounter& counter = *m_counters[i];
        const auto start = std::chrono::steady_clock::now();
        for (const auto& [time, count] : m_batch)
            counter.hit(time, count);
        m_hitTime[i] += std::chrono::steady_clock::now() - start;
    }
    m_batch.clear();
}

void ReplayRun::answer(Timestamp time) {
    flush();
    Answer answer{time, {}};
    for (const auto& counter : m_counters)
        answer.counts.push_back(counter->count(time));
    m_answers.push_back(std::move(answer));
    if (m_onAnswer)
        m_onAnswer(time);
}

void ReplayRun::finish() {
    flush();
    m_summaries.assign(m_counters.size(), Summary{});
    if (m_newest) {
        for (std::size_t i = 0; i < m_counters.size(); ++i)
            m_summaries[i].finalCount = m_counters[i]->count(*m_newest);
    }
    while (m_nextQuery < m_queries.size())
        answer(m_queries[m_nextQuery++]);
    if (m_answerAtNewest && m_newest)
        answer(*m_newest);
    for (std::size_t i = 0; i < m_counters.size(); ++i) {
        m_summaries[i].memoryBytes = m_counters[i]->memoryBytes();
        m_summaries[i].droppedLate = m_counters[i]->droppedLate();
        if (m_hitCalls > 0)
            m_summaries[i].nsPerHit = static_cast<double>(m_hitTime[i].count()) / m_hitCalls;
    }
}

}  // namespace hitcounter::cli
