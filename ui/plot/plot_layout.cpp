#include "ui/plot/plot_layout.h"

#include <QFontMetricsF>
#include <QLocale>
#include <algorithm>
#include <cmath>

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

namespace {
// Whether the labels `axis`' ticker makes at its current tick count lie less than `gap` px
// apart. Labels crossing the plot's border are not drawn (QCPAxisPainterPrivate), so not
// counted.
bool tickLabelsCrowded(const QCPAxis& axis, double gap) {
    QVector<double> ticks;
    QVector<QString> labels;
    const QString format = axis.numberFormat();
    axis.ticker()->generate(axis.range(), axis.parentPlot()->locale(),
                            format.isEmpty() ? QLatin1Char('g') : format.at(0),
                            axis.numberPrecision(), ticks, nullptr, &labels);
    const QFontMetricsF metrics(axis.tickLabelFont());
    const bool vertical = axis.orientation() == Qt::Vertical;
    const double length =
        vertical ? axis.parentPlot()->viewport().height() : axis.parentPlot()->viewport().width();
    std::vector<std::pair<double, double>> spans;  // along the axis, in px
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        const double at = axis.coordToPixel(ticks[i]);
        const double half =
            (vertical ? metrics.height() : metrics.horizontalAdvance(labels[i])) / 2;
        if (at - half >= 0 && at + half <= length) {
            spans.emplace_back(at - half, at + half);
        }
    }
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i) {
        if (spans[i - 1].second + gap > spans[i].first) {
            return true;
        }
    }
    return false;
}
}  // namespace

bool fitTickCount(QCPAxis& axis, int most) {
    const int before = axis.ticker()->tickCount();
    // An em between the labels along a horizontal axis; a pixel between the lines of a
    // vertical one (a short chart keeps a scale of two or three labels).
    const double gap =
        axis.orientation() == Qt::Vertical ? 1.0 : QFontMetricsF(axis.tickLabelFont()).height();
    int count = std::max(1, most);
    for (; count > 1; --count) {
        axis.ticker()->setTickCount(count);
        if (!tickLabelsCrowded(axis, gap)) {
            break;
        }
    }
    axis.ticker()->setTickCount(count);
    return count != before;
}

CategoryLabels fitCategoryLabels(const QCPAxis& axis, const QStringList& names) {
    const QFontMetricsF metrics(axis.tickLabelFont());
    const double gap = metrics.horizontalAdvance(QLatin1Char(' '));
    const double spacing = std::abs(axis.coordToPixel(1) - axis.coordToPixel(0));
    const double width = axis.parentPlot()->viewport().width();
    const int n = int(names.size());
    // Whether the names fit centred under their ticks with `lines` lines (neighbours on one
    // line `lines` ticks apart).
    auto fitLines = [&](int lines) {
        for (int i = 0; i < n; ++i) {
            const double x = axis.coordToPixel(i);
            const double w = metrics.horizontalAdvance(names[i]);
            if (w > 2 * std::min(x, width - x)) {
                return false;
            }
            if (i >= lines &&
                (metrics.horizontalAdvance(names[i - lines]) + w) / 2 + gap > lines * spacing) {
                return false;
            }
        }
        return true;
    };
    CategoryLabels result;
    if (fitLines(1)) {
        result.labels = QVector<QString>(names.begin(), names.end());
        return result;
    }
    if (fitLines(2)) {
        for (int i = 0; i < n; ++i) {
            result.labels.push_back(i % 2 == 1 ? QLatin1Char('\n') + names[i] : names[i]);
        }
        return result;
    }
    // Slanted labels are parallel strips: apart when their ticks are a line apart across them.
    result.labels = QVector<QString>(names.begin(), names.end());
    result.rotation = -90;
    for (double degrees : {30.0, 45.0, 60.0}) {
        if (spacing * std::sin(degrees * M_PI / 180) >= metrics.height() + 1) {
            result.rotation = -degrees;
            break;
        }
    }
    return result;
}

void relayout(QCustomPlot& plot) {
    // What QCustomPlot::updateLayout() does, without emitting afterLayout again.
    plot.plotLayout()->update(QCPLayoutElement::upPreparation);
    plot.plotLayout()->update(QCPLayoutElement::upMargins);
    plot.plotLayout()->update(QCPLayoutElement::upLayout);
}

QString formatBytes(std::size_t bytes) {
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

}  // namespace hitcounter::ui
