#include "ui/limits/limits_view.h"

#include <QFontMetricsF>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QVBoxLayout>
#include <algorithm>

#include "core/engine/history_delta.h"
#include "ui/common/number_text.h"
#include "ui/common/theme.h"
#include "ui/limits/limiter_style.h"
#include "ui/limits/limits_controls.h"
#include "ui/limits/limits_tables.h"
#include "ui/plot/axis_tickers.h"
#include "ui/plot/plot_layout.h"
#include "ui/plot/qcp.h"
#include "ui/plot/time_axis.h"

namespace hitcounter::ui {

namespace {

// A boundary burst's marker: the algorithm's colour outlined in the text colour.
QCPScatterStyle burstStyle(const QColor& color, bool dark) {
    return QCPScatterStyle(QCPScatterStyle::ssTriangleInverted,
                           QPen(dark ? QColor("#e8eaed") : QColor("#202124"), 1), QBrush(color),
                           11);
}

}  // namespace

LimitsView::LimitsView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("limitsView"));

    m_controls = new LimitsControls;
    connect(m_controls, &LimitsControls::applyRequested, this, &LimitsView::optionsRequested);

    m_note = new QLabel(tr("The lab starts when this tab is first opened."));
    m_note->setObjectName(QStringLiteral("limitsNote"));
    m_note->setWordWrap(true);
    // The plot: accepted / s and rejected / s on one time axis, and the peaks against L.
    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("limitsPlot"));
    m_plot->setToolTip(
        tr("Every algorithm decides the same requests. Left: accepted and rejected requests "
           "per second (triangles: a key got more than L through in some W seconds, the "
           "boundary burst). Right: the most accepted requests of one key in any window, "
           "against L."));
    m_plot->plotLayout()->clear();
    m_plot->addLayer(QStringLiteral("markers"), m_plot->layer(QStringLiteral("main")),
                     QCustomPlot::limAbove);
    auto* legend = new QCPLegend;
    m_plot->plotLayout()->addElement(0, 0, legend);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(0);
    legend->setFont(QFont(font().family(), 9));
    legend->setIconSize(18, 10);
    legend->setMargins(QMargins(4, 2, 4, 2));
    legend->setLayer(QStringLiteral("legend"));
    m_plot->legend = legend;
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    auto* grid = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 0, grid);
    m_acceptedRect =
        addTitledAxisRect(m_plot, grid, 0, 0, tr("accepted per second"), tr("accepted / s"));
    m_rejectedRect =
        addTitledAxisRect(m_plot, grid, 1, 0, tr("rejected per second"), tr("rejected / s"));
    m_peakRect = addTitledAxisRect(m_plot, grid, 0, 1, tr("max in any window"), tr("requests"));
    m_peakNote = new QCPTextElement(m_plot);
    m_peakNote->setFont(QFont(font().family(), 9));
    m_peakNote->setTextFlags(Qt::AlignLeft | Qt::AlignTop);
    // A text element is only as tall as its text: an empty element below it lets its row take
    // half the height, as the rejected plot beside it.
    auto* noteCell = new QCPLayoutGrid;
    grid->addElement(1, 1, noteCell);
    noteCell->addElement(0, 0, m_peakNote);
    noteCell->addElement(1, 0, new QCPLayoutElement(m_plot));
    grid->setColumnStretchFactors({2.6, 1.0});
    // Counts as people write them ("750,000", "1.5 M"), never 5·10^6.
    for (QCPAxisRect* rect : {m_acceptedRect, m_rejectedRect, m_peakRect}) {
        rect->axis(QCPAxis::atLeft)
            ->setTicker(
                QSharedPointer<PlainNumberTicker>::create(PlainNumberTicker::Values::Whole));
    }
    // The bars' title is centred over its rect: a rect at least as wide keeps it off the edge.
    {
        const QCPAxis* top = m_peakRect->axis(QCPAxis::atTop);
        const int title = QFontMetrics(top->labelFont()).horizontalAdvance(top->label());
        m_peakRect->setMinimumSize(title + 8, 0);
    }
    connect(m_plot, &QCustomPlot::afterLayout, this, &LimitsView::placePeakLabels);
    auto* margins = new QCPMarginGroup(m_plot);
    m_acceptedRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_rejectedRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    connect(
        m_acceptedRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
        m_rejectedRect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::setRange));
    setTimeAxis(*m_acceptedRect->axis(QCPAxis::atBottom), TimeAxisMode::Clock);
    setTimeAxis(*m_rejectedRect->axis(QCPAxis::atBottom), TimeAxisMode::Clock);
    m_acceptedRect->axis(QCPAxis::atBottom)->setLabel(QString());
    m_limitLine = new QCPItemStraightLine(m_plot);
    m_limitLine->setClipAxisRect(m_peakRect);
    m_limitLine->point1->setAxes(m_peakRect->axis(QCPAxis::atBottom),
                                 m_peakRect->axis(QCPAxis::atLeft));
    m_limitLine->point2->setAxes(m_peakRect->axis(QCPAxis::atBottom),
                                 m_peakRect->axis(QCPAxis::atLeft));
    m_limitLine->setPen(QPen(alarmColor(), 2, Qt::DashLine));
    m_limitLabel = new QCPItemText(m_plot);
    m_limitLabel->setClipAxisRect(m_peakRect);
    m_limitLabel->position->setAxes(m_peakRect->axis(QCPAxis::atBottom),
                                    m_peakRect->axis(QCPAxis::atLeft));
    m_limitLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_limitLabel->setColor(alarmColor());
    m_limitLabel->setVisible(false);  // said in m_peakNote: the bars' rect is too narrow

    m_tables = new LimitsTables;

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("limitsSplitter"));
    splitter->addWidget(m_plot);
    splitter->addWidget(m_tables);
    splitter->setStretchFactor(0, 5);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({480, 180});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_controls);
    layout->addWidget(m_note);
    layout->addWidget(splitter, 1);
}

