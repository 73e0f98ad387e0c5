#include "ui/plot/series_legend.h"

#include "ui/plot/qcp.h"
#include "ui/plot/series_values.h"

namespace hitcounter::ui {

namespace {
// Greys and strikes out the entries of hidden series. Run before each replot, so entries that
// a view re-creates (a legend rebuilt on a status split) and a theme's colours stay right.
void restyleLegend(QCustomPlot& plot) {
    if (plot.legend == nullptr) {
        return;
    }
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.legend->item(i));
        if (item == nullptr) {
            continue;
        }
        const bool shown = item->plottable()->visible();
        QFont font = plot.legend->font();
        font.setStrikeOut(!shown);
        QColor color = plot.legend->textColor();
        if (!shown) {
            color.setAlpha(110);
        }
        if (item->font() != font) {
            item->setFont(font);
        }
        if (item->textColor() != color) {
            item->setTextColor(color);
        }
    }
}
}  // namespace

void toggleSeries(QCustomPlot& plot, QCPAbstractPlottable& series) {
    series.setVisible(!series.visible());
    series.setProperty(kHiddenByUserProperty, !series.visible());
    restyleLegend(plot);
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
    QObject::connect(&plot, &QCustomPlot::beforeReplot, &plot, [&plot] { restyleLegend(plot); });
}

}  // namespace hitcounter::ui
