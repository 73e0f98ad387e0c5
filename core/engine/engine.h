// Engine: owns one counter per policy and feeds them all the same hits, in lockstep (lockstep.h,
// the run `hitcounter-cli replay` drives too).
//
// Not thread-safe; owned by one thread (the counting thread, engine_worker.h). The values that
// cross threads are the HitBatch (in, through the BatchQueue) and copies of its answers (out).
//
// Semantics:
//  - Hits are fed in arrival order to every policy ("ring", policy 0, is the exact reference
//    the others' errors are measured against, and the source of the histogram's slots).
//    Consecutive hits of one second reach the policies as one hit(t, n) (batch_coalescing.h).
//  - The head is the newest second seen. When the head moves to t, each second it leaves
//    is closed: the window count and memory of every policy at the end of that second go into
//    its SecondRecord. Seconds without hits in between are closed too (at most
//    historySeconds of them; a larger jump restarts the history).
//  - Each record also counts its hits per HTTP status class (HitEvent::statusClass), for the
//    live plot's 2xx/3xx/4xx/5xx split: one saturating add per hit.
//  - advanceTo(t) moves the head without hits (a live source's quiet seconds); a Clock batch
//    of the current epoch does the same (a replay's clock in a gap between its hits), once
//    the engine holds a hit.
//  - Stream epochs (hit_event.h): a Reset batch forgets every hit (as reset()) and makes its
//    epoch the current one; a batch of another epoch is dropped (counted in staleBatches()).
//    So a seek's reset and rebuild travel with the data and the state after them equals a
//    replay from the start.
//  - A policy whose memory exceeds policyMemoryCap is stopped (no longer fed) so that a
//    memory-hungry baseline (naive: 16 bytes per hit) cannot grow without bound at 10^6
//    hits/s. The ring is never stopped.
//  - Every hit is also recorded in a KeyedMonitor (per-key window / 1 min / 5 min / 1 h /
//    all-time counts, uniques, top-K) with the same window, queried through keyed(). reset()
//    empties it; rewindow() keeps it and changes its window in place.
//  - Nothing here is timed: what a policy costs per hit and per getHits is measured apart,
//    on the recent stream, by the CostMeter (cost_meter.h), so ingest reads no clock.
//
// Cost: ingest() is O(hits x policies) plus the keyed monitor's work per hit.
// Memory: historySeconds records (SecondRecord) of (2 * policies + 14) words: second, hits, six
// status classes, the two vectors' three words each and their elements; plus the counters.
//
// Example (W = 300):
//     Engine e;  e.ingest({{1, "a"}, {2, "b"}, {3, "a"}});
//     e.snapshot().windowCount == 3;  e.history().size() == 3  (seconds 1 and 2 closed, 3 open)
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/hit_event.h"
#include "core/counters/counter_factory.h"
#include "core/counters/ring_counter.h"
#include "core/engine/batch_coalescing.h"
#include "core/engine/engine_snapshot.h"
#include "core/engine/lockstep.h"
#include "core/keyed/keyed_monitor.h"

