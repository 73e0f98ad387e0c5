// ReplayRun: feeds one trace's hits to several counting policies and answers query times in
// streaming order, timing each policy's hits. The engine of `hitcounter-cli replay`: a query
// order over the core's lockstep run (core/engine/lockstep.h), the one the GUI's Engine feeds,
// so both count alike and ns_per_hit is the cost the GUI's policy comparison shows.
//
// Not thread-safe; one owner thread.
//
// Semantics: a query at time T is answered after every hit with timestamp <= T and before
// the first later hit whose timestamp is > T; queries still open when the trace ends are
// answered after the last hit, in ascending order. With no query times at all, the run
// answers once at the newest timestamp of the trace (nothing for an empty trace).
// Each hit reaches the policies as delivered, one hit(t, n) each (not summed per second).
// Each policy's summary holds its count at the newest timestamp (taken before the queries
// past the end), its memory and dropped-late total after the run, and its mean cost per hit:
// thread CPU time, timed per batch with the clock's own cost kept out (Lockstep's timing,
// core/engine/thread_cpu_timer.h).
// Memory: the counters, the answers (one count per query per policy) and a fixed batch of
// kBatchHits pending hits; constant in the trace's length.
// Cost: each hit is stored once in the batch, then given to every counter; the batch is
// flushed (and timed, one clock pair per policy per batch) when full and before a query.
//
// Example, W = 300, queries {4, 301}:
//     add({1}) add({2}) add({3}) add({300})  -> before the hit at 300, count(4) == 3
//     finish()                               -> count(301) == 3; summary final count(300) == 4
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/base/hit_event.h"
#include "core/counters/window_counter.h"
#include "core/engine/lockstep.h"

namespace hitcounter::cli {

class ReplayRun {
public:
    static constexpr std::size_t kBatchHits = 4096;

    struct Answer {
        Timestamp time = 0;
        std::vector<Count> counts;  // one per counter, in the constructor's order
    };
    struct Summary {
        Count finalCount = 0;
        std::size_t memoryBytes = 0;
        Count droppedLate = 0;
        double nsPerHit = 0;  // thread CPU ns; 0 when there were no hits
    };

    // `queries` in any order; they are answered in ascending order.
    ReplayRun(std::vector<std::unique_ptr<WindowCounter>> counters, std::vector<Timestamp> queries);

    void add(const HitEvent& event);
    // Call once, after the last add().
    void finish();
    // Called with each query time right after the counters answered it, for answers kept
    // outside the run (replay --top, --uniques). Feed such listeners each event after add().
    void setOnAnswer(std::function<void(Timestamp)> onAnswer) { m_onAnswer = std::move(onAnswer); }

    const std::vector<std::unique_ptr<WindowCounter>>& counters() const {
        return m_policies.policies();
    }
    const std::vector<Answer>& answers() const { return m_answers; }
    // One per counter; valid after finish().
    const std::vector<Summary>& summaries() const { return m_summaries; }
    std::uint64_t hits() const { return m_hitCalls; }
    // The newest timestamp seen; std::nullopt before the first hit.
    std::optional<Timestamp> newest() const { return m_newest; }

private:
    void flush();
    void answer(Timestamp time);

    Lockstep m_policies;               // timed
    std::vector<Timestamp> m_queries;  // ascending
    std::size_t m_nextQuery = 0;
    bool m_answerAtNewest = false;
    std::vector<SecondHits> m_batch;  // one run per hit, as delivered
    std::vector<Answer> m_answers;
    std::vector<Summary> m_summaries;
    std::uint64_t m_hitCalls = 0;
    std::optional<Timestamp> m_newest;
    std::function<void(Timestamp)> m_onAnswer;
};

}  // namespace hitcounter::cli
