// RecordingSource: records any source to a trace CSV while passing its hits on unchanged.
// A tee on the batch stream: the inner source pushes into a private queue; this source's
// worker writes each batch to a TraceRecorder, then forwards it to the consumer's queue.
//
// Threading: start() and stop() from the owner thread; running, stats, describe,
// recording() from any thread (m_statusMutex guards m_status). Control the inner source
// (rate, speed, seek...) through inner(), as before wrapping it.
//
// Semantics:
//  - Forwarding waits for room in the consumer's queue, so when the consumer is slow the
//    inner source's own queue fills and the inner source drops (and counts) the hits: the
//    recording holds exactly what the consumer received, and replaying it reproduces the
//    live counts.
//  - The recording is flushed at least once a second (by `clock`, normally a WallClock) and
//    finished on stop(): fsync, then FILE.partial is renamed to FILE. A crash leaves FILE as
//    it was (the previous complete recording, or absent) and FILE.partial with every line
//    flushed before the crash.
//  - stop(): stops the inner source, records and forwards (without waiting) what it had
//    queued, then finishes the file. An I/O error (disk full) never stops the hits: it is
//    reported in recording().error and the file stays FILE.partial.
//  - stats() are the inner source's. A replay seek's Reset and Rebuild batches (hit_event.h)
//    are forwarded but not recorded (their rows were recorded when they first streamed).
//
// Example: RecordingSource rec(std::make_unique<SimulatorSource>(wall, options), "run.csv",
//                              wall);
//          rec.start(queue); ... rec.stop();   // run.csv is complete
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/io/trace_recorder.h"
#include "core/sources/source.h"
#include "core/time/clock.h"

namespace hitcounter {

struct RecordingStatus {
    std::filesystem::path file;
    std::uint64_t events = 0;        // events recorded
    std::uint64_t hits = 0;          // hits recorded
    std::uint64_t bytesFlushed = 0;  // bytes handed to the kernel so far
    bool finished = false;           // renamed into place
    std::string error;               // empty while all is well
};

class RecordingSource final : public Source {
public:
    // `clock` paces the flushes and must outlive the source.
    RecordingSource(std::unique_ptr<Source> inner, std::filesystem::path file, Clock& clock,
                    TraceColumns columns = {});
    ~RecordingSource() override;

    // Creates FILE.partial (SourceError naming it if it cannot) and starts the inner source.
    void start(BatchQueue& out) override;
    void stop() override;
    bool running() const override;
    SourceStats stats() const override { return m_inner->stats(); }
    std::string describe() const override;
    void check() const override { m_inner->check(); }
    std::string visitorNote() const override { return m_inner->visitorNote(); }
    std::vector<BadLine> recentBadLines() const override { return m_inner->recentBadLines(); }

    Source& inner() { return *m_inner; }
    RecordingStatus recording() const;

private:
    void run(std::stop_token stop, BatchQueue& out);
    void publish();

    std::unique_ptr<Source> m_inner;
    const std::filesystem::path m_file;
    Clock& m_clock;
    const TraceColumns m_columns;
    BatchQueue m_tee;                           // the inner source's queue
    std::unique_ptr<TraceRecorder> m_recorder;  // used by the worker only while it runs
    mutable std::mutex m_statusMutex;
    RecordingStatus m_status;  // guarded by m_statusMutex
    std::atomic<bool> m_running{false};
    std::jthread m_worker;  // last: joined before the members it uses are destroyed
};

}  // namespace hitcounter
