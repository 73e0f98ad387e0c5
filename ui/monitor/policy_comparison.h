// PolicyComparison: every counting policy fed the same stream, side by side: window counts
// over time, error against the exact count (%), memory held (log axis) and what one operation
// costs (ns per hit and ns per getHits, two bars per policy with the spread as whiskers, log
// axis), in one QCustomPlot of four axis rects, with the table of current values beside it
// (policy_table.h).
// The costs are the CostMeter's (core/engine/cost_meter.h), measured on the counting thread's
// side; the header and bar tooltips say how. The table is the legend: each policy's name in
// its colour; a click on it hides or shows the policy's lines and bars (hidden: greyed and
// struck through, as a legend entry in series_legend.h). Tick labels are fitted to the charts'
// width after each layout: fewer time ticks, policy names on two lines or slanted, so none
// overlap or go missing at 1024 px. A bar's tooltip gives its policy and figures.
//
// GUI thread only; updated once per frame. The time range follows the live plot's
// (setTimeRange). Policies are matched by position with EngineSnapshot::policies.
#pragma once

#include <QColor>
#include <QSet>
#include <QSharedPointer>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/engine/engine_snapshot.h"
#include "core/engine/policy_costs.h"
#include "ui/common/frame_view.h"
#include "ui/common/history_update.h"

class QCustomPlot;
class QCPAxisRect;
class QCPAxisTickerText;
class QCPBars;
class QCPErrorBars;
class QCPGraph;
class QCPRange;
class QTableWidget;

namespace hitcounter::ui {

class PolicyTable;

struct Theme;

class PolicyComparison : public QWidget, public FrameView {
    Q_OBJECT
public:
    explicit PolicyComparison(QWidget* parent = nullptr);
    ~PolicyComparison() override;

    // Every time axis of the view (time_axis.h); `wrap`: a looping replay's trace.
    void setTimeAxisMode(TimeAxisMode mode, std::optional<TraceWrap> wrap = std::nullopt);
    void applyTheme(const Theme& theme) override;
    // FrameView (frame_view.h).
    void showFrame(const FrameContext& context) override;
    void followTimeAxis(TimeAxisMode mode, std::optional<TraceWrap> wrap) override;
    QList<QCustomPlot*> plots() override { return {m_plot}; }
    void updateFrom(const HistoryUpdate& update, const EngineSnapshot& snapshot,
                    const PolicyCosts& costs);
    void setTimeRange(const QCPRange& range);

    QCustomPlot* plot() const { return m_plot; }
    QTableWidget* table() const;
    // Graph of policy `index`'s window count over time (nullptr before the first update).
    QCPGraph* countGraph(int index) const;
    // Whether policy `name` is drawn in the charts (a click on its name in the table toggles).
    bool policyShown(const QString& name) const;
    void setPolicyShown(const QString& name, bool shown);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitLabels();
    // The cost chart's title, the longest that fits its width ("ns per hit ▮ · per getHits ▨",
    // shorter at 1024 px); true if it changed.
    bool fitCostTitle();
    void applyVisibility();
    void rebuildSeries(const EngineSnapshot& snapshot);
    // The cost bars, their whiskers, the log axis and the bars' tooltips.
    void updateCosts(const PolicyCosts& costs);

    QCustomPlot* m_plot;
    PolicyTable* m_side;  // the table of current values, the note under it
    QCPAxisRect* m_countRect;
    QCPAxisRect* m_errorRect;
    QCPAxisRect* m_memoryRect;
    QCPAxisRect* m_nsRect;
    // Per policy, in its colour: ns per hit (solid, left of its tick) and per getHits (hatched,
    // right), each with its spread.
    std::vector<QCPBars*> m_hitBars;
    std::vector<QCPBars*> m_getHitsBars;
    std::vector<QCPErrorBars*> m_spreads;  // two per policy, beside its bars
    std::vector<QCPGraph*> m_counts;
    std::vector<QCPGraph*> m_errors;
    std::vector<QCPGraph*> m_memory;
    std::vector<std::string> m_names;
    std::vector<bool> m_stopped;       // per policy: stopped at the memory cap
    std::vector<QString> m_nsText;     // per policy: the tooltip over its bar
    QSet<QString> m_hidden;            // policies hidden from the table, kept across rebuilds
    bool m_costsMeasured = false;      // figures came: the cost title no longer says "not measured"
    QColor m_whiskerColor{Qt::black};  // the theme's text colour
    QSharedPointer<QCPAxisTickerText> m_nsTicker;
};

}  // namespace hitcounter::ui
