// EngineWorker: the counting thread. It owns the Engine, feeds it every batch of its input
// queue, and builds an EngineFrame when the GUI asks for one (at most one per request, so at
// most one per GUI frame). The GUI only draws frames; its cost does not grow with the ingest
// rate.
//
// Threading: the engine lives on the worker's std::jthread (stopped through its stop_token).
// Exactly these cross threads: batches (the BatchQueue), frames (m_frameMutex guards
// m_frame), the commands below (m_commandMutex guards m_command*), and the recording tap
// (m_recorderMutex guards m_recorder). Every public function may be called from any thread.
//
// Semantics:
//  - Resets travel with the data: a source change or a replay seek pushes a Reset marker
//    (hit_event.h) into the input queue; the engine forgets every hit when it reaches it and
//    drops batches of other epochs. New options (a window change) take effect at the next
//    Reset marker, so they too apply at a known place in the stream.
//  - Live sources: with setLiveClock(clock), the head follows clock.now() while no hit comes,
//    and a hit at or before clock.now() - W when it arrives is too late (Engine::countTooLate:
//    in the total and the too-late count, not in the window, the items or the Rate limits
//    lab; the recording tap still gets it): a followed log whose times are far behind the
//    clock counts nothing in the window, as it should, and says so.
//    A replay carries its own clock instead: its Clock markers (hit_event.h) move the head of
//    the engine and of the Rate limits lab through gaps between its hits.
//  - Recording tap: while a recorder is set, every Hits batch of the current epoch the engine
//    counts is written to it (Rebuild batches are not: they were recorded when they first
//    streamed). Setting or clearing it touches neither the source nor the counters.
//  - Rate limits: the LimitsFeed (limits_feed.h) is fed the batches the engine counts and is
//    reset by the same Reset markers; setLimits() restarts it with new options where the
//    counting thread picks the command up (from the current point; a replay seek after it
//    rebuilds it from the start). Each frame carries its LimitsFrame.
//  - Seek checkpoints (checkpoint_store.h, the protocol in seek_checkpoints.h): while it
//    counts a replay's first pass row after row in one epoch, the worker keeps copies of its
//    engine in checkpoints() every spacing() seconds of trace time; a seek's Reset that
//    carries one is restored instead of starting empty. New engine or limits options
//    invalidate them (they were counted with the old ones). While the Rate limits lab runs,
//    none are taken or restored (the lab's state is not copied): seeks then fast-forward from
//    the start.
//  - Items: each frame holds the top kTopKeys keys with uniques for every one of them.
//  - Watched keys (threshold alerts): each frame holds the window count of every watched key
//    for every second since the previous frame's head (EngineFrame::watched), whether or not
//    the key is in the top keys; a frame the GUI did not take is covered by the next one.
//    O(watched keys x seconds x log n) per frame, nothing per hit.
//  - Costs: a CostMeter (cost_meter.h) on a thread of its own, at the lowest priority,
//    measures what each policy costs per hit and per getHits on a capture of the batches
//    counted here; each frame carries its newest figures. Options (setOptions, rewindow) reach
//    it at once.
//  - Frames never starve the counting: while batches are waiting, after a frame that took d
//    to build the worker counts for at least 3 d before the next (an idle worker answers at
//    once). So a costly frame lowers the frame rate under load, never the ingest rate.
//
// Example: BatchQueue q;  EngineWorker w(q);  w.start();  source.start(q);
//          GUI frame timer: if (auto f = w.takeFrame()) draw(*f);
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/engine/checkpoint_store.h"
#include "core/engine/cost_meter.h"
#include "core/engine/engine.h"
#include "core/engine/engine_frame.h"
#include "core/engine/limits_feed.h"
#include "core/io/trace_recorder.h"
#include "core/sources/batch_queue.h"
#include "core/time/clock.h"

namespace hitcounter {

class EngineWorker {
public:
    static constexpr std::size_t kTopKeys = 10;
    static constexpr Timestamp kKeySeriesSeconds = 120;

    // `input` must outlive the worker.
    explicit EngineWorker(BatchQueue& input, EngineOptions options = {});
    ~EngineWorker();
    EngineWorker(const EngineWorker&) = delete;
    EngineWorker& operator=(const EngineWorker&) = delete;

    void start();
    // Requests a stop and joins; safe twice.
    void stop();

    // The options the counters restart with at the next Reset marker (push one, or seek).
    void setOptions(EngineOptions options);
    // `options` at once for a live stream, keeping its past: Engine::rewindow() where the
    // counting thread picks the command up (no Reset marker needed).
    void rewindow(EngineOptions options);
    EngineOptions options() const;
    // nullptr: the head moves only with hits (replay, simulator). `clock` must outlive its use.
    void setLiveClock(const Clock* clock);
    // The key whose series the frames carry (empty: the top key) and the level it is counted in;
    // `more`: further keys plotted with it (EngineFrame::moreKeySeries, at most kMoreKeys).
    void setKeyView(std::string key, std::chrono::seconds level,
                    std::vector<std::string> more = {});
    // Only keys containing `filter` (ASCII case-insensitive) in the frames' top keys; empty:
    // every key. With a filter, a frame visits every live key once (O(keys), not O(hits)).
    void setKeyFilter(std::string filter);
    static constexpr std::size_t kMoreKeys = 7;
    // The keys whose window counts every frame carries, second by second (EngineFrame::watched),
    // at most kWatchedKeys (more are ignored); empty keys are skipped.
    void setWatchedKeys(std::vector<std::string> keys);
    static constexpr std::size_t kWatchedKeys = 32;

