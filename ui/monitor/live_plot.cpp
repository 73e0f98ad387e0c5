#include "ui/monitor/live_plot.h"

#include <QApplication>
#include <QComboBox>
#include <QSettings>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "ui/common/number_text.h"
#include "ui/common/settings_reader.h"
#include "ui/common/theme.h"
#include "ui/plot/axis_tickers.h"
#include "ui/plot/plot_layout.h"
#include "ui/plot/series_values.h"
#include "ui/plot/time_axis.h"

namespace hitcounter::ui {

namespace {
constexpr int kMostLiveValueTicks = 5;  // QCustomPlot's default tick count; fewer on a short plot
// Layer colours: one per status class, readable on light and dark backgrounds.
const std::array<QColor, LivePlot::kStatusLayers> kLayerColors = {
    QColor(0x90, 0x90, 0x90), QColor(0x2e, 0xa0, 0x43), QColor(0x00, 0x97, 0xa7),
    QColor(0xa1, 0x42, 0xf4), QColor(0xd9, 0x30, 0x25)};
// Stacking order, bottom first: 2xx, 3xx, 4xx, 5xx, other.
constexpr std::array<int, LivePlot::kStatusLayers> kStackOrder = {1, 2, 3, 4, 0};

// Hits of one layer in a record: 0 = unknown and 1xx, 1..4 = 2xx..5xx.
double layerHits(const SecondRecord& r, int layer) {
    return layer == 0 ? double(r.statusHits[0]) + double(r.statusHits[1])
                      : double(r.statusHits[std::size_t(layer) + 1]);
}
}  // namespace

std::optional<StatusSplit> statusSplitFromName(const QString& name) {
    for (StatusSplit split : {StatusSplit::Off, StatusSplit::Stacked, StatusSplit::Lines}) {
        if (statusSplitName(split) == name) {
            return split;
        }
    }
    return std::nullopt;
}

QString statusSplitName(StatusSplit split) {
    switch (split) {
        case StatusSplit::Stacked:
            return QStringLiteral("stacked");
        case StatusSplit::Lines:
            return QStringLiteral("lines");
        case StatusSplit::Off:
            break;
    }
    return QStringLiteral("off");
}

LivePlot::LivePlot(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("livePlot"));
    setToolTip(
        tr("Hits per second and the rolling window count.\n"
           "Wheel or +/- to zoom (while following, the right edge stays at now); drag to "
           "pan (leaves follow-live); F or the Follow button returns to the newest data; "
           "double-click resets. Right-click to export as PNG."));
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
    // The layers before the window line, which stays on top of their fills.
    const QStringList layerNames = {tr("other"), tr("2xx"), tr("3xx"), tr("4xx"), tr("5xx")};
    for (int layer : kStackOrder) {
        QCPGraph* graph = addGraph(xAxis, yAxis);
        graph->setName(layerNames[layer]);
        graph->setLineStyle(QCPGraph::lsStepCenter);
        graph->setVisible(false);
        graph->removeFromLegend();
        m_status[std::size_t(layer)] = graph;
    }
    m_window = addGraph(xAxis, yAxis2);
    m_window->setName(tr("hits in window"));
    yAxis->setLabel(tr("hits per second"));
    yAxis2->setVisible(true);
    // Plain numbers ("20,000", "1.50 M") where 10^x would be printed, whole ones: both axes
    // count hits.
    yAxis->setTicker(QSharedPointer<PlainNumberTicker>::create(PlainNumberTicker::Values::Whole));
    yAxis2->setTicker(QSharedPointer<PlainNumberTicker>::create(PlainNumberTicker::Values::Whole));
    yAxis2->setLabel(tr("hits in the last 300 s"));
    setTimeAxis(*xAxis, TimeAxisMode::Clock);

    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 9));
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(0);
    legend->setIconSize(16, 10);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);

    // Only a drag leaves follow: a press alone (a click) does not.
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() == Qt::LeftButton) {
            m_pressPos = event->pos();
        }
    });
    connect(this, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (m_pressPos && (event->buttons() & Qt::LeftButton) &&
            (event->pos() - *m_pressPos).manhattanLength() >= QApplication::startDragDistance()) {
            m_pressPos.reset();
            setFollowing(false);
        }
    });
    connect(this, &QCustomPlot::mouseRelease, this, [this] { m_pressPos.reset(); });
    // Box zoom (QCustomPlot zooms the rect's zoom axes first): both value axes scale.
    axisRect()->setRangeZoomAxes({xAxis}, {yAxis, yAxis2});
    // A short plot (the first window at 1280x720, under a window manager) gets fewer value
    // labels, never overlapping ones.
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        const bool left = fitTickCount(*yAxis, kMostLiveValueTicks);
        const bool right = fitTickCount(*yAxis2, kMostLiveValueTicks);
        if (left || right) {
            relayout(*this);
        }
    });
    connect(selectionRect(), &QCPSelectionRect::accepted, this, [this] {
        m_manualY = true;
        setFollowing(false);
    });
    connect(this, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* event) {
        if (event->button() == Qt::LeftButton) {
            resetView();
        }
    });
}

