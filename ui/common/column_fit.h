// Tables that hide their least important columns when narrow, rather than cut a number or a
// name (issue 15 item 2), and show them again when there is room.
//
// GUI thread only. Widths are measured from the texts (a hidden section's size hint is 0).
// With a text padding, every cell is that many pixels wider on each side of its text than the
// style's margins make it (ResizeToContents columns included), so that the texts of
// neighbouring columns never touch (a right-aligned "0.00" ran into "16.5 kB" at 1280 px).
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
    // How need() follows texts that change: Widths::Now measures the texts shown now;
    // Widths::NeverShrink keeps the most each column has needed since construction or
    // forgetWidths(), so that figures refreshed every second (a cost going from "162" to
    // "4,167" and back) neither hide and show a column nor shift the others by a few pixels.
    enum class Widths { Now, NeverShrink };

    // Reads the header's size hints (with any sort indicator) while every column is shown.
    // `textPadding` > 0 installs a delegate on `table` that widens its cells' size hints by
    // twice that (the table owns it).
    explicit ColumnFit(QTableWidget& table, int textPadding = 0, Widths widths = Widths::Now);

    // Pixels column `c` needs: its header and its widest cell (with Widths::NeverShrink, the
    // most it has needed).
    int need(int column) const;
    // Widths::NeverShrink: measure from the texts shown now again (the rows were replaced, the
    // table's width changed).
    void forgetWidths();
    // Pixels the columns share: the table less its frame and its vertical scroll bar (always
    // counted, so that the bar coming and going does not toggle columns, unless its policy is
    // Qt::ScrollBarAlwaysOff); unbounded while the
    // table is not visible (it has no size yet).
    int room() const;
    // With `reserved` pixels taken by the columns that always show, shows the columns of
    // `giveWay` that fit, hiding them in that order (the first gives way first) until the rest
    // fit room(). Returns the hidden columns' header texts, in column order.
    QStringList apply(int reserved, std::initializer_list<int> giveWay);
    // Sizes every shown column to need() plus an equal share of what room() leaves (the first
    // columns take the odd pixels), so that no one column takes all the spare width; columns
    // that do not fit keep need(). For tables whose sections are QHeaderView::Fixed.
    void spread();

private:
    QTableWidget& m_table;
    int m_textPadding;
    Widths m_widths;
    std::vector<int> m_headerNeed;
    mutable std::vector<int> m_mostNeeded;  // Widths::NeverShrink: per column, 0 = not yet
};

}  // namespace hitcounter::ui
