// FollowSpec: the follow kind: a web server access log being written, or several (moreFiles:
// several servers' logs), followed like tail -F across rotation and truncation
// (core/sources/follow_set.h). Its module: this value, its stored keys ("file", "moreFiles",
// "key", "logFormat", "filter", "fromStart"), build() (the log's UTC offset probed from the
// first file's first line), the running follower's figures (lines, hits, bad lines, rotations,
// truncations: under its controls and in the status bar) and newest time (the clock-skew
// banner), and its controls (follow_controls.h).
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

struct FollowSpec : FileSourceSpec {
    bool fromStart = false;  // read what the log holds already, too

    static QStringList kindNames() { return {QStringLiteral("follow")}; }
    QString kindName() const { return kindNames().front(); }
    void save(QSettings& settings) const;
    static FollowSpec load(SettingsReader& settings, const QString& kind);
    // Throws std::invalid_argument for an unknown access-log key.
    std::unique_ptr<RunningSource> build(const BuildContext& context) const;
    QVariantMap settingsUsed() const { return {}; }
    static KindControls* makeControls();
    friend bool operator==(const FollowSpec&, const FollowSpec&) = default;
};

}  // namespace hitcounter::ui
