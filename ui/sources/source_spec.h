// SourceSpec: which source the monitor runs and with what settings; buildSource() makes it.
//
// Plain value, GUI thread. The spec is what QSettings keeps as "the last source" and what
// SourceSession restarts (after a failed open, a seek, a new window length). Recording does not
// restart it: it is the EngineWorker's tap (engine_worker.h).
// The simulator starts `warmup` seconds in the past at full speed (as fast as the engine
// drains it); the main window switches it to the spec's speed once it reaches the clock's
// now, so the window is full within a second of starting and then runs live.
#pragma once

#include <QString>
#include <array>
#include <chrono>
#include <memory>
#include <optional>

#include "core/sim/traffic_pattern.h"
#include "core/sources/source.h"
#include "ui/common/history_update.h"

class QSettings;

namespace hitcounter::ui {
class SettingsReader;
}

namespace hitcounter {
class Clock;
class FollowSource;
class ReplaySource;
class SocketListener;
class SimulatorSource;
}  // namespace hitcounter

namespace hitcounter::ui {

struct SourceSpec {
    // Redis: the fleet view reads a fleet's Redis (fleet_view.h); no hits reach the engine.
    enum class Kind { Simulator, Replay, StatsdUdp, StatsdTcp, GraphiteTcp, Follow, Redis };
    Kind kind = Kind::Simulator;
    // simulator
    TrafficPattern pattern = TrafficPattern::Poisson;
    double rate = 2000.0;  // hits per second
    int keys = 100;
    double speed = 1.0;  // one of kSpeeds
    // The speeds offered (the sources panel's choices and --speed's): simulated or replayed
    // seconds per wall-clock second.
    static constexpr std::array<double, 6> kSpeeds{0.5, 1.0, 2.0, 10.0, 100.0, 1000.0};
    // Ten minutes: the default 5 min window is full within a second. The main window raises it
    // to cover a longer W (startSpec); a W raised later beyond the seconds seen is marked
    // "filling" in the views until it is full.
    std::chrono::seconds warmup{600};
    // replay (a trace CSV or an access log) and follow (a live access log)
    QString file;
    bool loop = false;
    QString key = QStringLiteral("path");  // access logs: path, path+query, status, method, ...
    bool fromStart = false;                // follow: read what the log holds already, too
    QString logFormat;  // an nginx log_format string; empty: the format is detected
    // listeners
    QString address = QStringLiteral("127.0.0.1:8125");
    int receivers = 0;  // receiver threads (ListenerOptions::receivers); 0: one per core
    // the fleet's Redis (Kind::Redis): redis://[[USER]:PASSWORD@]HOST:PORT[/DB], any cluster
    // node; save() stores it without the password
    QString redisUrl = QStringLiteral("redis://127.0.0.1:6379");

    // The file is stored as an absolute path (the next start may be in another directory).
    void save(QSettings& settings) const;
    // Each value checked: a bad one is reset and named in the reader's problems().
    static SourceSpec load(SettingsReader& settings);
    friend bool operator==(const SourceSpec&, const SourceSpec&) = default;
};

QString kindName(SourceSpec::Kind kind);

struct BuiltSource {
    std::unique_ptr<Source> source;
    SimulatorSource* simulator = nullptr;  // into source, when it is a simulator
    ReplaySource* replay = nullptr;        // into source, when it is a replay
    FollowSource* follow = nullptr;        // into source, when it follows an access log
    SocketListener* listener = nullptr;    // into source, when it listens on a socket
    // Clock, but Trace for a replayed trace CSV whose times are small seconds, not dates.
    TimeAxisMode timeAxis = TimeAxisMode::Clock;
    // The UTC offset a replayed or followed access log writes its times with (its first line's);
    // nullopt: the source names none (the zone "log", display_zone.h).
    std::optional<int> logUtcOffset;
};

// The access-log keys a person can choose (AccessLogKey names), "path" first.
QStringList accessLogKeyNames();

// Throws std::invalid_argument with a message for the user for a bad setting, and for
// Kind::Redis (not a hit source: MainWindow starts the fleet view instead). A file source's
// file is probed (core/io/hit_file_probe.h) for the time axis and the log's offset; whether it
// can be opened at all is Source::check()'s to say.
BuiltSource buildSource(const SourceSpec& spec, Clock& clock);

}  // namespace hitcounter::ui
