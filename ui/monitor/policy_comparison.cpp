#include "ui/monitor/policy_comparison.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/plot/plot_layout.h"
#include "ui/plot/qcp.h"

#include "ui/common/theme.h"
#include "ui/monitor/policy_cost_text.h"
#include "ui/monitor/policy_table.h"
#include "ui/plot/axis_tickers.h"
#include "ui/plot/time_axis.h"

namespace hitcounter::ui {

namespace {

// The two cost bars of a policy stand this far left and right of its tick, this wide.
constexpr double kBarOffset = 0.2;
constexpr double kBarWidth = 0.36;
// Tick labels on each small time chart: 5 min read every 2.5 min, fewer where they would touch.
constexpr int kMostTimeTicks = 2;
// The value axes of the small charts: few labels, fewer where a chart is short.
constexpr int kMostComparisonValueTicks = 3;
constexpr int kMostDecadeTicks = 6;

}  // namespace

PolicyComparison::PolicyComparison(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("policyComparison"));
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("comparisonPlot"));
    m_plot->setToolTip(
        tr("Every policy counts the same hits. Top left: their window counts; "
           "top right: error against the exact ring (%); bottom left: memory "
           "held (log scale); bottom right: what one operation costs, in ns (log scale): per "
           "hit (solid) and per getHits (hatched), measured on the recent stream through a "
           "fresh instance of each policy (hover a bar for how); the whiskers are the spread "
           "of the samples. Right-click to export as PNG."));
    m_plot->plotLayout()->clear();  // deletes the default legend too
    // No legend in the plot: the table beside it names each policy in its colour, and a
    // click on a name shows or hides the policy here. A legend row took the height the four small
    // charts need, and QCustomPlot squeezed it when the window was short ("ri", "deq").
    auto* grid = m_plot->plotLayout();
    m_countRect = addTitledAxisRect(m_plot, grid, 0, 0, tr("window count"), tr("hits in window"));
    m_errorRect = addTitledAxisRect(m_plot, grid, 0, 1, tr("error vs exact"), tr("error (%)"));
    m_memoryRect = addTitledAxisRect(m_plot, grid, 1, 0, tr("memory held"), tr("bytes (log)"));
    m_nsRect =
        addTitledAxisRect(m_plot, grid, 1, 1, tr("ns per hit ▮ · per getHits ▨"), tr("ns (log)"));
    QCPAxis* nsAxis = m_nsRect->axis(QCPAxis::atLeft);
    nsAxis->setScaleType(QCPAxis::stLogarithmic);
    nsAxis->setTicker(QSharedPointer<PlainLogTicker>::create());
    m_countRect->axis(QCPAxis::atLeft)
        ->setTicker(QSharedPointer<PlainNumberTicker>::create(PlainNumberTicker::Values::Whole));
    auto* memAxis = m_memoryRect->axis(QCPAxis::atLeft);
    memAxis->setScaleType(QCPAxis::stLogarithmic);
    // Bytes as "1 kB", "10 MB" (not 10^x), at most about five labels, none overlapping.
    memAxis->setTicker(QSharedPointer<BytesLogTicker>::create());
    memAxis->setNumberPrecision(0);
    setTimeAxisMode(TimeAxisMode::Clock);
    // Four small charts: few labels on each axis, so that none overlap; the cost chart's log
    // axis labels every decade, or every second or fifth one, as its height allows (fitLabels).
    // Not the memory axis: BytesLogTicker places its own decades.
    for (QCPAxisRect* rect : {m_countRect, m_errorRect}) {
        rect->axis(QCPAxis::atLeft)->ticker()->setTickCount(kMostComparisonValueTicks);
    }
    nsAxis->ticker()->setTickCount(kMostDecadeTicks);
    // The policy names under the bars: one line, two, or slanted, as the width allows.
    m_nsRect->axis(QCPAxis::atBottom)->setTickLabelRotation(0);
    connect(m_plot, &QCustomPlot::afterLayout, this, &PolicyComparison::fitLabels);
    m_plot->installEventFilter(this);

    m_side = new PolicyTable(this);
    connect(m_side, &PolicyTable::policyClicked, this,
            [this](const QString& name) { setPolicyShown(name, !policyShown(name)); });
    updateCosts(PolicyCosts{});

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot, 5);
    layout->addWidget(m_side, 4);
}

