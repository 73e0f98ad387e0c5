// ReplaySpec: the replay kind: a trace CSV or an access log, plain or gzip, or several files
// as one (several servers' logs, a rotation set), replayed with seek, speed and loop
// (core/sources/replay_source.h). Its module: this value, its stored keys ("file",
// "moreFiles", "key", "logFormat", "speed", "loop"), build() (the time axis and the log's UTC
// offset probed from the first file), and its controls (replay_controls.h: Open trace… and the
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

// moreFiles are replayed with `file` as one input (core/io/input_set.h: a rotation set
// oldest first, other files merged in time order).
struct ReplaySpec : FileSourceSpec {
    double speed = 1.0;  // replayed seconds per wall-clock second
    bool loop = false;

    // The key that names each row's source (a file, or a rotation set's base path) instead of a
    // field of its line: with several files, which server a hit came from.
    static QString sourceKey() { return QStringLiteral("source"); }
    // accessLogKeyNames() and sourceKey().
    static QStringList keyNames();

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
    // The spec "Open trace…" starts for `files` (at least one) after this one: speed 1, the
    // format detected from the files, this one's access-log key (not sourceKey() for one file)
    // and loop.
    ReplaySpec forFiles(const QStringList& files) const;
    friend bool operator==(const ReplaySpec&, const ReplaySpec&) = default;
};

}  // namespace hitcounter::ui