namespace hitcounter {

struct EngineOptions {
    std::chrono::seconds window = kDefaultWindow;
    std::chrono::seconds coarseBucket{60};
    // Policies other than "ring" (always first), by factory name; unknown names are skipped.
    std::vector<std::string> policies = {"deque",    "sorted", "coarse",
                                         "estimate", "naive",  "scanring"};
    std::size_t historySeconds = 3600;
    std::size_t policyMemoryCap = std::size_t{16} << 20;
    // The items' key memory cap (KeyedCounter's maxKeyBytes): beyond it the keys hit least
    // recently are folded (EngineFrame::foldedKeys); 0: none.
    std::size_t keyMemoryCap = std::size_t{64} << 20;  // as listen's --key-memory default
    // Makes the counters named in `policies` (tests pass fakes); empty: makeCounter(). The
    // EngineWorker's CostMeter calls it on its own thread too.
    std::function<std::unique_ptr<WindowCounter>(std::string_view, const CounterOptions&)>
        makePolicy;
};

class Engine {
public:
    explicit Engine(EngineOptions options = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Feeds one batch right away (or applies its Reset or Clock marker, or drops it if stale).
    void ingest(const HitBatch& batch);
    // Moves the head to t if t is newer, closing the seconds in between; every running
    // counter is brought to t too, so that snapshot() only reads.
    void advanceTo(Timestamp t);
    // `hits` that arrived too late to count, dropped before ingest (a live source's hits older
    // than its clock's window, EngineWorker): added to totalHits and droppedLate, saturating.
    void countTooLate(Count hits);
    // Forgets every hit and rebuilds the counters (a new window length or a replay seek).
    void reset(EngineOptions options);
    void reset() { reset(m_options); }
    // A new window length (or other options) for a live stream without losing its past: the
    // counters are rebuilt with `options` and fed the hits of every second of the history
    // again (the policies count seconds, so they end as if they had run with the new window
    // all along, as far back as the history reaches); the history's per-second counts are
    // recomputed, and the totals kept. The keyed monitor keeps its keys: its window is changed
    // in place (KeyedMonitor::setWindow; each key's history is kept for the largest level, 1 h,
    // so per-key window counts and top-K are exact as if counted with the new window from the
    // start; window uniques are low for a while after a longer window; see keyed_monitor.h).
    // Bumps epoch() so views rebuild.
    void rewindow(EngineOptions options);

    const EngineOptions& options() const { return m_options; }
    // No hit since the last reset.
    bool empty() const { return m_empty; }
    // The newest second seen (meaningless while empty()).
    Timestamp head() const { return m_head; }
    // The state at the head (queries every running policy: O(policies) plus each count()).
    // No side effects: every running counter's head already is the engine's head (ingest()
    // and advanceTo() keep them equal), so count(head) moves nothing, and the hits counted
    // later do not depend on when (or whether) a snapshot was taken.
    EngineSnapshot snapshot() const;
    // Per-second history, oldest first, contiguous seconds; the last record is the head, whose
    // counts and memory are filled when it closes (see historyFrom for its current values).
    const std::deque<SecondRecord>& history() const { return m_history; }
    // Copies of the records with second >= from, the open head's counts and memory as of now.
    std::vector<SecondRecord> historyFrom(Timestamp from) const;
    // An independent copy of the counting state (policies, keyed monitor, history, totals,
    // epochs) that answers every later call as this engine would: a seek checkpoint
    // (checkpoint_store.h). nullptr if a policy cannot be copied (WindowCounter::clone).
    // O(memoryBytes()).
    std::unique_ptr<Engine> clone() const;
    // Takes a copy of `checkpoint`'s counting state (an engine clone()d with these options)
    // where a Reset marker of `streamEpoch` would start empty: epoch() moves on (views
    // rebuild), staleBatches() is kept. False (nothing changed) if it cannot be copied.
    bool restore(const Engine& checkpoint, std::uint64_t streamEpoch);
    // What the counting state holds: the policies', the keyed monitor's and the history's
    // memory (what a clone() costs).
    std::size_t memoryBytes() const;
    // Incremented by reset() and by a jump that restarts the history: views rebuild.
    std::uint64_t epoch() const { return m_epoch; }
    // The oldest second whose record changed since the last markClean(), or kNoChangedSecond
    // (history_delta.h).
    Timestamp dirtyFrom() const { return m_dirtyFrom; }
    void markClean();
    // Per-key counts of the same hits; query with the head as now.
    KeyedMonitor& keyed() { return *m_keyed; }
    // The current stream epoch (set by the last Reset batch; 0 at first).
    std::uint64_t streamEpoch() const { return m_streamEpoch; }
    // Batches dropped because their epoch was not the current one.
    std::uint64_t staleBatches() const { return m_staleBatches; }

private:
    struct CloneTag {};

    Engine(CloneTag, const Engine& other, Lockstep policies);
    Engine& operator=(Engine&&) noexcept;

    void feedRun(const HitBatch& batch, std::size_t first, std::size_t last);
    // advanceTo() without bringing the counters to the new head (ingest() feeds them a hit
    // there right after).
    void moveHeadTo(Timestamp t);
    void closeHead();
    void openSecond(Timestamp t);
    void stopOversizedPolicies();

    EngineOptions m_options;
    Lockstep m_policies;            // untimed: ingest reads no clock
    RingCounter* m_ring = nullptr;  // m_policies' policy 0
    std::unique_ptr<KeyedMonitor> m_keyed;
    std::deque<SecondRecord> m_history;
    bool m_empty = true;
    Timestamp m_head = 0;
    Count m_totalHits = 0;
    Count m_lateHits = 0;
    Count m_tooLate = 0;  // countTooLate()'s; the policies count their own dropped hits
    std::uint64_t m_epoch = 0;
    std::uint64_t m_streamEpoch = 0;
    std::uint64_t m_staleBatches = 0;
    Timestamp m_dirtyFrom;
    std::vector<SecondHits> m_runs;  // the run being fed, one hit(t, n) per second
};

}  // namespace hitcounter