QTableWidget* PolicyComparison::table() const {
    return m_side->table();
}

QCPGraph* PolicyComparison::countGraph(int index) const {
    return index >= 0 && index < static_cast<int>(m_counts.size()) ? m_counts[index] : nullptr;
}

void PolicyComparison::setTimeAxisMode(TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    for (QCPAxisRect* rect : {m_countRect, m_errorRect, m_memoryRect}) {
        QCPAxis* axis = rect->axis(QCPAxis::atBottom);
        // The live plot above names the time axis; here its line would take the charts'
        // height (the tooltip says it).
        setUntitledTimeAxis(*axis, mode, wrap);
        axis->ticker()->setTickCount(kMostTimeTicks);
    }
}

void PolicyComparison::fitLabels() {
    // The value axes first: their labels' width sets the room left for the horizontal ones.
    bool changed = false;
    for (QCPAxisRect* rect : {m_countRect, m_errorRect}) {
        changed = fitTickCount(*rect->axis(QCPAxis::atLeft), kMostComparisonValueTicks) || changed;
    }
    changed = fitTickCount(*m_nsRect->axis(QCPAxis::atLeft), kMostDecadeTicks) || changed;
    if (changed) {
        relayout(*m_plot);
    }
    changed = false;
    for (QCPAxisRect* rect : {m_countRect, m_errorRect, m_memoryRect}) {
        changed = fitTickCount(*rect->axis(QCPAxis::atBottom), kMostTimeTicks) || changed;
    }
    QCPAxis* policies = m_nsRect->axis(QCPAxis::atBottom);
    if (!m_nsTicker.isNull() && !m_names.empty()) {
        QStringList names;
        for (const std::string& name : m_names) {
            names << QString::fromStdString(name);
        }
        const CategoryLabels fitted = fitCategoryLabels(*policies, names);
        if (fitted.labels != QVector<QString>(m_nsTicker->ticks().values()) ||
            fitted.rotation != policies->tickLabelRotation()) {
            QVector<double> ticks;
            for (int p = 0; p < fitted.labels.size(); ++p) {
                ticks.push_back(p);
            }
            m_nsTicker->setTicks(ticks, fitted.labels);
            policies->setTickLabelRotation(fitted.rotation);
            changed = true;
        }
    }
    changed = fitCostTitle() || changed;
    if (changed) {
        relayout(*m_plot);
    }
}

bool PolicyComparison::policyShown(const QString& name) const {
    return !m_hidden.contains(name);
}

