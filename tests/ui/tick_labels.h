// Tick-label checks shared by the GUI tests: where QCustomPlot draws each tick label of a
// horizontal axis, and whether two of them overlap or one crosses the plot's border; whether
// two labels of a vertical axis overlap.
#pragma once

#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QtMath>
#include <cmath>

#include "ui/plot/qcp.h"

namespace hitcounter::testing {

struct LabelBox {
    QString text;
    QRectF box;   // the horizontal extent that counts (x), line index in y
    double tick;  // pixel x of its tick
};

// The boxes of the tick labels of the horizontal `axis` as QCustomPlot draws them after a
// replot, one per line of text (a label "\nname" sits on the second line): centred under
// the tick when not rotated; from the tick to the right (rotation > 0) or left when rotated.
inline QVector<LabelBox> tickLabelBoxes(const QCPAxis& axis) {
    const QFontMetricsF metrics(axis.tickLabelFont());
    const QVector<double> ticks = axis.tickVector();
    const QVector<QString> labels = axis.tickVectorLabels();
    const double radians = qDegreesToRadians(axis.tickLabelRotation());
    QVector<LabelBox> boxes;
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        const double x = axis.coordToPixel(ticks[i]);
        const QStringList lines = labels[i].split(QLatin1Char('\n'));
        for (int line = 0; line < lines.size(); ++line) {
            if (lines[line].trimmed().isEmpty()) {
                continue;
            }
            const double w = metrics.horizontalAdvance(lines[line]);
            const double h = metrics.height();
            double left = x - w / 2;
            double width = w;
            if (radians != 0) {
                width = w * std::cos(std::abs(radians)) + h * std::sin(std::abs(radians));
                left = radians > 0 ? x : x - width;
            }
            boxes.push_back({lines[line], QRectF(left, line, width, 1), x});
        }
    }
    return boxes;
}

// What is wrong with the tick labels of the horizontal `axis` ("" if nothing): a label that
// crosses the plot's border (QCustomPlot then leaves it out: a problem where `allShown`, else
// the label is just not counted), or two labels on one line that overlap. The lines of the
// labels drawn go into `texts`.
inline QString tickLabelProblem(const QCustomPlot& plot, const QCPAxis& axis, QStringList& texts,
                                bool allShown) {
    QVector<LabelBox> boxes = tickLabelBoxes(axis);
    if (!allShown) {
        boxes.removeIf(
            [&](const LabelBox& b) { return b.box.left() < 0 || b.box.right() > plot.width(); });
    }
    const double radians = qDegreesToRadians(axis.tickLabelRotation());
    const double lineHeight = QFontMetricsF(axis.tickLabelFont()).height();
    texts.clear();
    for (int i = 0; i < boxes.size(); ++i) {
        const LabelBox& b = boxes[i];
        texts << b.text;
        if (b.box.left() < 0 || b.box.right() > plot.width()) {
            return QStringLiteral(
                       "label '%1' at %2..%3 crosses the %4 px wide plot's border, "
                       "so it is not drawn")
                .arg(b.text)
                .arg(b.box.left())
                .arg(b.box.right())
                .arg(plot.width());
        }
        for (int j = 0; j < i; ++j) {
            const LabelBox& a = boxes[j];
            if (a.box.top() != b.box.top()) {
                continue;
            }
            // Rotated labels are parallel strips: apart when their ticks are a line apart
            // across the text's direction.
            const bool overlap =
                radians != 0 ? std::abs(b.tick - a.tick) * std::sin(std::abs(radians)) < lineHeight
                             : a.box.right() + 2 > b.box.left() && b.box.right() + 2 > a.box.left();
            if (overlap) {
                return QStringLiteral("labels '%1' (%2..%3) and '%4' (%5..%6) overlap")
                    .arg(a.text)
                    .arg(a.box.left())
                    .arg(a.box.right())
                    .arg(b.text)
                    .arg(b.box.left())
                    .arg(b.box.right());
            }
        }
    }
    return {};
}

// What is wrong with the tick labels of the vertical `axis` ("" if nothing): two labels whose
// lines of text overlap (each is a line tall, centred on its tick).
inline QString verticalTickLabelProblem(const QCPAxis& axis) {
    const double lineHeight = QFontMetricsF(axis.tickLabelFont()).height();
    const QVector<double> ticks = axis.tickVector();
    const QVector<QString> labels = axis.tickVectorLabels();
    for (int i = 1; i < ticks.size() && i < labels.size(); ++i) {
        const double apart =
            std::abs(axis.coordToPixel(ticks[i]) - axis.coordToPixel(ticks[i - 1]));
        if (apart < lineHeight) {
            return QStringLiteral("labels '%1' and '%2' are %3 px apart, a line is %4 px")
                .arg(labels[i - 1], labels[i])
                .arg(apart)
                .arg(lineHeight);
        }
    }
    return {};
}

}  // namespace hitcounter::testing
