// What a graph's points mean to the readers of a plot (the crosshair readout, the CSV export),
// which must show each series' own values, not how it is drawn.
//
// GUI thread only (QCustomPlot graphs). A view marks its graphs with properties:
//  - kMarkerProperty: markers (threshold crossings), not data: left out of readouts and CSV.
//  - kStackedProperty: drawn stacked on its channel fill graph (QCPGraph::channelFillGraph),
//    so its points are running sums; its own value at t is its point minus the point of the
//    graph below at t (the bottom layer's points are its own).
//  - kReadoutNameProperty: the name the crosshair readout shows (default: the graph's name),
//    e.g. "total" for the hits per second while a status split is on; the CSV column keeps the
//    graph's name.
//  - kDrawnByStackProperty: not drawn because a stack draws it (the total hits per second: the
//    stack's top), yet listed by readouts and the CSV as if visible.
//  - kHiddenByUserProperty: set by a legend click (series_legend.h); a view that shows and
//    hides its series itself keeps such a series hidden.
//
// Example: 2xx stacked under 4xx, 5 and 3 hits at t = 10: the 4xx graph's point is 8 and
//          ownValueAt(4xx, 10) == 3.
#pragma once

#include <QString>
#include <optional>

class QCPGraph;

namespace hitcounter::ui {

inline constexpr const char* kMarkerProperty = "hitcounterMarker";
inline constexpr const char* kStackedProperty = "hitcounterStacked";
inline constexpr const char* kReadoutNameProperty = "hitcounterReadoutName";
inline constexpr const char* kHiddenByUserProperty = "hitcounterHiddenByUser";
inline constexpr const char* kDrawnByStackProperty = "hitcounterDrawnByStack";

// True for a graph that holds data (not a marker) and is shown: visible, or drawn by a stack.
bool isListed(const QCPGraph& graph);
// The graph's point at key `t` (within half a second), or nullopt.
std::optional<double> pointAt(const QCPGraph& graph, double t);
// The series' own value at `t`: the point, less the graph below for a stacked graph.
std::optional<double> ownValueAt(const QCPGraph& graph, double t);
// The name the readout shows.
QString readoutName(const QCPGraph& graph);

}  // namespace hitcounter::ui
