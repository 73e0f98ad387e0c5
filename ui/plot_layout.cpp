#include "ui/plot_layout.h"

#include <QLocale>

namespace hitcounter::ui {

QCPAxisRect* addTitledAxisRect(QCustomPlot* plot, QCPLayoutGrid* grid, int row, int column,
                               const QString& title, const QString& valueLabel) {
    auto* rect = new QCPAxisRect(plot);
    grid->addElement(row, column, rect);
    rect->axis(QCPAxis::atLeft)->setLabel(valueLabel);
    QCPAxis* top = rect->axis(QCPAxis::atTop);
    top->setVisible(true);
    top->setTicks(false);
    top->setTickLabels(false);
    top->setBasePen(Qt::NoPen);
    top->setLabel(title);
    top->setLabelFont(QFont(plot->font().family(), 10, QFont::Bold));
    top->setLabelPadding(2);
    for (QCPAxis* axis : rect->axes()) {
        axis->setLayer(QStringLiteral("axes"));
        axis->grid()->setLayer(QStringLiteral("grid"));
    }
    return rect;
}

QString formatBytes(std::size_t bytes) {
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

}  // namespace hitcounter::ui
