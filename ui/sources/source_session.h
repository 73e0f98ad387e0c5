// SourceSession: the lifecycle of the monitor's one source: start (from a SourceSpec or a
// built Source), stop, replay seeks, the recording tap, the simulator's warm-up, the replay's
// load progress and the access-log key. It holds no widget: the sources dock, the replay
// toolbar, the load progress dialog and MainWindow connect to its signals (they draw; this
// decides).
//
// Threading: GUI thread only (a QObject with no thread of its own). It pushes Reset markers
// into the BatchQueue and sends commands to the EngineWorker (both thread-safe); the running
// Source's own threads are started and stopped here.
//
// Why ui/ and not core/: it is built from a SourceSpec (QString paths, QSettings) and reports
// with translated, user-facing QStrings; the Qt-free parts it drives (Source, ReplaySource,
// EngineWorker, TraceRecorder, the epoch markers) are in core/ already.
//
// Semantics:
//  - start(): stops the old source, pushes a Reset marker (behind whatever the old source left
//    queued, so every view restarts together even if the new source fails) and emits
//    viewsReset(mode); then starts the source. On SourceError: errorOccurred(message), no
//    source runs, false. On success: started(description).
//  - startSpec(): builds the spec and checks it (Source::check(): a file that cannot be opened
//    or is not of its kind); a bad setting or a failed check: errorOccurred, false, and nothing
//    changes (the running source runs on, its spec stays the current one). Else it makes the
//    spec the current one and start()s it; specShown(spec, running) tells the sources panel.
//  - stop(): stops the source (no Reset marker: the views keep the last state); stopped().
//  - seek(t): replays only; every view is rebuilt from the trace's start to t (the replay's
//    epoch marker, replay_source.h). rerunReplay() seeks to where the replay stands (used when
//    the window length or the rate limits lab change); restartCounters() is that, or a Reset
//    marker for any other source.
//  - setRecording(file): the EngineWorker's recording tap; neither restarts the source nor
//    touches a count. Empty file: stop (recordingShown with the total). False and
//    errorOccurred if the file cannot be created; the previous recording keeps going then.
//  - tick() (once per GUI frame): the replay's load progress (loadProgress / loadFinished,
//    cancelLoading() aborts), once loaded its rows and span (statusMessage, replayLoadedText:
//    it replaces the "Started ... loading, 0 rows" of started()), its first problem (errorOccurred,
//    once per source: a failure, an empty trace "FILE: the trace is empty: no hits to replay", a
//    gzip file cut short (also on stderr), bad rows skipped), its progress (replayProgress), a
//    seek's rebuild progress (statusMessage), and the recording's count (recordingShown). The
//    simulator's warm-up needs no tick: SimulatorSource itself runs at full speed until it
//    reaches the clock, then at the spec's speed (simulator_source.h).
//
// Example: BatchQueue q; EngineWorker w(q); w.start(); SourceSession s(q, w, clock);
//          s.startSpec(spec);  GUI frame timer: s.tick();  slider: s.seek(t);
#pragma once

#include <QObject>
#include <QString>
#include <QVariantMap>
#include <chrono>
#include <memory>
#include <optional>

#include "core/sources/replay_source.h"
#include "core/sources/source.h"
#include "ui/sources/source_spec.h"

namespace hitcounter {
class BatchQueue;
class Clock;
class EngineWorker;
}  // namespace hitcounter

namespace hitcounter::ui {

// Why a loaded replay of `file` has nothing to play (no good row): "FILE: the trace is empty: no
// hits to replay", that all its rows are bad, with the first, or that it was cut before its
// first row. Empty unless it ended without a good row.
QString emptyReplayText(const ReplayProgress& progress, const QString& file);

// Where a gzip file cut short was cut: "FILE: truncated at line 1608: 1,607 lines replayed";
// empty unless it was (ReplayProgress::truncatedAtLine).
QString replayTruncationText(const ReplayProgress& progress, const QString& file);

// What the status bar says once a replay of `file` has loaded: its rows and the trace times it
// spans ("Loaded t.csv: 1,000 rows, trace time 1 s to 1,000 s"; with `clockTimes` dates and
// clock times in the zone shown, named: "… 2009-03-01 06:00:00 to 2009-03-01 07:00:00 UTC"). Empty
// while loading, or for a replay with nothing to play.
QString replayLoadedText(const ReplayProgress& progress, const QString& file, bool clockTimes);

class SourceSession : public QObject {
    Q_OBJECT
public:
    // `queue` and `worker` must outlive the session; `clock` is the time of live sources and
    // the base of simulated and replayed time.
    SourceSession(BatchQueue& queue, EngineWorker& worker, std::shared_ptr<Clock> clock,
                  QObject* parent = nullptr);
    // Stops the source and the recording without emitting anything.
    ~SourceSession() override;