void LivePlot::setTimeAxisMode(TimeAxisMode mode) {
    m_mode = mode;
    m_wrap.reset();
    m_timeFloor.reset();
    setTimeAxis(*xAxis, mode);
    replot(rpQueuedReplot);
}

void LivePlot::setReplayTrace(std::optional<Timestamp> first, std::optional<Timestamp> last,
                              bool looped) {
    std::optional<TraceWrap> wrap;
    if (first && last && looped) {
        wrap = TraceWrap{*first, *last - *first + 1};
    }
    if (wrap != m_wrap) {
        m_wrap = wrap;
        setTimeAxis(*xAxis, m_mode, wrap);
        replot(rpQueuedReplot);
    }
    setTimeFloor(first ? std::optional<double>(double(*first)) : std::nullopt);
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

void LivePlot::setStatusSplit(StatusSplit split) {
    if (split == m_split) {
        return;
    }
    const bool wasStacked = m_split == StatusSplit::Stacked;
    m_split = split;
    if (wasStacked != (split == StatusSplit::Stacked)) {
        restack(split == StatusSplit::Stacked);
    }
    showStatusLayers();
    Q_EMIT statusSplitChanged(split);
}

QComboBox* LivePlot::createStatusSplitBox(QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->setObjectName(QStringLiteral("statusSplitBox"));
    box->addItem(tr("Status: off"), int(StatusSplit::Off));
    box->addItem(tr("Status: stacked"), int(StatusSplit::Stacked));
    box->addItem(tr("Status: lines"), int(StatusSplit::Lines));
    box->setToolTip(
        tr("Split the hits per second by HTTP status class (2xx, 3xx, 4xx, 5xx) for access "
           "logs, stacked or as lines; hits without a status count as other"));
    box->setCurrentIndex(box->findData(int(m_split)));
    connect(box, &QComboBox::activated, this,
            [this, box](int i) { setStatusSplit(StatusSplit(box->itemData(i).toInt())); });
    connect(this, &LivePlot::statusSplitChanged, box,
            [box](StatusSplit split) { box->setCurrentIndex(box->findData(int(split))); });
    return box;
}

void LivePlot::restack(bool stacked) {
    // Every layer graph holds the same seconds (one applyHistory each per frame).
    std::array<QCPGraphDataContainer*, kStatusLayers> data{};
    for (std::size_t i = 0; i < kStackOrder.size(); ++i) {
        data[i] = m_status[std::size_t(kStackOrder[i])]->data().data();
    }
    const int points = data[0]->size();
    for (int p = 0; p < points; ++p) {
        double below = 0.0;
        for (QCPGraphDataContainer* layer : data) {
            if (p >= layer->size()) {
                continue;
            }
            auto it = layer->begin() + p;
            const double value = it->value;
            it->value = stacked ? value + below : value - below;
            below = stacked ? it->value : value;
        }
    }
}

void LivePlot::showStatusLayers() {
    const bool on = m_split != StatusSplit::Off;
    const bool stacked = m_split == StatusSplit::Stacked;
    // Stacked, the layers' top is the total: its own fill would hide them, so it is not drawn,
    // but the readout ("total") and the CSV ("hits per second") still list it.
    const bool hitsHidden = m_hits->property(kHiddenByUserProperty).toBool();
    m_hits->setVisible(!stacked && !hitsHidden);
    m_hits->setProperty(kDrawnByStackProperty, stacked && !hitsHidden);
    m_hits->setProperty(kReadoutNameProperty, on ? tr("total") : QString());
    // A class without a hit in the history draws nothing and has no legend entry; a layer
    // fills down to the class below it that has hits.
    QCPGraph* below = nullptr;
    for (int layer : kStackOrder) {
        QCPGraph* graph = m_status[std::size_t(layer)];
        const QColor color = kLayerColors[std::size_t(layer)];
        QColor layerFill = color;
        layerFill.setAlpha(150);
        const bool seen = m_seen[std::size_t(layer)];
        graph->setPen(QPen(color, stacked ? 1 : 2));
        graph->setBrush(stacked ? QBrush(layerFill) : QBrush(Qt::NoBrush));
        graph->setChannelFillGraph(stacked ? below : nullptr);
        graph->setProperty(kStackedProperty, stacked);
        graph->setVisible(on && seen && !graph->property(kHiddenByUserProperty).toBool());
        if (seen) {
            below = graph;
        }
    }
    legend->clearItems();
    if (!stacked) {
        m_hits->addToLegend();
    }
    m_window->addToLegend();
    for (int layer : kStackOrder) {
        if (on && m_seen[std::size_t(layer)]) {
            m_status[std::size_t(layer)]->addToLegend();
        }
    }
    replot(rpQueuedReplot);
}

QString LivePlot::titleText() const {
    return m_title->text();
}

void LivePlot::updateFrom(const HistoryUpdate& update, const EngineSnapshot& snapshot) {
    applyHistory(*m_hits, update, [](const SecondRecord& r) { return double(r.hits); });
    const std::array<bool, kStatusLayers> seenBefore = m_seen;
    if (update.rebuild) {
        m_seen.fill(false);
    }
    for (int layer : kStackOrder) {
        applyHistory(*m_status[std::size_t(layer)], update, [&](const SecondRecord& r) {
            if (layerHits(r, layer) > 0) {
                m_seen[std::size_t(layer)] = true;
            }
            if (m_split != StatusSplit::Stacked) {
                return layerHits(r, layer);
            }
            double sum = 0.0;
            for (int below : kStackOrder) {
                sum += layerHits(r, below);
                if (below == layer) {
                    break;
                }
            }
            return sum;
        });
    }
    if (m_seen != seenBefore) {
        showStatusLayers();
    }
    applyHistory(*m_window, update, [](const SecondRecord& r) {
        return r.counts.empty() ? 0.0 : double(r.counts[0]);
    });
    if (snapshot.windowSeconds != m_windowSeconds) {
        m_windowSeconds = snapshot.windowSeconds;
        yAxis2->setLabel(tr("hits in the last %1 s").arg(m_windowSeconds));
    }
    m_head = snapshot.head;
    // Before the window is full (a source that started less than W ago, or W raised beyond
    // the history), the count covers only the seconds seen: say so.
    const Timestamp seen =
        update.history.empty() ? 0 : snapshot.head - update.history.front().second + 1;
    const bool filling = !snapshot.empty && seen < m_windowSeconds;
    const QString hits = noun(snapshot.windowCount, tr("hit"), tr("hits"));
    m_title->setText(snapshot.empty ? tr("Live window: waiting for hits")
                     : filling ? tr("Live window: %L1 %2 in the last %3 s (filling: %4 s seen)")
                                     .arg(snapshot.windowCount)
                                     .arg(hits)
                                     .arg(m_windowSeconds)
                                     .arg(seen)
                               : tr("Live window: %L1 %2 in the last %3 s")
                                     .arg(snapshot.windowCount)
                                     .arg(hits)
                                     .arg(m_windowSeconds));
    if (m_following && !snapshot.empty) {
        applyFollowRange();
    }
    fitValueAxes();
    replot(rpQueuedReplot);
}

void LivePlot::fitValueAxes() {
    if (m_manualY) {
        return;
    }
    // Log: from just under 1 (a second with one hit shows) to a bit over the top.
    const double lower = m_logY ? 0.8 : 0.0;
    const double headroom = m_logY ? 2.0 : 1.3;
    bool found = false;
    const QCPRange hits = m_hits->getValueRange(found, QCP::sdBoth, xAxis->range());
    yAxis->setRange(lower, found ? std::max(1.0, hits.upper * headroom) : 1.0);
    const QCPRange window = m_window->getValueRange(found, QCP::sdBoth, xAxis->range());
    double top = found ? window.upper : 0.0;
    if (m_windowInclude) {
        top = std::max(top, *m_windowInclude);
    }
    yAxis2->setRange(lower, std::max(1.0, top * headroom));
}

void LivePlot::setFollowSpan(double seconds) {
    m_followSpan = std::clamp(seconds, 5.0, 86400.0);
    followWithAutomaticY();
}

void LivePlot::setLogY(bool on) {
    if (on == m_logY) {
        return;
    }
    m_logY = on;
    QCPAxis* axes[2] = {yAxis, yAxis2};
    for (int i = 0; i < 2; ++i) {
        if (on) {
            m_linearTickers[i] = axes[i]->ticker();
            axes[i]->setScaleType(QCPAxis::stLogarithmic);
            auto ticker = QSharedPointer<PlainLogTicker>::create();
            ticker->setSubTickCount(8);
            axes[i]->setTicker(ticker);
        } else {
            axes[i]->setScaleType(QCPAxis::stLinear);
            axes[i]->setTicker(m_linearTickers[i] ? m_linearTickers[i]
                                                  : QSharedPointer<QCPAxisTicker>::create());
        }
    }
    m_manualY = false;
    fitValueAxes();
    replot(rpQueuedReplot);
}

void LivePlot::setBoxZoom(bool on) {
    setSelectionRectMode(on ? QCP::srmZoom : QCP::srmNone);
}

bool LivePlot::boxZoom() const {
    return selectionRectMode() == QCP::srmZoom;
}

void LivePlot::setWindowAxisInclude(std::optional<double> value) {
    m_windowInclude = value;
    fitValueAxes();
    replot(rpQueuedReplot);
}

void LivePlot::setFollowing(bool follow) {
    if (follow == m_following) {
        return;
    }
    m_following = follow;
    if (follow) {
        m_manualY = false;
        applyFollowRange();
        fitValueAxes();
        replot(rpQueuedReplot);
    }
    Q_EMIT followingChanged(follow);
}

double LivePlot::followSpan() const {
    return m_followSpan > 0.0 ? m_followSpan : double(m_windowSeconds);
}

void LivePlot::applyFollowRange() {
    // One more than the span: the head's own step is drawn whole.
    const double upper = double(m_head) + 1.5;
    const double width = followSpan() + 1.0;
    double lower = upper - width;
    if (m_timeFloor && lower < *m_timeFloor - 0.5) {
        lower = *m_timeFloor - 0.5;
    }
    xAxis->setRange(lower, std::max(upper, lower + width));
}

void LivePlot::zoomTime(double factor) {
    if (m_following) {
        // Between 5 s and a day: the follow range always shows some seconds.
        m_followSpan = std::clamp(followSpan() * factor, 5.0, 86400.0);
        applyFollowRange();
    } else {
        xAxis->scaleRange(factor, xAxis->range().center());
    }
    fitValueAxes();
    replot(rpQueuedReplot);
}

void LivePlot::resetView() {
    m_followSpan = 0.0;
    followWithAutomaticY();
}

void LivePlot::followWithAutomaticY() {
    m_manualY = false;
    if (m_following) {
        applyFollowRange();
        fitValueAxes();
        replot(rpQueuedReplot);
    } else {
        setFollowing(true);
    }
}

void LivePlot::setTimeFloor(std::optional<double> floor) {
    if (floor == m_timeFloor) {
        return;
    }
    m_timeFloor = floor;
    if (m_following) {
        applyFollowRange();
        replot(rpQueuedReplot);
    }
}

void LivePlot::wheelEvent(QWheelEvent* event) {
    if (!m_following) {
        QCustomPlot::wheelEvent(event);  // around the cursor
        fitValueAxes();
        return;
    }
    // Following: the same factor as QCustomPlot's wheel zoom, but the right edge stays at now.
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0.0) {
        zoomTime(std::pow(axisRect()->rangeZoomFactor(Qt::Horizontal), steps));
    }
    event->accept();
}

void LivePlot::showFrame(const FrameContext& context) {
    updateFrom(context.update, context.frame.snapshot);
}

void LivePlot::saveSettings(QSettings& settings) const {
    settings.setValue(QStringLiteral("view/statusSplit"), statusSplitName(statusSplit()));
}

void LivePlot::restoreSettings(SettingsReader& settings) {
    QStringList splits;
    for (StatusSplit split : {StatusSplit::Off, StatusSplit::Stacked, StatusSplit::Lines}) {
        splits << statusSplitName(split);
    }
    setStatusSplit(statusSplitFromName(settings.oneOf(QStringLiteral("view/statusSplit"),
                                                      statusSplitName(StatusSplit::Off), splits))
                       .value_or(StatusSplit::Off));
}

}  // namespace hitcounter::ui