LimitsView::~LimitsView() = default;

// After each layout (the bars' pixels known): shows the value labels most important first (over
// L, then the higher bar) and hides any that would overlap one shown or not fit the bars' rect.
void LimitsView::placePeakLabels() {
    QCPAxis* x = m_peakRect->axis(QCPAxis::atBottom);
    QCPAxis* y = m_peakRect->axis(QCPAxis::atLeft);
    const std::size_t n = std::min(m_peakLabels.size(), m_frame.lanes.size());
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) {
        order[i] = i;
    }
    const Count limit = m_frame.options.limit.limit;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const Count pa = m_frame.lanes[a].maxInAnyWindow;
        const Count pb = m_frame.lanes[b].maxInAnyWindow;
        return (pa > limit) != (pb > limit) ? pa > limit : pa > pb;
    });
    const QRectF area = m_peakRect->rect();
    std::vector<QRectF> shown;
    for (std::size_t i : order) {
        QCPItemText* label = m_peakLabels[i];
        const QFontMetricsF metrics(label->font());
        const double w = metrics.horizontalAdvance(label->text());
        const double h = metrics.height();
        const double peak = double(m_frame.lanes[i].maxInAnyWindow);
        const double py = y->coordToPixel(peak);
        // Over its bar, moved inwards as far as needed at the rect's edges.
        const double left = std::max(
            area.left() + 2, std::min(x->coordToPixel(double(i)) - w / 2, area.right() - 2 - w));
        label->position->setCoords(x->pixelToCoord(left + w / 2), peak);
        const QRectF box(left, py - h, w, h);
        bool fits =
            !label->text().isEmpty() && box.right() <= area.right() - 2 && box.top() >= area.top();
        for (const QRectF& other : shown) {
            fits = fits && !box.adjusted(-3, 0, 3, 0).intersects(other);
        }
        label->setVisible(fits);
        if (fits) {
            shown.push_back(box);
        }
    }
    for (std::size_t i = n; i < m_peakLabels.size(); ++i) {
        m_peakLabels[i]->setVisible(false);
    }
}

void LimitsView::setTimeAxisMode(TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    setTimeAxis(*m_acceptedRect->axis(QCPAxis::atBottom), mode, wrap);
    setTimeAxis(*m_rejectedRect->axis(QCPAxis::atBottom), mode, wrap);
    m_acceptedRect->axis(QCPAxis::atBottom)->setLabel(QString());
}

