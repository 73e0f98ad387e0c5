// PolicyComparison: every counting policy fed the same stream, side by side: window counts
// over time, error against the exact count (%), memory held (log axis) and ns per hit, in one
// QCustomPlot of four axis rects, with a table of the current values beside it.
//
// GUI thread only; updated once per frame. The time range follows the live plot's
// (setTimeRange). Policies are matched by position with EngineSnapshot::policies.
#pragma once

#include <QWidget>
#include <vector>

#include "core/engine/engine_snapshot.h"
#include "ui/history_update.h"

class QCustomPlot;
class QCPAxisRect;
class QCPBars;
class QCPGraph;
class QCPRange;
class QLabel;
class QTableWidget;

namespace hitcounter::ui {

struct Theme;

class PolicyComparison : public QWidget {
    Q_OBJECT
public:
    explicit PolicyComparison(QWidget* parent = nullptr);

    void setTimeAxisMode(TimeAxisMode mode);
    void applyTheme(const Theme& theme);
    void updateFrom(const HistoryUpdate& update, const EngineSnapshot& snapshot);
    void setTimeRange(const QCPRange& range);

    QCustomPlot* plot() const { return m_plot; }
    QTableWidget* table() const { return m_table; }
    // Graph of policy `index`'s window count over time (nullptr before the first update).
    QCPGraph* countGraph(int index) const;

private:
    void rebuildSeries(const EngineSnapshot& snapshot);
    void updateTable(const EngineSnapshot& snapshot);

    QCustomPlot* m_plot;
    QTableWidget* m_table;
    QString m_noteText;  // the note below the table, without the "window filling" mark
    QLabel* m_note;
    QCPAxisRect* m_countRect;
    QCPAxisRect* m_errorRect;
    QCPAxisRect* m_memoryRect;
    QCPAxisRect* m_nsRect;
    std::vector<QCPBars*> m_nsBars;  // one per policy, in its colour
    std::vector<QCPGraph*> m_counts;
    std::vector<QCPGraph*> m_errors;
    std::vector<QCPGraph*> m_memory;
    std::vector<std::string> m_names;
};

}  // namespace hitcounter::ui
