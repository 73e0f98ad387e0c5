#include "ui/series_legend.h"

#include "ui/qcp.h"

namespace hitcounter::ui {

void toggleSeries(QCustomPlot& plot, QCPAbstractPlottable& series) {
    series.setVisible(!series.visible());
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.legend->item(i));
        if (item && item->plottable() == &series) {
            QFont font = plot.legend->font();
            font.setStrikeOut(!series.visible());
            item->setFont(font);
            QColor color = plot.legend->textColor();
            if (!series.visible()) {
                color.setAlpha(110);
            }
            item->setTextColor(color);
        }
    }
    plot.replot(QCustomPlot::rpQueuedReplot);
}

void installLegendToggle(QCustomPlot& plot) {
    // Legend items take mouse clicks only where the legend is selectable.
    plot.setInteraction(QCP::iSelectLegend, false);
    QObject::connect(&plot, &QCustomPlot::legendClick, &plot,
                     [&plot](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
                         if (auto* entry = qobject_cast<QCPPlottableLegendItem*>(item)) {
                             toggleSeries(plot, *entry->plottable());
                         }
                     });
}

}  // namespace hitcounter::ui