void LimitsView::applyTheme(const Theme& theme) {
    m_dark = theme.dark;
    for (std::size_t i = 0; i < m_bursts.size(); ++i) {
        m_bursts[i]->setScatterStyle(burstStyle(limiterColor(m_names[i]), m_dark));
    }
    stylePlot(*m_plot, theme);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void LimitsView::showOptions(const LimitsOptions& options) {
    m_controls->showOptions(options);
}

LimitsOptions LimitsView::requestedOptions() const {
    return m_controls->requestedOptions();
}

void LimitsView::setRestartNote(const QString& note) {
    m_note->setText(note);
}

QString LimitsView::restartNote() const {
    return m_note->text();
}

QCPGraph* LimitsView::acceptedGraph(int lane) const {
    return lane >= 0 && lane < int(m_accepted.size()) ? m_accepted[lane] : nullptr;
}
QCPGraph* LimitsView::rejectedGraph(int lane) const {
    return lane >= 0 && lane < int(m_rejected.size()) ? m_rejected[lane] : nullptr;
}
QCPGraph* LimitsView::burstGraph(int lane) const {
    return lane >= 0 && lane < int(m_bursts.size()) ? m_bursts[lane] : nullptr;
}
QCPItemText* LimitsView::peakLabel(int lane) const {
    return lane >= 0 && lane < int(m_peakLabels.size()) ? m_peakLabels[lane] : nullptr;
}

void LimitsView::rebuildSeries() {
    m_plot->clearGraphs();
    m_plot->clearPlottables();
    for (QCPItemText* label : m_peakLabels) {
        m_plot->removeItem(label);
    }
    m_peakLabels.clear();
    m_accepted.clear();
    m_rejected.clear();
    m_bursts.clear();
    m_peakBars.clear();
    m_names = m_frame.names;
    QVector<double> ticks;
    QVector<QString> labels;
    QCPAxis* peakX = m_peakRect->axis(QCPAxis::atBottom);
    QCPAxis* peakY = m_peakRect->axis(QCPAxis::atLeft);
    for (std::size_t i = 0; i < m_names.size(); ++i) {
        const QColor color = limiterColor(m_names[i]);
        const QString title = limiterTitle(m_names[i]);
        auto add = [&](QCPAxisRect* rect) {
            QCPGraph* g =
                m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            g->setPen(QPen(color, m_names[i] == "fixed" ? 2.5 : 1.5));
            g->setLineStyle(QCPGraph::lsStepCenter);
            g->setName(title);
            return g;
        };
        m_accepted.push_back(add(m_acceptedRect));
        m_rejected.push_back(add(m_rejectedRect));
        m_rejected.back()->removeFromLegend();
        QCPGraph* bursts = m_plot->addGraph(m_acceptedRect->axis(QCPAxis::atBottom),
                                            m_acceptedRect->axis(QCPAxis::atLeft));
        bursts->setLineStyle(QCPGraph::lsNone);
        bursts->setScatterStyle(burstStyle(color, m_dark));
        bursts->setLayer(QStringLiteral("markers"));  // above every line
        bursts->setName(tr("boundary burst: > L in a window"));
        // The markers are the fixed window's boundary bursts (the definition). The
        // others can pass L too (the bucket's burst capacity, the counter's estimate): the bars
        // and the table show by how much.
        bursts->setVisible(m_names[i] == "fixed");
        m_bursts.push_back(bursts);
        auto* bar = new QCPBars(peakX, peakY);
        bar->setWidth(0.6);
        bar->setPen(Qt::NoPen);
        bar->setBrush(color);
        bar->removeFromLegend();
        m_peakBars.push_back(bar);
        auto* label = new QCPItemText(m_plot);
        label->setClipAxisRect(m_peakRect);
        label->position->setAxes(peakX, peakY);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setFont(QFont(font().family(), 9));
        m_peakLabels.push_back(label);
        ticks.push_back(double(i));
        labels.push_back(limiterName(m_names[i]));
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->setTicks(ticks, labels);
    peakX->setTicker(ticker);
    peakX->setTickLabelRotation(m_names.size() > 2 ? 35 : 0);
    // Room right of the bars for the L label.
    peakX->setRange(-0.6, double(std::max<qsizetype>(ticks.size(), 1)) + 0.5);
    m_tables->setLimiters(m_names);
}

void LimitsView::updateFrom(const LimitsFrame& frame) {
    const bool restarted = frame.generation != m_generation || frame.names != m_names;
    m_generation = frame.generation;
    m_frame.options = frame.options;
    m_frame.generation = frame.generation;
    m_frame.empty = frame.empty;
    m_frame.head = frame.head;
    m_frame.requests = frame.requests;
    m_frame.names = frame.names;
    m_frame.lanes = frame.lanes;
    m_frame.rejectedKeys = frame.rejectedKeys;
    if (restarted) {
        rebuildSeries();
    }
    if (frame.rebuild || restarted) {
        for (QCPGraph* g : m_accepted)
            g->data()->clear();
        for (QCPGraph* g : m_rejected)
            g->data()->clear();
        for (QCPGraph* g : m_bursts)
            g->data()->clear();
    }
    applyHistoryDelta(m_history, frame.history, frame.rebuild || restarted,
                      frame.options.historySeconds);
    if (!frame.history.empty()) {
        // Replace the points from the first changed second on; drop those older than the
        // history.
        const double from = double(frame.history.front().second) - 0.5;
        const double oldest = m_history.empty() ? from : double(m_history.front().second) - 0.5;
        const Count limit = frame.options.limit.limit;
        for (std::size_t i = 0; i < m_accepted.size(); ++i) {
            QVector<double> keys;
            QVector<double> accepted;
            QVector<double> rejected;
            QVector<double> burstKeys;
            QVector<double> burstValues;
            for (const LimitSecond& r : frame.history) {
                keys.push_back(double(r.second));
                accepted.push_back(double(r.accepted[i]));
                rejected.push_back(double(r.rejected[i]));
                if (r.windowMax[i] > limit) {
                    burstKeys.push_back(double(r.second));
                    burstValues.push_back(double(r.accepted[i]));
                }
            }
            for (QCPGraph* g : {m_accepted[i], m_rejected[i], m_bursts[i]}) {
                g->data()->removeAfter(from);
                g->data()->removeBefore(oldest);
            }
            m_accepted[i]->addData(keys, accepted, true);
            m_rejected[i]->addData(keys, rejected, true);
            m_bursts[i]->addData(burstKeys, burstValues, true);
        }
    }
    for (std::size_t i = 0; i < m_bursts.size(); ++i) {
        const bool any = m_bursts[i]->visible() && !m_bursts[i]->data()->isEmpty();
        if (any != (m_plot->legend->itemWithPlottable(m_bursts[i]) != nullptr)) {
            any ? m_bursts[i]->addToLegend() : m_bursts[i]->removeFromLegend();
        }
    }
    updateRanges();
    m_tables->showFrame(m_frame);
    if (isVisible()) {
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void LimitsView::updateRanges() {
    QCPAxis* time = m_acceptedRect->axis(QCPAxis::atBottom);
    if (!m_history.empty()) {
        const std::int64_t w = m_frame.options.limit.per.count();
        const double span = double(std::clamp<std::int64_t>(4 * w, 60, 1800));
        const double head = double(m_history.back().second);
        const double lower = std::max(double(m_history.front().second), head - span);
        time->setRange(lower - 1.0, head + 1.0);
    }
    const QCPRange range = time->range();
    double acceptedTop = 1.0;
    double rejectedTop = 1.0;
    for (std::size_t i = 0; i < m_accepted.size(); ++i) {
        bool found = false;
        const QCPRange a = m_accepted[i]->getValueRange(found, QCP::sdBoth, range);
        if (found) {
            acceptedTop = std::max(acceptedTop, a.upper);
        }
        const QCPRange r = m_rejected[i]->getValueRange(found, QCP::sdBoth, range);
        if (found) {
            rejectedTop = std::max(rejectedTop, r.upper);
        }
    }
    m_acceptedRect->axis(QCPAxis::atLeft)->setRange(0, acceptedTop * 1.2);
    m_rejectedRect->axis(QCPAxis::atLeft)->setRange(0, rejectedTop * 1.15);

    const double limit = double(m_frame.options.limit.limit);
    double peakTop = limit;
    for (std::size_t i = 0; i < m_peakBars.size() && i < m_frame.lanes.size(); ++i) {
        const double peak = double(m_frame.lanes[i].maxInAnyWindow);
        m_peakBars[i]->setData({double(i)}, {peak}, true);
        m_peakLabels[i]->position->setCoords(double(i), peak);
        // Compact from a million ("1.17 M"): narrow enough to stand over its bar.
        m_peakLabels[i]->setText(compactCount(m_frame.lanes[i].maxInAnyWindow));
        m_peakLabels[i]->setColor(m_frame.lanes[i].maxInAnyWindow > m_frame.options.limit.limit
                                      ? alarmColor()
                                      : (m_dark ? QColor("#e8eaed") : QColor("#202124")));
        peakTop = std::max(peakTop, peak);
    }
    m_peakRect->axis(QCPAxis::atLeft)->setRange(0, peakTop * 1.3);
    m_limitLine->point1->setCoords(-1, limit);
    m_limitLine->point2->setCoords(1, limit);
    m_limitLabel->setFont(QFont(font().family(), 9, QFont::Bold));
    m_limitLabel->position->setCoords(double(m_peakBars.size()) - 0.45, limit);
    m_limitLabel->setText(tr("L = %1").arg(QLocale().toString(qulonglong(limit))));
    m_peakNote->setText(tr("The most accepted requests of one\nkey in any %1 s window, per\n"
                           "algorithm. Dashed: L = %2.\nAbove it, a burst got through\n"
                           "(fixed: at window boundaries).")
                            .arg(m_frame.options.limit.per.count())
                            .arg(QLocale().toString(qulonglong(limit))));
}

void LimitsView::showFrame(const FrameContext& context) {
    updateFrom(context.frame.limits);
}

void LimitsView::followTimeAxis(TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    setTimeAxisMode(mode, wrap);
}

void LimitsView::saveSettings(QSettings& settings) const {
    m_controls->saveSettings(settings);
}

void LimitsView::restoreSettings(SettingsReader& settings) {
    m_controls->restoreSettings(settings);
}

}  // namespace hitcounter::ui
