// Tables that hide their least important columns when narrow, rather than cut a number or a
// name (issue 15 item 2), and show them again when there is room.
//
// GUI thread only. Widths are measured from the texts (a hidden section's size hint is 0).
//
// Example (the policy table: the absolute error gives way first, then the error in %):
//     ColumnFit fit(table);  // after the header labels are set
//     ... each refresh or resize:
//     fit.apply(fit.need(ColPolicy) + fit.need(ColCount) + ..., {ColError, ColErrorPercent});
#pragma once

#include <QStringList>
#include <initializer_list>
#include <vector>

class QTableWidget;

namespace hitcounter::ui {

class ColumnFit {
public:
    // Reads the header's size hints (with any sort indicator) while every column is shown.
    explicit ColumnFit(QTableWidget& table);

    // Pixels column `c` needs: its header and its widest cell.
    int need(int column) const;
    // Pixels the columns share: the table less its frame and its vertical scroll bar (always
    // counted, so that the bar coming and going does not toggle columns); unbounded while the
    // table is not visible (it has no size yet).
    int room() const;
    // With `reserved` pixels taken by the columns that always show, shows the columns of
    // `giveWay` that fit, hiding them in that order (the first gives way first) until the rest
    // fit room(). Returns the hidden columns' header texts, in column order.
    QStringList apply(int reserved, std::initializer_list<int> giveWay);

private:
    QTableWidget& m_table;
    std::vector<int> m_headerNeed;
};

}  // namespace hitcounter::ui
