// Finding a table's column by its header, for the GUI tests.
#pragma once

#include <QTableWidget>

namespace hitcounter::testing {

// The column of `table` whose header reads `name`, on one line or wrapped onto several
// ("ns per\nhit" reads "ns per hit"); -1 if none.
inline int columnNamed(const QTableWidget& table, const QString& name) {
    for (int c = 0; c < table.columnCount(); ++c) {
        if (table.horizontalHeaderItem(c)->text().replace(QLatin1Char('\n'), QLatin1Char(' ')) ==
            name) {
            return c;
        }
    }
    return -1;
}

}  // namespace hitcounter::testing