    // Stops the current source, resets every view and starts `source`. On SourceError the
    // message goes to errorOccurred, no source runs, and false is returned. `liveClock`: the
    // clock a live source's window follows (EngineWorker::setLiveClock), set before the Reset
    // marker so that it applies from the source's first batch.
    bool start(std::unique_ptr<Source> source, TimeAxisMode mode, const Clock* liveClock = nullptr);
    bool startSpec(const SourceSpec& spec);
    void stop();

    Source* source() const { return m_source.get(); }
    SimulatorSource* simulator() const { return m_simulator; }
    ReplaySource* replay() const { return m_replay; }
    FollowSource* follow() const { return m_follow; }
    SocketListener* listener() const { return m_listener; }
    Clock& clock() const { return *m_clock; }
    TimeAxisMode timeMode() const { return m_timeMode; }
    // The UTC offset the running access log writes its times with (BuiltSource::logUtcOffset);
    // nullopt for sources whose times name none.
    std::optional<int> logUtcOffset() const { return m_logUtcOffset; }
    // The simulator is still catching up with the clock (not the steady state).
    bool warmingUp() const;

    // The last spec started (or set); the setters below change it and the running source.
    const SourceSpec& spec() const { return m_spec; }
    void setSpec(const SourceSpec& spec) { m_spec = spec; }
    void setRate(double rate);
    void setPattern(TrafficPattern pattern);
    // The simulator's speed (applied after its warm-up).
    void setSpeed(double speed);
    void setLoop(bool loop);
    // The replay's speed (the replay bar), kept in the spec as what runs.
    void setReplaySpeed(double speed);
    // The access-log key of replays and follows; a running replay reloads with it and returns
    // to the same time (and pause state).
    void setReplayKey(const QString& key);

    // Seeks the replay to trace time t; every view is rebuilt as a replay from the start to t
    // (replay only; returns at once, the rebuild streams in).
    void seek(Timestamp t);
    std::optional<Timestamp> rerunReplay();
    void restartCounters();
    // The window length W (1 s up to the history kept). A replay rebuilds the new window by
    // re-running the trace to where it is (true: the views restart); a live stream keeps its
    // past: the counters are refilled from the history's seconds and the per-key counts keep
    // their own hour (false). Says which in statusMessage.
    bool setWindow(std::chrono::seconds window);

    // Starts recording what the engine counts into `file`, or stops (empty `file`). Neither
    // restarts the source nor touches a count. False (error shown) if `file` cannot be created.
    bool setRecording(const QString& file);
    QString recordingPath() const { return m_recordPath; }
    // The source's part of a snapshot's settings.json (docs/gui.md): "source" (describe()),
    // "source_kind", for a simulator "pattern", "rate", "keys", "state" (sourceStateName(),
    // `viewsPaused` as there), for a replay "speed" and "loop", "recording" (the file or
    // empty) and "time_axis" ("clock" or "trace").
    QVariantMap settingsUsed(bool viewsPaused) const;

    // The spec "Open trace…" starts for `file` (a replay at speed 1, format detected).
    SourceSpec traceSpec(const QString& file) const;
    // Where the open dialog starts: the last file's folder, else `fallback`.
    QString traceDirectory(const QString& fallback) const;
    bool openTrace(const QString& file) { return startSpec(traceSpec(file)); }
    // Stops a loading replay and reports "FILE: loading cancelled".
    void cancelLoading();

    void tick();

Q_SIGNALS:
    void viewsReset(TimeAxisMode mode);
    void started(const QString& description);
    void stopped();
    void specShown(const SourceSpec& spec, bool running);
    void errorOccurred(const QString& message);
    void statusMessage(const QString& message, int milliseconds);
    void recordingShown(const QString& text);
    // While a replay loads: how far (0..1000) and what to say.
    void loadProgress(int permille, const QString& label);
    void loadFinished();
    void replayProgress(const ReplayProgress& progress, Timestamp now, bool paused);

private:
    void followReplay();
    void showRecordingCount();

    BatchQueue& m_queue;
    EngineWorker& m_worker;
    std::uint64_t m_replayStreams = 0;  // the last replay's checkpoint stream id
    std::shared_ptr<Clock> m_clock;
    std::unique_ptr<Source> m_source;
    SourceSpec m_spec;
    SimulatorSource* m_simulator = nullptr;  // into m_source, when it is a simulator
    ReplaySource* m_replay = nullptr;        // into m_source, when it is a replay
    FollowSource* m_follow = nullptr;        // into m_source, when following an access log
    SocketListener* m_listener = nullptr;    // into m_source, when listening on a socket
    QString m_recordPath;
    bool m_loading = false;  // a loadProgress was sent and no loadFinished yet
    bool m_replayProblemShown = false;
    bool m_replayLoadShown = false;  // the status bar said what the replay loaded
    TimeAxisMode m_timeMode = TimeAxisMode::Clock;
    std::optional<int> m_logUtcOffset;
};

}  // namespace hitcounter::ui