    // Restarts the Rate limits lab with `options` from the current point of the stream (also
    // to enable or disable it). Bad options (unknown algorithm, L or W out of range) throw
    // std::invalid_argument here, on the caller's thread.
    void setLimits(LimitsOptions options);
    LimitsOptions limitsOptions() const;

    // The seek checkpoints of the replay being counted; give them to the ReplaySource
    // (ReplaySource::setCheckpoints).
    std::shared_ptr<CheckpointStore> checkpoints() const { return m_checkpoints; }

    // Asks for a frame; returns the ticket that frame will carry.
    std::uint64_t requestFrame();
    // The newest frame not taken yet (nullptr if none), and asks for the next.
    std::shared_ptr<const EngineFrame> takeFrame();

    // Starts writing counted hits to `recorder` (replacing and returning any previous one).
    std::unique_ptr<TraceRecorder> setRecorder(std::unique_ptr<TraceRecorder> recorder);
    // Runs `f` on the recorder (nullptr if none) under its mutex.
    template <typename F>
    auto withRecorder(F&& f) const {
        std::lock_guard lock(m_recorderMutex);
        return f(m_recorder.get());
    }

private:
    void run(std::stop_token stop);
    void applyCommands(bool atReset);
    void feed(const HitBatch& batch);
    // A Reset carrying a checkpoint of this generation: restores it; false: start empty.
    bool restoreCheckpoint(const HitBatch& reset);
    // Follows the rows of a replay's first pass and keeps a checkpoint when one is wanted.
    void followStream(const HitBatch& counted);
    // `batch`, or (a live source's hits older than its clock's window: counted too late
    // here) `inWindow` filled with the others.
    const HitBatch& withoutTooLate(const HitBatch& batch, HitBatch& inWindow);
    void publish(bool idle);
    void fillItems(EngineFrame& frame);
    void fillWatched(EngineFrame& frame, const EngineFrame* untaken);

    BatchQueue& m_input;
    Engine m_engine;  // the worker's thread only (before start(): the constructor's)
    const std::shared_ptr<CheckpointStore> m_checkpoints = std::make_shared<CheckpointStore>();

    mutable std::mutex m_commandMutex;
    std::optional<EngineOptions> m_commandOptions;             // guarded by m_commandMutex
    std::optional<EngineOptions> m_commandRewindow;            // guarded by m_commandMutex
    EngineOptions m_options;                                   // guarded by m_commandMutex
    const Clock* m_commandClock = nullptr;                     // guarded by m_commandMutex
    std::string m_commandKey;                                  // guarded by m_commandMutex
    std::vector<std::string> m_commandMoreKeys;                // guarded by m_commandMutex
    std::optional<std::vector<std::string>> m_commandWatched;  // guarded by m_commandMutex
    std::string m_commandFilter;                               // guarded by m_commandMutex
    std::chrono::seconds m_commandLevel{300};                  // guarded by m_commandMutex
    std::optional<LimitsOptions> m_commandLimits;              // guarded by m_commandMutex
    LimitsOptions m_limitsOptions;                             // guarded by m_commandMutex
    std::uint64_t m_commandGeneration;                         // guarded by m_commandMutex

    std::atomic<std::uint64_t> m_requested{1};  // the newest ticket asked for
    std::uint64_t m_answered = 0;               // worker only: the newest ticket answered
    std::mutex m_frameMutex;
    std::shared_ptr<const EngineFrame> m_frame;  // guarded by m_frameMutex

    mutable std::mutex m_recorderMutex;
    std::unique_ptr<TraceRecorder> m_recorder;  // guarded by m_recorderMutex

    // Worker only.
    const Clock* m_clock = nullptr;
    std::string m_key;
    std::vector<std::string> m_moreKeys;
    std::vector<std::string> m_watched;
    std::optional<Timestamp> m_watchNext;  // the first second the next frame's `watched` holds
    std::string m_filter;
    std::chrono::seconds m_level{300};
    std::uint64_t m_seenEpoch = 0;
    // The checkpoint generation the engine and the lab count in (0 while a command waits).
    std::uint64_t m_generation = 0;
    // The replay's first pass as counted since the last Reset (stream 0: not followed).
    struct FollowedStream {
        std::uint64_t stream = 0;
        StreamPoint point;
    };
    FollowedStream m_followed;
    LimitsFeed m_limits;
    std::chrono::steady_clock::time_point m_limitsMemoryAt;  // when memory was last computed
    Count m_ingested = 0;
    std::chrono::steady_clock::time_point m_nextPublish;  // with a backlog, not before

    CostMeter m_costs;      // its own thread; observe() from the worker's
    std::jthread m_thread;  // last: joined before the members it uses are destroyed
};

}  // namespace hitcounter
