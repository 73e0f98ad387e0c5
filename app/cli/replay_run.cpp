#include "app/cli/replay_run.h"

#include <algorithm>

namespace hitcounter::cli {

ReplayRun::ReplayRun(std::vector<std::unique_ptr<WindowCounter>> counters,
                     std::vector<Timestamp> queries)
    : m_policies(std::move(counters), ThreadCpuTimer{}),
      m_queries(std::move(queries)),
      m_answerAtNewest(m_queries.empty()) {
    std::sort(m_queries.begin(), m_queries.end());
    m_batch.reserve(kBatchHits);
}

void ReplayRun::add(const HitEvent& event) {
    while (m_nextQuery < m_queries.size() && m_queries[m_nextQuery] < event.time)
        answer(m_queries[m_nextQuery++]);
    m_batch.push_back({event.time, event.count});
    ++m_hitCalls;
    m_newest = std::max(m_newest.value_or(event.time), event.time);
    if (m_batch.size() == kBatchHits)
        flush();
}

void ReplayRun::flush() {
    m_policies.feed(m_batch);
    m_batch.clear();
}

void ReplayRun::answer(Timestamp time) {
    flush();
    Answer answer{time, {}};
    for (std::size_t i = 0; i < m_policies.size(); ++i)
        answer.counts.push_back(m_policies.count(i, time));
    m_answers.push_back(std::move(answer));
    if (m_onAnswer)
        m_onAnswer(time);
}

void ReplayRun::finish() {
    flush();
    m_summaries.assign(m_policies.size(), Summary{});
    if (m_newest) {
        for (std::size_t i = 0; i < m_policies.size(); ++i)
            m_summaries[i].finalCount = m_policies.count(i, *m_newest);
    }
    while (m_nextQuery < m_queries.size())
        answer(m_queries[m_nextQuery++]);
    if (m_answerAtNewest && m_newest)
        answer(*m_newest);
    for (std::size_t i = 0; i < m_policies.size(); ++i) {
        m_summaries[i].memoryBytes = m_policies.memoryBytes(i);
        m_summaries[i].droppedLate = m_policies.droppedLate(i);
        m_summaries[i].nsPerHit = m_policies.nsPerHit(i);
    }
}

}  // namespace hitcounter::cli
