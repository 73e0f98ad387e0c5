#include "ui/common/column_fit.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <algorithm>
#include <limits>

namespace hitcounter::ui {

namespace {
// Cells `padding` px wider on each side than their text and the style's margins.
class PaddedDelegate : public QStyledItemDelegate {
public:
    PaddedDelegate(int padding, QObject* parent)
        : QStyledItemDelegate(parent), m_padding(padding) {}
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        return QStyledItemDelegate::sizeHint(option, index) + QSize(2 * m_padding, 0);
    }

private:
    int m_padding;
};
}  // namespace

ColumnFit::ColumnFit(QTableWidget& table, int textPadding, Widths widths)
    : m_table(table), m_textPadding(textPadding), m_widths(widths) {
    if (textPadding > 0) {
        table.setItemDelegate(new PaddedDelegate(textPadding, &table));
    }
    for (int c = 0; c < table.columnCount(); ++c) {
        m_headerNeed.push_back(table.horizontalHeader()->sectionSizeHint(c));
    }
    m_mostNeeded.assign(m_headerNeed.size(), 0);
}

void ColumnFit::forgetWidths() {
    std::fill(m_mostNeeded.begin(), m_mostNeeded.end(), 0);
}

int ColumnFit::need(int column) const {
    // The item view's text margins: a frame margin on each side (QCommonStyle), plus one, and
    // two pixels of grid.
    const int margin =
        2 * (m_table.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &m_table) + 1) +
        2 + 2 * m_textPadding;
    int most = m_headerNeed[std::size_t(column)];
    for (int row = 0; row < m_table.rowCount(); ++row) {
        if (const QTableWidgetItem* item = m_table.item(row, column)) {
            const QVariant font = item->data(Qt::FontRole);  // bold names are wider
            const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : m_table.font());
            most = std::max(most, metrics.horizontalAdvance(item->text()) + margin);
        }
    }
    if (m_widths == Widths::NeverShrink) {
        int& kept = m_mostNeeded[std::size_t(column)];
        kept = std::max(kept, most);
        return kept;
    }
    return most;
}

int ColumnFit::room() const {
    if (!m_table.isVisible()) {
        return std::numeric_limits<int>::max();
    }
    const bool barCanShow = m_table.verticalScrollBarPolicy() != Qt::ScrollBarAlwaysOff;
    return m_table.width() - 2 * m_table.frameWidth() -
           (barCanShow ? m_table.verticalScrollBar()->sizeHint().width() : 0);
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

void ColumnFit::spread() {
    std::vector<int> shown;
    int used = 0;
    for (int c = 0; c < m_table.columnCount(); ++c) {
        if (!m_table.isColumnHidden(c)) {
            shown.push_back(c);
            used += need(c);
        }
    }
    if (shown.empty()) {
        return;
    }
    // Unbounded room (not shown yet): no share.
    const int available = m_table.isVisible() ? room() : used;
    const int spare = std::max(0, available - used);
    const int count = int(shown.size());
    for (int i = 0; i < count; ++i) {
        const int width = need(shown[std::size_t(i)]) + spare / count + (i < spare % count ? 1 : 0);
        if (m_table.columnWidth(shown[std::size_t(i)]) != width) {
            m_table.setColumnWidth(shown[std::size_t(i)], width);
        }
    }
}

}  // namespace hitcounter::ui
