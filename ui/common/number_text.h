// Numbers and names as table cells and status texts show them: never elided.
//
// GUI thread only (plain functions). A count below one million is shown exactly with the
// locale's separators ("987,654"); from one million up in compact units with three
// significant digits ("4.93 G", "49.3 M", "493 M") so that a column sized to its content stays
// narrow; the exact value goes to the tooltip. Key names are elided in the middle by the
// table (Qt::ElideMiddle) with the full name in the tooltip.
//
// Example: compactCount(4'930'123'456) == "4.93 G";  compactCount(987'654) == "987,654"
//          humanNumber(1e6) == "1,000,000";  humanNumber(2.5) == "2.5"
#pragma once

#include <QString>
#include <cstdint>

class QAbstractItemView;
class QHeaderView;
class QTableWidget;
class QTableWidgetItem;

namespace hitcounter::ui {

// The count as a cell shows it (see above).
QString compactCount(std::uint64_t count);
// The exact count with the locale's separators.
QString exactCount(std::uint64_t count);
// `one` for a count of 1, else `many`: "1 hit", "2 hits" (the app has no translations).
QString noun(std::uint64_t count, const QString& one, const QString& many);
// A rate or any double as people write it: no exponent, at most `decimals` decimals without
// trailing zeros, separators; from 10^6 up compact ("2.50 M").
QString humanNumber(double value, int decimals = 1);

// Sets `item` to the compact count, with the exact value in its tooltip when they differ.
void setCountCell(QTableWidgetItem& item, std::uint64_t count);
// Sets `item` to `text` (a name), with the full name in its tooltip.
void setNameCell(QTableWidgetItem& item, const QString& text);

// Name columns stretch and elide in the middle; every other column sizes to its content, so a
// number is never cut. `nameColumn` < 0: none.
void fitColumns(QTableWidget& table, int nameColumn);

// True when the text of `table`'s cell at (row, column) fits its column (nothing elided).
bool cellTextFits(const QTableWidget& table, int row, int column);

}  // namespace hitcounter::ui
