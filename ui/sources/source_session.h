// SourceSession: the lifecycle of the monitor's one source: start (from a SourceSpec or a
// Source), stop, edits, seeks, the recording tap, the load progress of a seekable stream. It
// holds no widget: the sources dock, the replay toolbar, the load progress dialog and
// MainWindow connect to its signals (they draw; this decides).
//
// It knows no kind: a spec's kind builds a RunningSource (the core Source and what only the
// kind knows of it, running_source.h), and what a user may do to the source (pause, seek, set
// its speed) is asked of the Source (core/sources/source_capabilities.h). It remembers every
// kind's last spec (SourceSpecs: what the settings keep).
//
// Threading: GUI thread only (a QObject with no thread of its own). It pushes Reset markers
// into the BatchQueue and sends commands to the EngineWorker (both thread-safe); the running
// Source's own threads are started and stopped here.
//
// Why ui/ and not core/: it is built from a SourceSpec (QString paths, QSettings) and reports
// with translated, user-facing QStrings; the Qt-free parts it drives (Source, its
// capabilities, EngineWorker, TraceRecorder, the epoch markers) are in core/ already.
//
// Semantics:
//  - start(): stops the old source, pushes a Reset marker (behind whatever the old source left
//    queued, so every view restarts together even if the new source fails) and emits
//    viewsReset(mode); then starts the source. On SourceError: errorOccurred(message), no
//    source runs, false. On success: started(description).
//  - startSpec(): builds the spec and checks it (Source::check(): a file that cannot be opened
//    or is not of its kind); a bad setting or a failed check: errorOccurred, false, and nothing
//    changes (the running source runs on, its spec stays the current one). Else it makes the
//    spec the current one and start()s it (a seekable source resumes its seeks from the
//    counting thread's checkpoints); specShown(spec, running) tells the sources panel.
//  - edit(spec): a kind's controls changed a setting that applies at once: `spec` becomes its
//    kind's last spec; a running source of that kind takes it (RunningSource::apply), or
//    restarts with it where it stood (a replay's new access-log key: the same time, paused if
//    it was). specEdited(spec), or specShown after a restart.
//  - stop(): stops the source (no Reset marker: the views keep the last state); stopped().
//  - seek(t): seekable sources only; every view is rebuilt from the stream's start to t (the
//    replay's epoch marker, replay_source.h). rerunReplay() seeks to where it stands (used when
//    the window length or the rate limits lab change); restartCounters() is that, or a Reset
//    marker for any other source.
//  - setRecording(file): the EngineWorker's recording tap; neither restarts the source nor
//    touches a count. Empty file: stop (recordingShown with the total). False and
//    errorOccurred if the file cannot be created; the previous recording keeps going then.
//  - tick() (once per GUI frame), for a seekable source: its load progress (loadProgress /
//    loadFinished, cancelLoading() aborts), once loaded its rows and span (statusMessage,
//    replayLoadedText: it replaces the "Started ... loading, 0 rows" of started()), its first
//    problem (errorOccurred, once per source: a failure, an empty trace "FILE: the trace is
//    empty: no hits to replay", a gzip file cut short (also on stderr), bad rows skipped), its
//    progress (replayProgress), a seek's rebuild progress (statusMessage); and for any source
//    the recording's count (recordingShown). The simulator's warm-up needs no tick:
//    SimulatorSource itself runs at full speed until it reaches the clock, then at the spec's
//    speed (simulator_source.h).
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

#include "core/sources/replay_progress.h"
#include "core/sources/source.h"
#include "ui/common/history_update.h"
#include "ui/sources/source_specs.h"

namespace hitcounter {
class BatchQueue;
class Clock;
class EngineWorker;
class Pausable;
class Seekable;
class SpeedControl;
}  // namespace hitcounter

namespace hitcounter::ui {

class RunningSource;

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

    Source* source() const;
    // The running source as its kind started it (null when none runs).
    const RunningSource* running() const { return m_running.get(); }
    // The running source's capabilities (null when none runs or it does not offer them).
    Pausable* pausable() const;
    Seekable* seekable() const;
    SpeedControl* speedControl() const;
    Clock& clock() const { return *m_clock; }
    TimeAxisMode timeMode() const { return m_timeMode; }
    // The UTC offset the running access log writes its times with
    // (RunningSource::logUtcOffset); nullopt for sources whose times name none.
    std::optional<int> logUtcOffset() const;
    // The running source still sends its past as fast as the counting takes it (the
    // simulator's warm-up), not at its steady pace.
    bool warmingUp() const;

    // The current spec: the last started (or set).
    const SourceSpec& spec() const { return m_specs.current(); }
    // Every kind's last spec, and which is current (what the settings keep).
    const SourceSpecs& specs() const { return m_specs; }
    // Makes `spec` the current one without starting it (the fleet watched in the Fleet tab).
    void setSpec(const SourceSpec& spec) { m_specs.setCurrent(spec); }
    // The specs restored from the settings.
    void setSpecs(const SourceSpecs& specs) { m_specs = specs; }
    // A kind's controls changed a setting that applies at once (the semantics above).
    void edit(const SourceSpec& spec);

    // Seeks a seekable source to time t; every view is rebuilt as a replay from the start to t
    // (returns at once, the rebuild streams in).
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
    // "source_kind", the kind's own (specSettingsUsed: for a simulator "pattern", "rate",
    // "keys"), "state" (sourceStateName(), `viewsPaused` as there), for a seekable source
    // "speed" and "loop", "recording" (the file or empty) and "time_axis" ("clock" or
    // "trace").
    QVariantMap settingsUsed(bool viewsPaused) const;

    // The spec "Open trace…" starts for `files`, replayed as one (ReplaySpec::forFiles of the
    // last replay: speed 1, format detected, its key and loop).
    SourceSpec traceSpec(const QStringList& files) const;
    // Where the open dialog starts: the current spec's file's folder, else `fallback`.
    QString traceDirectory(const QString& fallback) const;
    bool openTrace(const QStringList& files) { return startSpec(traceSpec(files)); }
    // Stops a loading replay and reports "FILE: loading cancelled".
    void cancelLoading();

    void tick();

Q_SIGNALS:
    void viewsReset(TimeAxisMode mode);
    void started(const QString& description);
    void stopped();
    void specShown(const SourceSpec& spec, bool running);
    // A spec changed by edit() without a restart.
    void specEdited(const SourceSpec& spec);
    void errorOccurred(const QString& message);
    void statusMessage(const QString& message, int milliseconds);
    void recordingShown(const QString& text);
    // While a replay loads: how far (0..1000) and what to say.
    void loadProgress(int permille, const QString& label);
    void loadFinished();
    void replayProgress(const ReplayProgress& progress, Timestamp now, bool paused);

private:
    bool launch(std::unique_ptr<RunningSource> running, const Clock* liveClock);
    // Restarts `spec` where the running seekable source stands (its time, paused if it was).
    void restartInPlace(const SourceSpec& spec);
    void followStream(Seekable& stream);
    void showRecordingCount();

    BatchQueue& m_queue;
    EngineWorker& m_worker;
    std::uint64_t m_streams = 0;  // the last seekable source's checkpoint stream id
    std::shared_ptr<Clock> m_clock;
    std::unique_ptr<RunningSource> m_running;
    SourceSpecs m_specs;
    QString m_recordPath;
    bool m_loading = false;  // a loadProgress was sent and no loadFinished yet
    bool m_replayProblemShown = false;
    bool m_replayLoadShown = false;  // the status bar said what the replay loaded
    TimeAxisMode m_timeMode = TimeAxisMode::Clock;
};

}  // namespace hitcounter::ui
