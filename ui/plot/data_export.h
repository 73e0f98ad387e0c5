// Exporting what a plot shows: the visible data as CSV, the plot as PNG or PDF.
//
// GUI thread only. Files are written through QSaveFile (renamed into place on commit), so a
// failed export never leaves a half-written file and an existing file stays whole until the
// new one is complete. exportPlot() never asks; exportInteractive() asks for the format, the
// size and the file, and exportAsking() asks before it replaces an existing file.
//
// CSV (docs/gui.md, "Plot tools", Export): a header row, then one row per second shown, oldest
// first:
//   time_iso8601,seconds,<series>,<series>,...
//   2026-12-01T13:05:07Z,1796130307,412,118230      (zone UTC)
// time_iso8601 is the second in the zone shown, with its offset (ISO 8601: "…+12:00", "…Z" in
// UTC; display_zone.h); a trace of small seconds is written as UTC. seconds is the plot's time
// value (unix seconds for clock time, trace seconds for a trace replayed on trace time). One column
// per visible series (hidden ones, e.g. by a legend click, are left out), named as in the legend,
// prefixed by the value axis label in plots of several panels ("window count: ring"); a
// series without a point at that second has an empty cell. Markers (threshold crossings)
// are not series. Values are each series' own (series_values.h): a stacked status layer's
// column holds that class's hits, not the running sum it is drawn as.
#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>
#include <optional>

class QCustomPlot;
class QWidget;

namespace hitcounter::ui {

enum class ExportFormat { Csv, Png, Pdf };

// The CSV of every visible series over each series' visible time range.
QByteArray visibleDataCsv(const QCustomPlot& plot);

// Writes `format` to `path`: the CSV above, or the plot at `size` (empty: its size on screen)
// as PNG or PDF. False with `error` naming the file and the problem.
bool exportPlot(QCustomPlot& plot, ExportFormat format, const QString& path, QSize size,
                QString* error);

struct ExportChoice {
    ExportFormat format = ExportFormat::Csv;
    QSize size;  // empty: the size on screen
};
// The export dialog: format and size; nullopt if cancelled.
std::optional<ExportChoice> askExportChoice(const QCustomPlot& plot, QWidget* parent);
// Exports to `path`; if the file exists, asks first (No: nothing is written, false). A failure
// is shown in a message box (false).
bool exportAsking(QCustomPlot& plot, const ExportChoice& choice, const QString& path,
                  QWidget* parent);
// askExportChoice, a file dialog, then exportAsking.
void exportInteractive(QCustomPlot& plot, QWidget* parent);

}  // namespace hitcounter::ui