void PolicyComparison::setPolicyShown(const QString& name, bool shown) {
    if (shown) {
        m_hidden.remove(name);
    } else {
        m_hidden.insert(name);
    }
    m_side->showHidden(name, !shown);
    applyVisibility();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PolicyComparison::applyVisibility() {
    for (std::size_t p = 0; p < m_counts.size(); ++p) {
        const QString name = QString::fromStdString(m_names[p]);
        const bool shown = !m_hidden.contains(name);
        // A stopped policy's count is frozen, so its count and error lines would only drift
        // away from the truth; the table and the memory plot still show it.
        const bool fed = !m_stopped[p];
        m_counts[p]->setVisible(shown && fed);
        m_errors[p]->setVisible(shown && fed);
        m_memory[p]->setVisible(shown);
        m_hitBars[p]->setVisible(shown);
        m_getHitsBars[p]->setVisible(shown);
        m_spreads[2 * p]->setVisible(shown);
        m_spreads[2 * p + 1]->setVisible(shown);
    }
}

PolicyComparison::~PolicyComparison() = default;

bool PolicyComparison::eventFilter(QObject* watched, QEvent* event) {
    // Over the cost chart and its labels: the policy's full name and figures.
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        const QPoint pos = static_cast<QHelpEvent*>(event)->pos();
        const QRect chart =
            m_nsRect->rect().united(QRect(m_nsRect->left(), m_nsRect->bottom(), m_nsRect->width(),
                                          m_nsRect->outerRect().bottom() - m_nsRect->bottom()));
        const int p = int(std::lround(m_nsRect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x())));
        if (chart.contains(pos) && p >= 0 && p < int(m_nsText.size())) {
            QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), m_nsText[p], m_plot);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void PolicyComparison::applyTheme(const Theme& theme) {
    stylePlot(*m_plot, theme);
    m_whiskerColor = theme.text;
    for (QCPErrorBars* spread : m_spreads) {
        spread->setPen(QPen(m_whiskerColor, 1));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PolicyComparison::setTimeRange(const QCPRange& range) {
    for (QCPAxisRect* rect : {m_countRect, m_errorRect, m_memoryRect}) {
        rect->axis(QCPAxis::atBottom)->setRange(range);
    }
}

void PolicyComparison::rebuildSeries(const EngineSnapshot& snapshot) {
    m_plot->clearGraphs();
    m_plot->clearPlottables();
    m_counts.clear();
    m_errors.clear();
    m_memory.clear();
    m_names.clear();
    QVector<double> ticks;
    QVector<QString> labels;
    for (std::size_t p = 0; p < snapshot.policies.size(); ++p) {
        const QString name = QString::fromStdString(snapshot.policies[p].name);
        const QColor color = policyColor(name);
        auto add = [&](QCPAxisRect* rect, int width) {
            QCPGraph* g =
                m_plot->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            g->setPen(QPen(color, width));
            g->setName(name);
            return g;
        };
        // The exact policies draw one line; the ring, drawn widest underneath, stands for all.
        m_counts.push_back(add(m_countRect, p == 0 ? 4 : 1));
        m_errors.push_back(add(m_errorRect, 2));
        m_memory.push_back(add(m_memoryRect, 2));
        m_names.push_back(snapshot.policies[p].name);
        ticks.push_back(double(p));
        labels.push_back(name);
    }
    m_side->setPolicies(m_names);
    m_hitBars.clear();
    m_getHitsBars.clear();
    m_spreads.clear();
    for (std::size_t p = 0; p < snapshot.policies.size(); ++p) {
        const QColor color = policyColor(QString::fromStdString(snapshot.policies[p].name));
        const auto add = [&](Qt::BrushStyle style) {
            auto* bars =
                new QCPBars(m_nsRect->axis(QCPAxis::atBottom), m_nsRect->axis(QCPAxis::atLeft));
            bars->setWidth(kBarWidth);
            bars->setPen(style == Qt::SolidPattern ? Qt::NoPen : QPen(color, 1));
            bars->setBrush(QBrush(color, style));
            bars->removeFromLegend();
            auto* spread = new QCPErrorBars(m_nsRect->axis(QCPAxis::atBottom),
                                            m_nsRect->axis(QCPAxis::atLeft));
            spread->setDataPlottable(bars);
            spread->setWhiskerWidth(5);
            spread->setPen(QPen(m_whiskerColor, 1));
            spread->removeFromLegend();
            m_spreads.push_back(spread);
            return bars;
        };
        m_hitBars.push_back(add(Qt::SolidPattern));
        m_getHitsBars.push_back(add(Qt::BDiagPattern));
    }
    m_nsTicker = QSharedPointer<QCPAxisTickerText>::create();
    m_nsTicker->setTicks(ticks, labels);  // fitLabels() shortens them where needed
    m_nsRect->axis(QCPAxis::atBottom)->setTicker(m_nsTicker);
    m_nsRect->axis(QCPAxis::atBottom)->setRange(-0.6, double(ticks.size()) - 0.4);
    m_stopped.assign(m_names.size(), false);
    m_nsText = std::vector<QString>(m_names.size());
    for (std::size_t p = 0; p < m_names.size(); ++p) {
        const QString name = QString::fromStdString(m_names[p]);
        if (m_hidden.contains(name)) {
            setPolicyShown(name, false);
        }
    }
    applyVisibility();
}

void PolicyComparison::updateFrom(const HistoryUpdate& update, const EngineSnapshot& snapshot,
                                  const PolicyCosts& costs) {
    bool sameNames = m_names.size() == snapshot.policies.size();
    for (std::size_t p = 0; sameNames && p < m_names.size(); ++p) {
        sameNames = m_names[p] == snapshot.policies[p].name;
    }
    const bool rebuild = update.rebuild || !sameNames;
    if (!sameNames) {
        rebuildSeries(snapshot);
    }
    const HistoryUpdate effective{update.history, update.from, rebuild};
    // Errors shown before the window is full are over the seconds seen so far: marked so.
    const Timestamp seen =
        update.history.empty() ? 0 : snapshot.head - update.history.front().second + 1;
    m_side->showNoteMark(
        !snapshot.empty && seen < snapshot.windowSeconds
            ? tr("Window filling: %1 of %2 s seen, so counts and errors cover only those "
                 "seconds. ")
                  .arg(seen)
                  .arg(snapshot.windowSeconds)
            : QString());
    for (std::size_t p = 0; p < m_counts.size(); ++p) {
        applyHistory(*m_counts[p], effective, [p](const SecondRecord& r) {
            return p < r.counts.size() ? double(r.counts[p]) : 0.0;
        });
        applyHistory(*m_errors[p], effective, [p](const SecondRecord& r) {
            if (p >= r.counts.size() || r.counts[0] == 0) {
                return 0.0;
            }
            return 100.0 * (double(r.counts[p]) - double(r.counts[0])) / double(r.counts[0]);
        });
        applyHistory(*m_memory[p], effective, [p](const SecondRecord& r) {
            return p < r.memory.size() ? std::max(1.0, double(r.memory[p])) : 1.0;
        });
        m_stopped[p] = p >= snapshot.policies.size() || snapshot.policies[p].stopped;
    }
    applyVisibility();
    updateCosts(costs);

    const QCPRange range = m_countRect->axis(QCPAxis::atBottom)->range();
    double countTop = 1.0;
    double errorLow = -1.0;
    double errorHigh = 1.0;
    double memLow = 1e12;
    double memHigh = 10.0;
    for (std::size_t p = 0; p < m_counts.size(); ++p) {
        bool found = false;
        const QCPRange c = m_counts[p]->getValueRange(found, QCP::sdBoth, range);
        if (found && m_counts[p]->visible()) {
            countTop = std::max(countTop, c.upper);
        }
        const QCPRange e = m_errors[p]->getValueRange(found, QCP::sdBoth, range);
        if (found && m_errors[p]->visible()) {
            errorLow = std::min(errorLow, e.lower);
            errorHigh = std::max(errorHigh, e.upper);
        }
        const QCPRange m = m_memory[p]->getValueRange(found, QCP::sdBoth, range);
        if (found && m_memory[p]->visible()) {
            memLow = std::min(memLow, m.lower);
            memHigh = std::max(memHigh, m.upper);
        }
    }
    m_countRect->axis(QCPAxis::atLeft)->setRange(0, countTop * 1.1);
    const double pad = 0.1 * (errorHigh - errorLow);
    m_errorRect->axis(QCPAxis::atLeft)->setRange(errorLow - pad, errorHigh + pad);
    m_memoryRect->axis(QCPAxis::atLeft)
        ->setRange(std::max(1.0, std::min(memLow, memHigh) / 3), memHigh * 3);
    m_side->showValues(snapshot, costs);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PolicyComparison::updateCosts(const PolicyCosts& costs) {
    const QString method = costMethodText(costs);
    double low = std::numeric_limits<double>::max();
    double high = 0;
    for (std::size_t p = 0; p < m_names.size(); ++p) {
        const QString name = QString::fromStdString(m_names[p]);
        const PolicyCost* cost = costOf(costs, m_names[p]);
        const std::pair<QCPBars*, const CostFigure*> bars[] = {
            {m_hitBars[p], cost ? &cost->nsPerHit : nullptr},
            {m_getHitsBars[p], cost ? &cost->nsPerGetHits : nullptr}};
        for (std::size_t b = 0; b < 2; ++b) {
            const auto [plottable, figure] = bars[b];
            const double key = double(p) + (b == 0 ? -kBarOffset : kBarOffset);
            QCPErrorBars* spread = m_spreads[2 * p + b];
            if (figure == nullptr) {
                plottable->data()->clear();
                spread->data()->clear();
                continue;
            }
            // A log axis has no 0: a figure under a hundredth of a ns is drawn at that floor.
            const double value = std::max(figure->median, 0.01);
            plottable->setData({key}, {value}, true);
            spread->setData({std::max(0.0, value - figure->low)},
                            {std::max(0.0, figure->high - value)});
            if (plottable->visible()) {
                low = std::min(low, std::max(figure->low, 0.01));
                high = std::max(high, figure->high);
            }
        }
        m_nsText[p] =
            cost == nullptr
                ? tr("%1: not measured yet").arg(name)
                : tr("%1: %2 ns per hit (spread %3 to %4), %5 ns per getHits (spread %6 to %7), "
                     "the median of %8 samples.\n\n%9")
                      .arg(name, nsText(cost->nsPerHit.median), nsText(cost->nsPerHit.low),
                           nsText(cost->nsPerHit.high), nsText(cost->nsPerGetHits.median),
                           nsText(cost->nsPerGetHits.low), nsText(cost->nsPerGetHits.high))
                      .arg(cost->samples)
                      .arg(method);
    }
    // Whole decades around every figure shown, the bars standing on the lower edge.
    const double lower = high > 0 ? std::pow(10.0, std::floor(std::log10(low))) : 1.0;
    const double upper = high > 0 ? std::pow(10.0, std::ceil(std::log10(high * 1.5))) : 1000.0;
    m_nsRect->axis(QCPAxis::atLeft)->setRange(lower, std::max(upper, lower * 10));
    for (QCPBars* bars : m_hitBars) {
        bars->setBaseValue(lower);
    }
    for (QCPBars* bars : m_getHitsBars) {
        bars->setBaseValue(lower);
    }
    m_costsMeasured = !costs.policies.empty();
    fitCostTitle();
}

bool PolicyComparison::fitCostTitle() {
    const QStringList titles =
        m_costsMeasured ? QStringList{tr("ns per hit ▮ · per getHits ▨"),
                                      tr("ns: hit ▮ · getHits ▨"), tr("▮ hit ▨ getHits")}
                        : QStringList{tr("cost per operation: not measured yet"),
                                      tr("costs: not measured yet"), tr("not measured yet")};
    QCPAxis* top = m_nsRect->axis(QCPAxis::atTop);
    const QFontMetrics metrics(top->labelFont());
    // Centred over the axis, which the tick labels push right of the rect's middle.
    const QRect outer = m_nsRect->outerRect();
    const int centre = m_nsRect->rect().center().x();
    const int width = 2 * std::min(centre - outer.left(), outer.right() - centre);
    QString title = titles.back();
    for (const QString& candidate : titles) {
        if (metrics.horizontalAdvance(candidate) <= width) {
            title = candidate;
            break;
        }
    }
    if (top->label() == title) {
        return false;
    }
    top->setLabel(title);
    return true;
}

void PolicyComparison::showFrame(const FrameContext& context) {
    updateFrom(context.update, context.frame.snapshot, context.frame.costs);
}

void PolicyComparison::followTimeAxis(TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    setTimeAxisMode(mode, wrap);
}

}  // namespace hitcounter::ui
