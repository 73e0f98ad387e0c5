// What the main window says about itself, for the state JSON (state_json.h: source.warnings)
// and a snapshot's settings.json (MainWindow::snapshotTo, docs/gui.md): read from its public
// face as drawn, never from the engine.
//
// GUI thread only.
//   windowWarnings: one text per warning shown now: the error banner, the overload banner,
//     the running source's bad lines ("12 bad lines skipped"), a zone that is not the one
//     chosen ("time zone: ...").
//   windowSettingsUsed: the source's part (SourceSession::settingsUsed) plus "time_zone",
//     "time_zone_choice", "bucket_seconds", "theme" and "policies" (the policies counted).
#pragma once

#include <QStringList>
#include <QVariantMap>

namespace hitcounter::ui {

class MainWindow;

QStringList windowWarnings(const MainWindow& window);
QVariantMap windowSettingsUsed(const MainWindow& window);

}  // namespace hitcounter::ui
