// PlotToolBar: the live plot's tools in one toolbar: log-y, box zoom, the x range presets
// (1 min, 5 min, 15 min, 1 h, each following live with that span) and Export (CSV, PNG, PDF).
//
// GUI thread only. The presets are exclusive with each other; zooming by other means leaves
// them all unchecked. installPlotTools() gives any time plot the crosshair readout and the
// legend click that hides or shows a series.
#pragma once

#include <QToolBar>

class QCustomPlot;
class QSettings;

namespace hitcounter::ui {

class LivePlot;
class SettingsReader;

class PlotToolBar : public QToolBar {
    Q_OBJECT
public:
    explicit PlotToolBar(LivePlot& plot, QWidget* parent = nullptr);

    QAction* logYAction() const { return m_logY; }
    QAction* boxZoomAction() const { return m_boxZoom; }
    // The preset of `seconds` (60, 300, 900, 3600), or nullptr.
    QAction* presetAction(int seconds) const;
    QAction* exportAction() const { return m_export; }

    // "view/logY" (default off).
    void saveSettings(QSettings& settings) const;
    void restoreSettings(SettingsReader& settings);

private:
    LivePlot& m_plot;
    QAction* m_logY;
    QAction* m_boxZoom;
    QAction* m_export;
    QList<QAction*> m_presets;
};

// The crosshair readout (plot_crosshair.h) and the legend toggle (series_legend.h) on `plot`.
void installPlotTools(QCustomPlot& plot);

}  // namespace hitcounter::ui
