#include "ui/sources/source_session.h"

#include <QFileInfo>
#include <algorithm>
#include <filesystem>

#include "core/engine/checkpoint_store.h"
#include "core/engine/engine_worker.h"
#include "core/io/trace_recorder.h"
#include "core/sources/batch_queue.h"
#include "core/sources/source_capabilities.h"
#include "core/time/clock.h"
#include "ui/sources/replay_texts.h"
#include "ui/sources/running_source.h"
#include "ui/sources/source_status.h"

namespace hitcounter::ui {

SourceSession::SourceSession(BatchQueue& queue, EngineWorker& worker, std::shared_ptr<Clock> clock,
                             QObject* parent)
    : QObject(parent), m_queue(queue), m_worker(worker), m_clock(std::move(clock)) {}

SourceSession::~SourceSession() {
    // The window that listens may be half destroyed by now: say nothing.
    blockSignals(true);
    stop();
    setRecording(QString());
}

Source* SourceSession::source() const {
    return m_running ? &m_running->source() : nullptr;
}

Pausable* SourceSession::pausable() const {
    return m_running ? m_running->source().pausable() : nullptr;
}

Seekable* SourceSession::seekable() const {
    return m_running ? m_running->source().seekable() : nullptr;
}

SpeedControl* SourceSession::speedControl() const {
    return m_running ? m_running->source().speedControl() : nullptr;
}

std::optional<int> SourceSession::logUtcOffset() const {
    return m_running ? m_running->logUtcOffset() : std::nullopt;
}

bool SourceSession::warmingUp() const {
    return m_running && m_running->warmingUp();
}

bool SourceSession::start(std::unique_ptr<Source> source, TimeAxisMode mode,
                          const Clock* liveClock) {
    return launch(std::make_unique<RunningSource>(std::move(source), mode), liveClock);
}

bool SourceSession::launch(std::unique_ptr<RunningSource> running, const Clock* liveClock) {
    stop();
    // Set before the marker, which applies it: the new source's first batch may come at once.
    m_worker.setLiveClock(liveClock);
    // Behind whatever the old source left queued: every view restarts at once, even if the
    // new source fails to start.
    m_queue.pushMarker(HitBatch::resetMarker(0));
    m_timeMode = running->timeAxis();
    Q_EMIT viewsReset(m_timeMode);
    try {
        running->source().start(m_queue);
    } catch (const SourceError& e) {
        Q_EMIT errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
    m_running = std::move(running);
    Q_EMIT started(QString::fromStdString(m_running->source().describe()));
    return true;
}

bool SourceSession::startSpec(const SourceSpec& spec) {
    std::unique_ptr<RunningSource> running;
    try {
        running = buildSource(spec, BuildContext{*m_clock, m_worker.options().window});
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(
            tr("Cannot start the %1: %2").arg(kindName(spec), QString::fromUtf8(e.what())));
        return false;
    }
    try {
        // Before anything stops: a file that cannot be opened leaves the running source, its
        // views and its time axes as they were.
        running->source().check();
    } catch (const SourceError& e) {
        Q_EMIT errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
    m_specs.setCurrent(spec);
    if (Seekable* stream = running->source().seekable()) {
        // Seeks restore the counting thread's checkpoints, kept within a budget for the files.
        qint64 bytes = 0;
        for (const QString& file : sourceFiles(spec)) {
            bytes += QFileInfo(file).size();  // 0 if it cannot be told
        }
        m_worker.checkpoints()->setBudget(CheckpointStore::budgetForFile(
            static_cast<std::uintmax_t>(std::max<qint64>(bytes, 0))));
        stream->setCheckpoints(m_worker.checkpoints(), ++m_streams);
    }
    // Live sources count against the clock; the simulator and a replay bring their own time.
    const Clock* liveClock = running->ownTime() ? nullptr : m_clock.get();
    if (!launch(std::move(running), liveClock)) {
        Q_EMIT specShown(spec, false);
        return false;
    }
    m_replayProblemShown = false;
    m_replayLoadShown = false;
    Q_EMIT specShown(spec, true);
    return true;
}

void SourceSession::stop() {
    m_loading = false;
    if (m_running) {
        m_running->source().stop();
        m_running.reset();
    }
    Q_EMIT stopped();
}

void SourceSession::edit(const SourceSpec& spec) {
    const bool runs = m_running && spec.index() == m_specs.current().index();
    m_specs.remember(spec);
    if (runs && !m_running->apply(spec)) {
        restartInPlace(spec);
        return;
    }
    Q_EMIT specEdited(spec);
}

void SourceSession::restartInPlace(const SourceSpec& spec) {
    const Seekable* stream = seekable();
    const ReplayProgress progress = stream ? stream->progress() : ReplayProgress{};
    const bool resume = stream != nullptr && progress.loops == 0 && progress.first.has_value();
    const Timestamp at = stream ? stream->now() : 0;
    const bool paused = pausable() != nullptr && pausable()->paused();
    if (!startSpec(spec)) {
        return;
    }
    if (Pausable* restarted = pausable(); paused && restarted) {
        restarted->pause();
    }
    if (Seekable* restarted = seekable(); resume && restarted) {
        restarted->seek(at);
    }
}

void SourceSession::seek(Timestamp t) {
    Seekable* stream = seekable();
    if (stream == nullptr) {
        return;
    }
    stream->seek(t);
    Q_EMIT statusMessage(
        tr("Seeking to trace time %1 s: every view is rebuilt from the start").arg(t), 4000);
}

std::optional<Timestamp> SourceSession::rerunReplay() {
    Seekable* stream = seekable();
    if (stream == nullptr) {
        return std::nullopt;
    }
    const Timestamp now = stream->now();
    stream->seek(now);
    return now;
}

void SourceSession::restartCounters() {
    if (!rerunReplay()) {
        m_queue.pushMarker(HitBatch::resetMarker(0));
    }
}

bool SourceSession::setWindow(std::chrono::seconds window) {
    EngineOptions options = m_worker.options();
    options.window = window;
    const bool rebuilt = seekable() != nullptr;
    if (rebuilt) {
        m_worker.setOptions(options);
        restartCounters();
        Q_EMIT statusMessage(
            tr("Window set to %1 s: rebuilt by re-running the trace to here").arg(window.count()),
            6000);
    } else {
        m_worker.rewindow(options);
        Q_EMIT statusMessage(tr("Window set to %1 s: the counters were refilled from the last "
                                "hour's per-second history; the items keep their counts")
                                 .arg(window.count()),
                             6000);
    }
    return rebuilt;
}

bool SourceSession::setRecording(const QString& file) {
    if (file.isEmpty()) {
        std::unique_ptr<TraceRecorder> stoppedRecorder = m_worker.setRecorder(nullptr);
        if (stoppedRecorder) {
            try {
                stoppedRecorder->finish();
                Q_EMIT recordingShown(tr("Recorded %L1 hits into %2")
                                          .arg(stoppedRecorder->hitsWritten())
                                          .arg(m_recordPath));
            } catch (const std::runtime_error& e) {
                Q_EMIT errorOccurred(QString::fromStdString(e.what()));
            }
        }
        m_recordPath.clear();
        return true;
    }
    std::unique_ptr<TraceRecorder> recorder;
    try {
        recorder = std::make_unique<TraceRecorder>(std::filesystem::path(file.toStdString()));
    } catch (const std::runtime_error& e) {
        Q_EMIT errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
    setRecording(QString());
    m_recordPath = file;
    m_worker.setRecorder(std::move(recorder));
    return true;
}

void SourceSession::showRecordingCount() {
    const QString text = m_worker.withRecorder([this](const TraceRecorder* r) {
        if (r == nullptr) {
            return QString();
        }
        return r->error().empty() ? tr("%L1 hits into %2").arg(r->hitsWritten()).arg(m_recordPath)
                                  : QString::fromStdString(r->error());
    });
    if (!text.isEmpty()) {
        Q_EMIT recordingShown(text);
    }
}

SourceSpec SourceSession::traceSpec(const QStringList& files) const {
    return m_specs.last<ReplaySpec>().forFiles(files);
}

QString SourceSession::traceDirectory(const QString& fallback) const {
    const QString file = sourceFile(spec());
    return file.isEmpty() ? fallback : QFileInfo(file).absolutePath();
}

void SourceSession::cancelLoading() {
    stop();
    Q_EMIT errorOccurred(tr("%1: loading cancelled").arg(sourceFile(spec())));
}

void SourceSession::tick() {
    if (Seekable* stream = seekable()) {
        followStream(*stream);
    }
    showRecordingCount();
}

void SourceSession::followStream(Seekable& stream) {
    const ReplayProgress progress = stream.progress();
    // One file by its path; several by the first one's name and how many more.
    const QStringList files = sourceFiles(spec());
    const QString file = files.size() > 1 ? replayFilesName(files) : sourceFile(spec());
    if (progress.state == ReplayState::Loading) {
        const double fraction = progress.bytesTotal == 0
                                    ? 0.0
                                    : double(progress.bytesRead) / double(progress.bytesTotal);
        m_loading = true;
        // A listener may cancelLoading() from here: nothing of this stream is used after.
        Q_EMIT loadProgress(int(fraction * 1000), tr("Loading %1: %L2 rows, %L3 of %L4 bytes")
                                                      .arg(QFileInfo(file).fileName())
                                                      .arg(progress.rows)
                                                      .arg(progress.bytesRead)
                                                      .arg(progress.bytesTotal));
        return;
    }
    if (m_loading) {
        m_loading = false;
        Q_EMIT loadFinished();
    }
    if (!m_replayLoadShown) {
        // Once: it replaces "Started replay ... (loading, 0 rows)"; a problem below wins.
        const QString loaded = replayLoadedText(progress, file, m_timeMode == TimeAxisMode::Clock);
        if (!loaded.isEmpty()) {
            Q_EMIT statusMessage(loaded, 10000);
            m_replayLoadShown = true;
        }
    }
    if (!m_replayProblemShown) {
        if (progress.state == ReplayState::Failed) {
            Q_EMIT errorOccurred(QString::fromStdString(progress.error));
            m_replayProblemShown = true;
        } else if (const QString empty = emptyReplayText(progress, file); !empty.isEmpty()) {
            // Loaded without one good row: nothing will ever move; say why.
            Q_EMIT errorOccurred(empty);
            m_replayProblemShown = true;
        } else if ((progress.badRows > 0 || progress.truncatedAtLine) &&
                   progress.state != ReplayState::Idle) {
            QStringList problems;
            if (const QString cut = replayTruncationText(progress); !cut.isEmpty()) {
                problems << cut;
                // Also for scripts and logs: where the copy was cut.
                qWarning("hitcounter: %s", qPrintable(cut));
            }
            if (progress.badRows > 0) {
                problems << tr("%L1 bad rows skipped; the first: %2")
                                .arg(progress.badRows)
                                .arg(QString::fromStdString(progress.firstBadRow));
            }
            Q_EMIT errorOccurred(problems.join(QStringLiteral("; ")));
            m_replayProblemShown = true;
        }
    }
    const Pausable* pause = pausable();
    Q_EMIT replayProgress(progress, stream.now(), pause != nullptr && pause->paused());
    if (progress.seekTarget && progress.last) {
        // A long fast-forward (millions of rows) takes seconds: show how far it got.
        const double span = double(std::max<Timestamp>(1, *progress.seekTarget - *progress.first));
        const double done = double(progress.seekReached - *progress.first) / span;
        Q_EMIT statusMessage(tr("Seeking to %1 s: rebuilding, %2%")
                                 .arg(*progress.seekTarget)
                                 .arg(int(std::clamp(done, 0.0, 1.0) * 100)),
                             1000);
    }
}

QVariantMap SourceSession::settingsUsed(bool viewsPaused) const {
    QVariantMap map = specSettingsUsed(spec());
    Source* running = source();
    map.insert(QStringLiteral("source"),
               running ? QString::fromStdString(running->describe()) : QString());
    map.insert(QStringLiteral("source_kind"), kindName(spec()));
    map.insert(QStringLiteral("state"), sourceStateName(running, viewsPaused));
    if (const Seekable* stream = seekable()) {
        const SpeedControl* speed = speedControl();
        map.insert(QStringLiteral("speed"), speed ? speed->speed() : 1.0);
        map.insert(QStringLiteral("loop"), stream->loop());
    }
    map.insert(QStringLiteral("recording"), m_recordPath);
    map.insert(QStringLiteral("time_axis"), m_timeMode == TimeAxisMode::Clock
                                                ? QStringLiteral("clock")
                                                : QStringLiteral("trace"));
    return map;
}

}  // namespace hitcounter::ui
