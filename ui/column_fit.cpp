#include "ui/column_fit.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <QTableWidget>
#include <algorithm>
#include <limits>

namespace hitcounter::ui {

ColumnFit::ColumnFit(QTableWidget& table) : m_table(table) {
    for (int c = 0; c < table.columnCount(); ++c) {
        m_headerNeed.push_back(table.horizontalHeader()->sectionSizeHint(c));
    }
}

int ColumnFit::need(int column) const {
    // The item view's text margins: a frame margin on each side (QCommonStyle), plus one, and
    // two pixels of grid.
    const int margin =
        2 * (m_table.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &m_table) + 1) + 2;
    int most = m_headerNeed[std::size_t(column)];
    for (int row = 0; row < m_table.rowCount(); ++row) {
        if (const QTableWidgetItem* item = m_table.item(row, column)) {
            const QVariant font = item->data(Qt::FontRole);  // bold names are wider
            const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : m_table.font());
            most = std::max(most, metrics.horizontalAdvance(item->text()) + margin);
        }
    }
    return most;
}

int ColumnFit::room() const {
    if (!m_table.isVisible()) {
        return std::numeric_limits<int>::max();
    }
    return m_table.width() - 2 * m_table.frameWidth() -
           m_table.verticalScrollBar()->sizeHint().width();
}

QStringList ColumnFit::apply(int reserved, std::initializer_list<int> giveWay) {
    std::vector<bool> hide(std::size_t(m_table.columnCount()), false);
    int used = reserved;
    for (int c : giveWay) {
        used += need(c);
    }
    const int available = room();
    for (int c : giveWay) {
        if (used > available) {
            hide[std::size_t(c)] = true;
            used -= need(c);
        }
    }
    QStringList hidden;
    for (int c : giveWay) {
        if (m_table.isColumnHidden(c) != hide[std::size_t(c)]) {
            m_table.setColumnHidden(c, hide[std::size_t(c)]);
        }
    }
    for (int c = 0; c < m_table.columnCount(); ++c) {
        if (hide[std::size_t(c)]) {
            hidden << m_table.horizontalHeaderItem(c)->text();
        }
    }
    return hidden;
}

}  // namespace hitcounter::ui
