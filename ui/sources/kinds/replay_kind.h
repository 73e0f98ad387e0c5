// ReplaySpec: the replay kind: a trace CSV or an access log, plain or gzip, replayed with
// seek, speed and loop (core/sources/replay_source.h). Its module: this value, its stored keys
// ("file", "key", "logFormat", "speed", "loop"), build() (the time axis and the log's UTC
// offset probed from the file), and its controls (replay_controls.h: Open trace… and the
// access-log key; the replay bar, replay_tool_bar.h, holds its play, seek, speed and loop).
// The running replay offers every capability (pause, seek, speed): what the window does with
// it, it asks of the Source.
//
// Plain value, GUI thread.
#pragma once

#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <memory>

#include "ui/sources/kinds/file_source_spec.h"

class QSettings;

namespace hitcounter::ui {

class KindControls;
class RunningSource;
class SettingsReader;
struct BuildContext;

struct ReplaySpec : FileSourceSpec {
    double speed = 1.0;  // replayed seconds per wall-clock second
    bool loop = false;

    static QStringList kindNames() { return {QStringLiteral("replay")}; }
    QString kindName() const { return kindNames().front(); }
    void save(QSettings& settings) const;
    static ReplaySpec load(SettingsReader& settings, const QString& kind);
    // Throws std::invalid_argument for an unknown access-log key. The file is probed
    // (core/io/hit_file_probe.h) for the time axis and the log's offset; whether it can be
    // opened at all is Source::check()'s to say.
    std::unique_ptr<RunningSource> build(const BuildContext& context) const;
    QVariantMap settingsUsed() const { return {}; }
    static KindControls* makeControls();
    // The spec "Open trace…" starts for `file` after this one: speed 1, the format detected
    // from the file, this one's access-log key and loop.
    ReplaySpec forFile(const QString& file) const;
    friend bool operator==(const ReplaySpec&, const ReplaySpec&) = default;
};

}  // namespace hitcounter::ui
