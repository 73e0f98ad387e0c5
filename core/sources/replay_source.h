// ReplaySource: plays a file of recorded hits (docs/formats.md: a trace CSV or a web server
// access log, plain or gzip; read through HitFile), or several files as one (InputSet,
// core/io/input_set.h: rotation sets read oldest first, sources merged in time order), as a
// live source: play, pause, speed, seek to any time with the window rebuilt exactly, loop. Loading
// a large file runs on the worker thread with progress and can be cancelled, so nothing freezes.
//
// Threading: start() and stop() from the owner thread. play, pause, setSpeed, setLoop,
// now, progress, stats, describe are thread-safe and may come from any thread (the GUI's).
// seek() too. Guards: m_statusMutex guards m_progress and m_format; m_controlMutex guards
// m_seekTarget, m_interrupt, m_userPaused, m_loaded. m_out is set by start() before the worker
// starts and only the worker uses it.
//
// Life of a replay:
//  1. start(): opens the files (each format detected, or options.file), else SourceError with
//     HitFile's message (cannot open, unrecognised format, a key the format lacks, naming the
//     file); then the worker loads: one pass finds the first and last times and counts rows
//     and bad rows; progress() reports bytes (compressed bytes for gzip) and rows as it goes;
//     stop() cancels it. A fatal error (a bad CSV header, a corrupt gzip stream) makes the
//     state Failed with "FILE:LINE: problem"; bad rows are counted (the first is named in
//     progress().firstBadRow) and skipped. A gzip file cut short plays what was readable
//     (progress().truncatedAtLine names the cut).
//  2. Playing: the source's VirtualClock starts at the trace's first (smallest) time and
//     runs at `speed`; rows are sent in file order as soon as the clock reaches their
//     second (late rows, older than rows before them, go out right away and count as late).
//     Live speeds drop on a full queue (counted); as fast as possible waits for room. While
//     the clock runs through a gap between rows, each second it reaches is sent as a Clock
//     marker (hit_event.h), so a consumer's window slides with the replay's clock, paused or
//     playing, as `hitcounter-cli replay --at T` counts it (as fast as possible the clock
//     leaps from row to row, and no marker is sent).
//  3. End: with loop, the trace starts again with every time shifted by its span
//     (last - first + 1 s), so time keeps moving forward and counters need no reset;
//     without, the state is Ended and (holdAtEnd) the worker waits for a seek or stop();
//     with holdAtEnd = false the worker finishes and running() turns false.
//
// seek(T): rebuilds the consumer's state exactly as it was at trace time T, without a
// handshake. It returns at once; the worker starts a new stream epoch (hit_event.h): it
// pushes a Reset marker behind whatever is queued, then fast-forwards: every row that
// streaming would have delivered by T, from the start of the file, as Rebuild batches (as fast
// as the consumer takes them; progress().seekTarget / seekReached meanwhile), then a Clock
// marker at T (at the trace's last second if T is past it: the replay then stands at its end),
// so a T between two rows shows the window (T - W, T]; then playback continues from T. The file is
// read again from its start (HitFile: gzip and access logs cannot be resumed at a byte offset).
// Every batch carries the epoch, so a consumer that resets on the marker and drops other epochs
// (Engine does) holds, after the rebuild, what an uninterrupted replay to T holds: window counts of
// every policy, history, all-time and per-key totals. Cost: O(rows up to T) for the consumer
// (docs/benchmarks.md: seek latency on 10 M rows). T is trace time (loop 0); a seek before loading
// ends is applied once it ends. Any thread may seek.
// With checkpoints (setCheckpoints; the protocol in seek_checkpoints.h) the Reset carries the
// consumer's newest checkpoint at or before T, the rows it counted are read but not sent, and
// only the rows after it are fast-forwarded (progress().seekResumedAt says from where): the
// consumer's cost is O(rows between the checkpoint and T). One file resumes at the checkpoint's
// line without parsing the lines before it (HitFile::resumeAfter); several files are read
// from their start, the checkpoint's rows parsed and not sent.
//
// Example (GUI): ReplaySource replay(wallClock, "trace.csv"); replay.start(queue);
//     counting thread: engine.ingest(*queue.popFor(...)); GUI: replay.progress(), replay.now()
//     slider:          replay.seek(t);   // nothing else: the marker resets the engine
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/io/input_set.h"
#include "core/sources/replay_progress.h"
#include "core/sources/seek_checkpoints.h"
#include "core/sources/source.h"
#include "core/sources/source_capabilities.h"
#include "core/sources/source_counters.h"
#include "core/time/virtual_clock.h"

