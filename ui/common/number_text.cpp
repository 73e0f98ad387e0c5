#include "ui/common/number_text.h"

#include <QHeaderView>
#include <QLocale>
#include <QTableWidget>
#include <array>
#include <cmath>

namespace hitcounter::ui {

namespace {
constexpr double kCompactFrom = 1e6;
}  // namespace

QString exactCount(std::uint64_t count) {
    return QLocale().toString(qulonglong(count));
}

QString noun(std::uint64_t count, const QString& one, const QString& many) {
    return count == 1 ? one : many;
}

QString compactCount(std::uint64_t count) {
    if (double(count) < kCompactFrom) {
        return exactCount(count);
    }
    static constexpr std::array<const char*, 5> kUnits = {"M", "G", "T", "P", "E"};
    double value = double(count) / 1e6;
    std::size_t unit = 0;
    while (value >= 999.5 && unit + 1 < kUnits.size()) {
        value /= 1000.0;
        ++unit;
    }
    const int decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
    return QStringLiteral("%1 %2").arg(QLocale().toString(value, 'f', decimals),
                                       QLatin1String(kUnits[unit]));
}

QString humanNumber(double value, int decimals) {
    if (!std::isfinite(value)) {
        return QStringLiteral("–");
    }
    if (std::abs(value) >= kCompactFrom) {
        return (value < 0 ? QStringLiteral("-") : QString()) +
               compactCount(std::uint64_t(std::llround(std::abs(value))));
    }
    QString text = QLocale().toString(value, 'f', decimals);
    const QChar point = QLocale().decimalPoint().front();
    if (text.contains(point)) {
        while (text.endsWith(QLatin1Char('0'))) {
            text.chop(1);
        }
        if (text.endsWith(point)) {
            text.chop(1);
        }
    }
    return text;
}

void setCountCell(QTableWidgetItem& item, std::uint64_t count) {
    const QString text = compactCount(count);
    if (item.text() != text) {
        item.setText(text);
    }
    const QString exact = exactCount(count);
    const QString tip = exact == text ? QString() : exact;
    if (item.toolTip() != tip) {
        item.setToolTip(tip);
    }
}

void setNameCell(QTableWidgetItem& item, const QString& text) {
    if (item.text() != text) {
        item.setText(text);
        item.setToolTip(text);
    }
}

void fitColumns(QTableWidget& table, int nameColumn) {
    table.setTextElideMode(Qt::ElideMiddle);
    QHeaderView* header = table.horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    if (nameColumn >= 0) {
        header->setSectionResizeMode(nameColumn, QHeaderView::Stretch);
    }
}

bool cellTextFits(const QTableWidget& table, int row, int column) {
    const QTableWidgetItem* item = table.item(row, column);
    if (item == nullptr) {
        return true;
    }
    QFont font = table.font();
    if (const QVariant f = item->data(Qt::FontRole); f.isValid()) {
        font = f.value<QFont>();
    }
    // The item view's text margins: a frame margin on each side (QCommonStyle), plus one.
    const int margin =
        2 * (table.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &table) + 1);
    return QFontMetrics(font).horizontalAdvance(item->text()) + margin <= table.columnWidth(column);
}

}  // namespace hitcounter::ui
