// Small layout helpers shared by the views that put several titled plots in one QCustomPlot
// (the policy comparison, the Rate limits tab).
//
// GUI thread only.
#pragma once

#include <QString>
#include <cstddef>

#include "ui/qcp.h"

namespace hitcounter::ui {

// A new axis rect at (row, column) of `grid`, its value axis labelled `valueLabel` and `title`
// drawn in bold on its otherwise bare top axis, above the data.
QCPAxisRect* addTitledAxisRect(QCustomPlot* plot, QCPLayoutGrid* grid, int row, int column,
                               const QString& title, const QString& valueLabel);

// "4.4 kB", "16.5 MB": SI units, one decimal, in the user's locale.
QString formatBytes(std::size_t bytes);

}  // namespace hitcounter::ui
