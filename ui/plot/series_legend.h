// Legend tools: a click on a legend entry hides or shows its series.
//
// GUI thread only. A hidden series' entry stays in the legend, greyed and struck through; a
// second click shows it again; the series keeps kHiddenByUserProperty (series_values.h) while
// hidden. Works on any QCustomPlot with a legend.
#pragma once

class QCustomPlot;
class QCPAbstractPlottable;

namespace hitcounter::ui {

// Connects the plot's legendClick to toggleSeries.
void installLegendToggle(QCustomPlot& plot);
// Hides a visible series or shows a hidden one, restyles its legend entry and replots (queued).
void toggleSeries(QCustomPlot& plot, QCPAbstractPlottable& series);

}  // namespace hitcounter::ui
