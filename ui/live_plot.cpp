#include "ui/live_plot.h"

#include "ui/theme.h"
#include "ui/time_axis.h"

namespace hitcounter::ui {

LivePlot::LivePlot(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("livePlot"));
    setToolTip(
        tr("Hits per second and the rolling window count.\n"
           "Drag to pan, wheel to zoom (leaves follow-live); F or the Follow button "
           "returns to the newest data. Right-click to export as PNG."));
    setNoAntialiasingOnDrag(true);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);

    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, tr("Live window"), QFont(font().family(), 11, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);

    m_hits = addGraph(xAxis, yAxis);
    m_hits->setName(tr("hits per second"));
    m_hits->setLineStyle(QCPGraph::lsStepCenter);
    m_window = addGraph(xAxis, yAxis2);
    m_window->setName(tr("hits in window"));
    yAxis->setLabel(tr("hits per second"));
    yAxis2->setVisible(true);
    yAxis2->setLabel(tr("hits in the last 300 s"));
    setTimeAxis(*xAxis, TimeAxisMode::Clock);

    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 9));
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(0);
    legend->setIconSize(16, 10);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);

    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() == Qt::LeftButton) {
            userMovedView();
        }
    });
    connect(this, &QCustomPlot::mouseWheel, this, [this] { userMovedView(); });
}

void LivePlot::setTimeAxisMode(TimeAxisMode mode) {
    setTimeAxis(*xAxis, mode);
    replot(rpQueuedReplot);
}

void LivePlot::applyTheme(const Theme& theme) {
    stylePlot(*this, theme);
    QColor fill = theme.accent;
    fill.setAlpha(90);
    m_hits->setPen(QPen(theme.accent, 1));
    m_hits->setBrush(fill);
    m_window->setPen(QPen(theme.accent2, 2));
    yAxis->setLabelColor(theme.accent);
    yAxis2->setLabelColor(theme.accent2);
    replot(rpQueuedReplot);
}

void LivePlot::updateFrom(const HistoryUpdate& update, const EngineSnapshot& snapshot) {
    applyHistory(*m_hits, update, [](const SecondRecord& r) { return double(r.hits); });
    applyHistory(*m_window, update, [](const SecondRecord& r) {
        return r.counts.empty() ? 0.0 : double(r.counts[0]);
    });
    if (snapshot.windowSeconds != m_windowSeconds) {
        m_windowSeconds = snapshot.windowSeconds;
        yAxis2->setLabel(tr("hits in the last %1 s").arg(m_windowSeconds));
    }
    m_head = snapshot.head;
    m_title->setText(snapshot.empty ? tr("Live window: waiting for hits")
                                    : tr("Live window: %L1 hits in the last %2 s")
                                          .arg(snapshot.windowCount)
                                          .arg(m_windowSeconds));
    if (m_following && !snapshot.empty) {
        xAxis->setRange(double(m_head) - double(m_windowSeconds) + 0.5, double(m_head) + 1.5);
    }
    fitValueAxes();
    replot(rpQueuedReplot);
}

void LivePlot::fitValueAxes() {
    bool found = false;
    const QCPRange hits = m_hits->getValueRange(found, QCP::sdBoth, xAxis->range());
    yAxis->setRange(0, found ? std::max(1.0, hits.upper * 1.3) : 1.0);
    const QCPRange window = m_window->getValueRange(found, QCP::sdBoth, xAxis->range());
    yAxis2->setRange(0, found ? std::max(1.0, window.upper * 1.3) : 1.0);
}

void LivePlot::setFollowing(bool follow) {
    if (follow == m_following) {
        return;
    }
    m_following = follow;
    if (follow) {
        xAxis->setRange(double(m_head) - double(m_windowSeconds) + 0.5, double(m_head) + 1.5);
        fitValueAxes();
        replot(rpQueuedReplot);
    }
    Q_EMIT followingChanged(follow);
}

void LivePlot::zoomTime(double factor) {
    setFollowing(false);
    xAxis->scaleRange(factor, xAxis->range().center());
    fitValueAxes();
    replot(rpQueuedReplot);
}

void LivePlot::userMovedView() {
    setFollowing(false);
}

}  // namespace hitcounter::ui
