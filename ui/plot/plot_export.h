// Exporting what the window shows: any plot as PNG, and the one-click snapshot.
//
// GUI thread only. Every function reports failure through its return value and an error
// message naming the file and the problem; nothing is left half-written (files are written
// through QSaveFile, which renames into place on commit).
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QVariantMap>
#include <deque>

#include "core/engine/engine_snapshot.h"

class QCustomPlot;
class QWidget;

namespace hitcounter::ui {

// Writes the plot at its on-screen size (at least 800×500) as PNG.
bool exportPlotPng(QCustomPlot& plot, const QString& path, QString* error);
// Adds "Export as PNG…" to the plot's right-click menu.
void installExportMenu(QCustomPlot& plot);

// The CSV of the current window, one row per second in (head - W, head] that is still in the
// history, oldest first: header "second,hits,window_count".
QByteArray windowCsv(const EngineSnapshot& snapshot, const std::deque<SecondRecord>& history);

// A directory for a new snapshot, not there yet: "hitcounter-yyyyMMdd-HHmmss" (local time) in
// `base`, with "-2", "-3" ... after it if a snapshot of the same second is there already.
QString newSnapshotDirectory(const QString& base, const QDateTime& now);

// Writes into `directory` (created if missing): window.png (the whole window), window.csv
// (windowCsv) and settings.json (`settings` plus head, window and totals).
bool writeSnapshot(const QString& directory, QWidget& window, const EngineSnapshot& snapshot,
                   const std::deque<SecondRecord>& history, const QVariantMap& settings,
                   QString* error);

}  // namespace hitcounter::ui
