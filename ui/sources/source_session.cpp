#include "ui/sources/source_session.h"

#include <QFileInfo>
#include <algorithm>
#include <filesystem>

#include "core/engine/checkpoint_store.h"
#include "core/engine/engine_worker.h"
#include "core/io/hit_file.h"
#include "core/io/trace_recorder.h"
#include "core/sim/traffic_pattern.h"
#include "core/sources/batch_queue.h"
#include "core/sources/simulator_source.h"
#include "core/time/clock.h"
#include "ui/plot/display_zone.h"
#include "ui/sources/source_status.h"

namespace hitcounter::ui {

QString replayTruncationText(const ReplayProgress& progress, const QString& file) {
    if (!progress.truncatedAtLine) {
        return {};
    }
    return QStringLiteral("%1: %2").arg(
        file, QString::fromStdString(truncationText(*progress.truncatedAtLine, progress.rows)));
}

QString emptyReplayText(const ReplayProgress& progress, const QString& file) {
    if (progress.state != ReplayState::Ended || progress.rows > 0) {
        return {};
    }
    if (progress.truncatedAtLine) {
        return SourceSession::tr("%1: no hits to replay").arg(replayTruncationText(progress, file));
    }
    return progress.badRows == 0
               ? SourceSession::tr("%1: the trace is empty: no hits to replay").arg(file)
               : SourceSession::tr("%1: no hits to replay: all %L2 rows are bad; the first: %3")
                     .arg(file)
                     .arg(progress.badRows)
                     .arg(QString::fromStdString(progress.firstBadRow));
}

QString replayLoadedText(const ReplayProgress& progress, const QString& file, bool clockTimes) {
    if (!progress.first || !progress.last) {
        return {};
    }
    const DisplayZone& zone = shownZone();
    const auto time = [&](Timestamp t) {
        return clockTimes ? zone.format(t) : SourceSession::tr("%L1 s").arg(t);
    };
    return SourceSession::tr("Loaded %1: %L2 rows, trace time %3 to %4%5")
        .arg(QFileInfo(file).fileName())
        .arg(progress.rows)
        .arg(time(*progress.first), time(*progress.last),
             clockTimes ? QLatin1Char(' ') + zone.offsetName(*progress.last) : QString());
}

SourceSession::SourceSession(BatchQueue& queue, EngineWorker& worker, std::shared_ptr<Clock> clock,
                             QObject* parent)
    : QObject(parent), m_queue(queue), m_worker(worker), m_clock(std::move(clock)) {}

SourceSession::~SourceSession() {
    // The window that listens may be half destroyed by now: say nothing.
    blockSignals(true);
    stop();
    setRecording(QString());
}

bool SourceSession::start(std::unique_ptr<Source> source, TimeAxisMode mode,
                          const Clock* liveClock) {
    stop();
    // Set before the marker, which applies it: the new source's first batch may come at once.
    m_worker.setLiveClock(liveClock);
    // Behind whatever the old source left queued: every view restarts at once, even if the
    // new source fails to start.
    m_queue.pushMarker(HitBatch::resetMarker(0));
    m_timeMode = mode;
    Q_EMIT viewsReset(mode);
    try {
        source->start(m_queue);
    } catch (const SourceError& e) {
        Q_EMIT errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
    m_source = std::move(source);
    Q_EMIT started(QString::fromStdString(m_source->describe()));
    return true;
}

bool SourceSession::startSpec(const SourceSpec& spec) {
    BuiltSource built;
    try {
        built = buildSource(spec, *m_clock);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(
            tr("Cannot start the %1: %2").arg(kindName(spec.kind), QString::fromUtf8(e.what())));
        return false;
    }
    try {
        // Before anything stops: a file that cannot be opened leaves the running source, its
        // views and its time axes as they were.
        built.source->check();
    } catch (const SourceError& e) {
        Q_EMIT errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
    m_spec = spec;
    if (built.replay != nullptr) {  // seeks restore the counting thread's checkpoints
        const qint64 bytes = QFileInfo(spec.file).size();  // 0 if it cannot be told
        m_worker.checkpoints()->setBudget(CheckpointStore::budgetForFile(
            static_cast<std::uintmax_t>(std::max<qint64>(bytes, 0))));
        built.replay->setCheckpoints(m_worker.checkpoints(), ++m_replayStreams);
    }
    // Live sources count against the clock; the simulator and a replay bring their own time.
    const bool live = built.simulator == nullptr && built.replay == nullptr;
    if (!start(std::move(built.source), built.timeAxis, live ? m_clock.get() : nullptr)) {
        Q_EMIT specShown(spec, false);
        return false;
    }
    m_simulator = built.simulator;
    m_replay = built.replay;
    m_follow = built.follow;
    m_listener = built.listener;
    m_logUtcOffset = built.logUtcOffset;
    m_worker.setLiveClock(m_simulator == nullptr && m_replay == nullptr ? m_clock.get() : nullptr);
    m_replayProblemShown = false;
    m_replayLoadShown = false;
    Q_EMIT specShown(spec, true);
    return true;
}

void SourceSession::stop() {
    m_simulator = nullptr;
    m_replay = nullptr;
    m_follow = nullptr;
    m_listener = nullptr;
    m_logUtcOffset.reset();
    m_loading = false;
    if (m_source) {
        m_source->stop();
        m_source.reset();
    }
    Q_EMIT stopped();
}

void SourceSession::setRate(double rate) {
    m_spec.rate = rate;
    if (m_simulator) {
        m_simulator->setRate(rate);
    }
}

void SourceSession::setPattern(TrafficPattern pattern) {
    m_spec.pattern = pattern;
    if (m_simulator) {
        m_simulator->setPattern(pattern);
    }
}

void SourceSession::setSpeed(double speed) {
    m_spec.speed = speed;
    if (m_simulator) {
        m_simulator->setSpeed(speed);  // while warming up: the speed after it
    }
}

void SourceSession::setReplaySpeed(double speed) {
    m_spec.speed = speed;
    if (m_replay) {
        m_replay->setSpeed(speed);
    }
}

void SourceSession::setLoop(bool loop) {
    m_spec.loop = loop;
    if (m_replay) {
        m_replay->setLoop(loop);
    }
}

void SourceSession::setReplayKey(const QString& key) {
    m_spec.key = key;
    if (!m_replay || m_spec.kind != SourceSpec::Kind::Replay) {
        return;  // the next replay or follow uses it
    }
    const ReplayProgress progress = m_replay->progress();
    const bool resume = progress.loops == 0 && progress.first.has_value();
    const bool paused = m_replay->paused();
    const Timestamp at = m_replay->now();
    if (!startSpec(m_spec)) {
        return;
    }
    if (paused) {
        m_replay->pause();
    }
    if (resume) {
        m_replay->seek(at);
    }
}

void SourceSession::seek(Timestamp t) {
    if (!m_replay) {
        return;
    }
    m_replay->seek(t);
    Q_EMIT statusMessage(
        tr("Seeking to trace time %1 s: every view is rebuilt from the start").arg(t), 4000);
}

std::optional<Timestamp> SourceSession::rerunReplay() {
    if (!m_replay) {
        return std::nullopt;
    }
    const Timestamp now = m_replay->now();
    m_replay->seek(now);
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
    const bool rebuilt = m_replay != nullptr;
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

SourceSpec SourceSession::traceSpec(const QString& file) const {
    SourceSpec spec = m_spec;
    spec.kind = SourceSpec::Kind::Replay;
    spec.file = file;
    spec.speed = 1.0;
    spec.logFormat.clear();  // detected from the file chosen
    return spec;
}

QString SourceSession::traceDirectory(const QString& fallback) const {
    return m_spec.file.isEmpty() ? fallback : QFileInfo(m_spec.file).absolutePath();
}

bool SourceSession::warmingUp() const {
    return m_simulator != nullptr && m_simulator->catchingUp();
}

void SourceSession::cancelLoading() {
    stop();
    Q_EMIT errorOccurred(tr("%1: loading cancelled").arg(m_spec.file));
}

void SourceSession::tick() {
    if (m_replay) {
        followReplay();
    }
    showRecordingCount();
}

void SourceSession::followReplay() {
    const ReplayProgress progress = m_replay->progress();
    if (progress.state == ReplayState::Loading) {
        const double fraction = progress.bytesTotal == 0
                                    ? 0.0
                                    : double(progress.bytesRead) / double(progress.bytesTotal);
        m_loading = true;
        // A listener may cancelLoading() from here: nothing of this replay is used after.
        Q_EMIT loadProgress(int(fraction * 1000), tr("Loading %1: %L2 rows, %L3 of %L4 bytes")
                                                      .arg(QFileInfo(m_spec.file).fileName())
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
        const QString loaded =
            replayLoadedText(progress, m_spec.file, m_timeMode == TimeAxisMode::Clock);
        if (!loaded.isEmpty()) {
            Q_EMIT statusMessage(loaded, 10000);
            m_replayLoadShown = true;
        }
    }
    if (!m_replayProblemShown) {
        if (progress.state == ReplayState::Failed) {
            Q_EMIT errorOccurred(QString::fromStdString(progress.error));
            m_replayProblemShown = true;
        } else if (const QString empty = emptyReplayText(progress, m_spec.file); !empty.isEmpty()) {
            // Loaded without one good row: nothing will ever move; say why.
            Q_EMIT errorOccurred(empty);
            m_replayProblemShown = true;
        } else if ((progress.badRows > 0 || progress.truncatedAtLine) &&
                   progress.state != ReplayState::Idle) {
            QStringList problems;
            if (const QString cut = replayTruncationText(progress, m_spec.file); !cut.isEmpty()) {
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
    Q_EMIT replayProgress(progress, m_replay->now(), m_replay->paused());
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
    QVariantMap map;
    map.insert(QStringLiteral("source"),
               m_source ? QString::fromStdString(m_source->describe()) : QString());
    map.insert(QStringLiteral("source_kind"), kindName(m_spec.kind));
    if (m_spec.kind == SourceSpec::Kind::Simulator) {
        const std::string_view pattern = trafficPatternName(m_spec.pattern);
        map.insert(QStringLiteral("pattern"),
                   QString::fromUtf8(pattern.data(), qsizetype(pattern.size())));
        map.insert(QStringLiteral("rate"), m_spec.rate);
        map.insert(QStringLiteral("keys"), m_spec.keys);
    }
    map.insert(QStringLiteral("state"), sourceStateName(m_source.get(), m_replay, viewsPaused));
    if (m_replay != nullptr) {
        map.insert(QStringLiteral("speed"), m_replay->speed());
        map.insert(QStringLiteral("loop"), m_replay->loop());
    }
    map.insert(QStringLiteral("recording"), m_recordPath);
    map.insert(QStringLiteral("time_axis"), m_timeMode == TimeAxisMode::Clock
                                                ? QStringLiteral("clock")
                                                : QStringLiteral("trace"));
    return map;
}

}  // namespace hitcounter::ui
