#include "ui/plot/plot_crosshair.h"

#include <QLocale>
#include <QMouseEvent>
#include <cmath>

#include "ui/common/theme.h"
#include "ui/plot/qcp.h"
#include "ui/plot/series_values.h"
#include "ui/plot/time_axis.h"

namespace hitcounter::ui {

namespace {
QString formatValue(double value) {
    const QLocale locale;
    if (std::isfinite(value) && std::abs(value) < 9e15 && value == std::round(value)) {
        return locale.toString(qlonglong(value));
    }
    return locale.toString(value, 'g', 4);
}

// The crosshair's items let every click through: QCustomPlot hands a click to the topmost
// layerable within its selection tolerance, selectable or not, and the line stands under the
// mouse, so it would take the clicks meant for the legend entry below it.
class InertLine final : public QCPItemStraightLine {
public:
    using QCPItemStraightLine::QCPItemStraightLine;
    double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
};
class InertText final : public QCPItemText {
public:
    using QCPItemText::QCPItemText;
    double selectTest(const QPointF&, bool, QVariant* = nullptr) const override { return -1; }
};

}  // namespace

QString crosshairTime(const QCPAxisRect& rect, double t) {
    QCPAxis* axis = rect.axis(QCPAxis::atBottom);
    return axis ? axisTimeText(*axis, t) : QString();
}

PlotCrosshair::PlotCrosshair(QCustomPlot& plot) : QObject(&plot), m_plot(plot) {
    setObjectName(QStringLiteral("crosshair"));
    m_plot.setMouseTracking(true);
    // A tooltip would sit on the readout: its help goes to the status bar instead.
    if (!m_plot.toolTip().isEmpty()) {
        m_plot.setStatusTip(m_plot.toolTip());
        m_plot.setToolTip(QString());
    }
    m_plot.installEventFilter(this);
    if (!m_plot.layer(QStringLiteral("crosshair"))) {
        m_plot.addLayer(QStringLiteral("crosshair"), m_plot.layer(QStringLiteral("legend")),
                        QCustomPlot::limAbove);
    }
    m_line = new InertLine(&m_plot);
    m_line->setObjectName(QStringLiteral("crosshairLine"));
    m_line->setLayer(QStringLiteral("crosshair"));
    m_line->setSelectable(false);
    m_text = new InertText(&m_plot);
    m_text->setLayer(QStringLiteral("crosshair"));
    m_text->setSelectable(false);
    m_text->setTextAlignment(Qt::AlignLeft);
    m_text->setPadding(QMargins(6, 4, 6, 4));
    m_text->position->setType(QCPItemPosition::ptAbsolute);
    applyTheme(lightTheme());
    hide();
}

PlotCrosshair* PlotCrosshair::of(const QCustomPlot& plot) {
    return plot.findChild<PlotCrosshair*>(QStringLiteral("crosshair"), Qt::FindDirectChildrenOnly);
}

void PlotCrosshair::applyTheme(const Theme& theme) {
    QColor line = theme.text;
    line.setAlpha(140);
    m_line->setPen(QPen(line, 1, Qt::DashLine));
    QColor background = theme.window;
    background.setAlpha(225);
    m_text->setBrush(background);
    m_text->setPen(QPen(theme.grid));
    m_text->setColor(theme.text);
    m_text->setFont(QFont(m_plot.font().family(), 9));
}

void PlotCrosshair::attachTo(QCPAxisRect* rect) {
    if (rect == m_rect) {
        return;
    }
    m_rect = rect;
    m_line->setClipAxisRect(rect);
    m_line->setClipToAxisRect(true);
    // x in time, y from the rect's top to its bottom (whatever the value range).
    for (QCPItemPosition* p : {m_line->point1, m_line->point2}) {
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        p->setAxisRect(rect);
        p->setTypeX(QCPItemPosition::ptPlotCoords);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    m_text->setClipToAxisRect(false);
}

void PlotCrosshair::showAt(QPointF pos) {
    QCPAxisRect* rect = m_plot.axisRectAt(pos);
    QList<QCPGraph*> graphs;
    if (rect) {
        for (QCPGraph* g : rect->graphs()) {
            if (isListed(*g) && g->keyAxis() == rect->axis(QCPAxis::atBottom)) {
                graphs << g;
            }
        }
    }
    if (graphs.isEmpty()) {
        hide();
        return;
    }
    attachTo(rect);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    const double t = std::round(x->pixelToCoord(pos.x()));
    QStringList lines{crosshairTime(*rect, t)};
    for (QCPGraph* g : graphs) {
        const std::optional<double> v = ownValueAt(*g, t);
        lines << QStringLiteral("%1: %2").arg(readoutName(*g),
                                              v ? formatValue(*v) : QStringLiteral("–"));
    }
    m_readout = lines.join(QLatin1Char('\n'));
    m_line->point1->setCoords(t, 0);
    m_line->point2->setCoords(t, 1);
    m_text->setText(m_readout);
    // Beside the cursor, on the side with more room; near the top of the rect.
    const bool left = pos.x() > rect->center().x();
    m_text->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    m_text->position->setCoords(x->coordToPixel(t) + (left ? -10 : 10), rect->top() + 6);
    m_line->setVisible(true);
    m_text->setVisible(true);
    m_plot.replot(QCustomPlot::rpQueuedReplot);
}

void PlotCrosshair::hide() {
    m_readout.clear();
    if (m_line->visible() || m_text->visible()) {
        m_line->setVisible(false);
        m_text->setVisible(false);
        m_plot.replot(QCustomPlot::rpQueuedReplot);
    }
}

bool PlotCrosshair::eventFilter(QObject* watched, QEvent* event) {
    if (watched == &m_plot) {
        if (event->type() == QEvent::MouseMove) {
            showAt(static_cast<QMouseEvent*>(event)->position());
        } else if (event->type() == QEvent::Leave) {
            hide();
        }
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace hitcounter::ui
