// PolicyTable: the policy comparison's table of current values (policy, count, error, error %,
// memory, ns per hit, ns per getHits) with the note under it. It is the comparison's legend:
// each policy's name in its colour; a click on a name asks to hide or show the policy
// (policyClicked), and a hidden one is greyed and struck through, as a legend entry in
// series_legend.h.
//
// Layout: every row shows whatever the window's height (the table is never shorter than its
// rows and never scrolls); rows grow up to kTallestRow where the pane is tall. Columns are sized
// to their content plus an equal share of the spare width; a narrow table (1024 px screens)
// hides the error, then the error % column, and the policy header's tooltip names them. The note
// under it is the whole note wrapped where there is room, else one line elided at the pane's
// edge; the whole note is always in its tooltip. Counts from a million up read in compact
// units, the exact figure in the cell's tooltip.
//
// GUI thread only; updated once per frame. Rows are matched by position with
// EngineSnapshot::policies.
#pragma once

#include <QString>
#include <QWidget>
#include <memory>
#include <string>
#include <vector>

#include "core/engine/engine_snapshot.h"
#include "core/engine/policy_costs.h"

class QLabel;
class QTableWidget;

namespace hitcounter::ui {

class ColumnFit;

class PolicyTable : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRowHeight = 22;
    static constexpr int kTallestRow = 30;

    explicit PolicyTable(QWidget* parent = nullptr);
    ~PolicyTable() override;

    // One row per policy, in this order; the figures come with showValues().
    void setPolicies(const std::vector<std::string>& names);
    // Policy `name`'s row greyed and struck through, or in its colour.
    void showHidden(const QString& name, bool hidden);
    void showValues(const EngineSnapshot& snapshot, const PolicyCosts& costs);
    // Before the note: "Window filling: ..." while the window fills, or nothing.
    void showNoteMark(const QString& mark);

    QTableWidget* table() const { return m_table; }

Q_SIGNALS:
    void policyClicked(const QString& name);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showCostMethod(const PolicyCosts& costs);
    void fitColumns();
    void fitNote();

    QTableWidget* m_table;
    std::unique_ptr<ColumnFit> m_columnFit;
    QLabel* m_note;
    QString m_noteText;   // the short note (one line), without the mark
    QString m_noteWhole;  // the whole note (as in its tooltip), plain text
    QString m_noteMark;   // "Window filling: ..." before the note, or empty
};

}  // namespace hitcounter::ui
