// Small layout helpers shared by the views that put several titled plots in one QCustomPlot
// (the policy comparison, the Rate limits tab).
//
// GUI thread only.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>
#include <cstddef>

#include "ui/plot/qcp.h"

namespace hitcounter::ui {

// A new axis rect at (row, column) of `grid`, its value axis labelled `valueLabel` and `title`
// drawn in bold on its otherwise bare top axis, above the data.
QCPAxisRect* addTitledAxisRect(QCustomPlot* plot, QCPLayoutGrid* grid, int row, int column,
                               const QString& title, const QString& valueLabel);

// Sets the tick count of `axis` to the largest of 1..`most` whose tick labels lie apart: an
// em apart along a horizontal axis, a pixel apart along a vertical one (labels that
// would cross the plot's border, which QCustomPlot leaves out, do not count). Returns whether the
// count changed. Reads the axis rect's size of the last layout: call it from
// QCustomPlot::afterLayout, then relayout() if it changed.
bool fitTickCount(QCPAxis& axis, int most);

// Tick labels for categories 0..n-1 of the horizontal `axis` (one tick per whole coordinate)
// that neither overlap nor cross the plot's border, names never cut: on one line if they fit;
// else every other one a line lower ("\n" first); else slanted (rotation < 0, each ending
// at its tick) as little as keeps neighbours a line apart. Reads the axis rect's size of the
// last layout, like fitTickCount().
struct CategoryLabels {
    QVector<QString> labels;
    double rotation = 0;  // degrees, for QCPAxis::setTickLabelRotation
    bool operator==(const CategoryLabels&) const = default;
};
CategoryLabels fitCategoryLabels(const QCPAxis& axis, const QStringList& names);

// Lays `plot` out again (tick labels, margins, element rects) before it draws: for changes
// made in QCustomPlot::afterLayout.
void relayout(QCustomPlot& plot);

// "4.4 kB", "16.5 MB": SI units, one decimal, in the user's locale.
QString formatBytes(std::size_t bytes);

}  // namespace hitcounter::ui