namespace hitcounter {

struct ReplayOptions {
    double speed = 1.0;  // 0.1..1000 or VirtualClock::kAsFastAsPossible
    bool loop = false;
    bool startPaused = false;  // load, then wait for play()
    bool holdAtEnd = true;     // at the end keep the worker for seeks (GUI); false: finish (CLI)
    HitFileOptions file{};     // format (default: detected) and access-log key
    bool keyBySource = false;  // each row's key is its source's label (InputSet)
};

// Offers every capability (source_capabilities.h): Pausable, Seekable, SpeedControl.
class ReplaySource final : public Source, public Pausable, public Seekable, public SpeedControl {
public:
    // Rows per batch sent.
    static constexpr std::size_t kBatchRows = 4096;

    // `base` (a WallClock, or a ManualClock in tests) must outlive the source.
    ReplaySource(Clock& base, std::filesystem::path file, const ReplayOptions& options = {});
    // Several files as one (input_set.h); at least one. A path named twice fails at start().
    ReplaySource(Clock& base, std::vector<std::filesystem::path> files,
                 const ReplayOptions& options = {});
    ~ReplaySource() override;

    // Seeks restore the consumer's checkpoints of `stream` (a nonzero id the consumer's store
    // knows this replay by; one per file and file options) from `checkpoints`; before start().
    void setCheckpoints(std::shared_ptr<const SeekCheckpoints> checkpoints,
                        std::uint64_t stream) override;

    // Throws SourceError naming the file if it cannot be opened. A second start() reloads.
    void start(BatchQueue& out) override;
    // Opens the file as start() does (format, key) and reads its first row: SourceError if it
    // cannot be opened or its header is unusable ("FILE:LINE: problem", as the load says).
    void check() const override;
    // Cancels loading or playback and joins the worker.
    void stop() override;
    bool running() const override;
    // packets = rows, lines = physical lines, badLines = bad rows (all from the load);
    // hits, lateHits, dropped from delivery (a seek's rebuild counts again).
    SourceStats stats() const override;
    // e.g. "replay t.csv (trace CSV, paused, 1000 rows, 10x, loop)" (several files: "replay
    // a.log, b.log.gz (...)", their formats joined by " + "): the state is "paused"
    // while pause() holds a loading or playing replay, the speed and loop are the current ones.
    std::string describe() const override;

    Pausable* pausable() override { return this; }
    Seekable* seekable() override { return this; }
    SpeedControl* speedControl() override { return this; }

    void play() override;
    void pause() override;
    bool paused() const override;
    void setSpeed(double speed) override;
    double speed() const override;
    void setLoop(bool loop) override;
    bool loop() const override;
    // Any thread; see above.
    void seek(Timestamp t) override;
    // The bad rows the load met (FILE:LINE and the problem; the row's text is not kept).
    std::vector<BadLine> recentBadLines() const override { return m_badLines.recent(); }
    // The epoch of the last seek() (0 before any): its batches carry it.
    std::uint64_t epoch() const override;

    // The replay's time: the counters' "now" (trace time plus loop shifts).
    Timestamp now() const override { return m_clock.now(); }
    ReplayProgress progress() const override;

private:
    struct Loaded;
    class Player;

    // The files opened from their start with the options' format and key; throws
    // HitFileError (naming the file), std::invalid_argument (a path named twice).
    std::unique_ptr<InputSet> openInput() const;
    void run(std::stop_token stop);
    bool load(std::stop_token stop, Loaded& loaded);
    void setState(ReplayState state);
    void fail(std::string message);

    const std::vector<std::filesystem::path> m_files;
    const std::string m_name;  // the files' paths, joined by ", "
    const ReplayOptions m_options;
    VirtualClock m_clock;
    std::string m_format;  // e.g. "combined log format (gzip)"; guarded by m_statusMutex
    std::atomic<bool> m_loop;
    std::atomic<std::uint64_t> m_seekGeneration{0};

    mutable std::mutex m_statusMutex;
    ReplayProgress m_progress;  // guarded by m_statusMutex

    mutable std::mutex m_controlMutex;
    std::condition_variable_any m_controlChanged;  // seek or loop changed
    std::optional<Timestamp> m_seekTarget;         // guarded by m_controlMutex
    std::stop_source m_interrupt;                  // guarded by m_controlMutex; stopped by seek
    bool m_userPaused;                             // guarded by m_controlMutex
    bool m_loaded = false;                         // guarded by m_controlMutex

    BatchQueue* m_out = nullptr;                           // the worker's, see above
    std::shared_ptr<const SeekCheckpoints> m_checkpoints;  // set before start()
    std::uint64_t m_stream = 0;

    SourceCounters m_counters;
    BadLineLog m_badLines;
    std::atomic<bool> m_running{false};
    std::jthread m_worker;  // last: joined before the members it uses are destroyed
};

}  // namespace hitcounter
