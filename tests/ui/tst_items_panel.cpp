// ItemsPanel: the table shows the column it is sorted by (with the header's sort indicator),
// and the highlighted row is always the plotted key (or none when that key is not listed).
#include <QApplication>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include "core/engine/engine_frame.h"
#include "tests/test_main.h"
#include "ui/monitor/items_panel.h"

using hitcounter::Count;
using hitcounter::EngineFrame;
using hitcounter::KeyRow;
using hitcounter::ui::ItemsPanel;

namespace {

// Keys sorted by window count, as the engine sends them; the 1 min level orders them otherwise.
EngineFrame frameWith(std::string selected) {
    EngineFrame frame;
    frame.snapshot.empty = false;
    frame.snapshot.head = 1000;
    frame.top = {KeyRow{"/a", 300, 5, 900, 10}, KeyRow{"/b", 200, 50, 800, 9},
                 KeyRow{"/c", 100, 20, 700, 8}};
    frame.selectedKey = std::move(selected);
    frame.keySeriesFrom = 990;
    frame.keySeries = {1, 2, 3};
    return frame;
}

int columnNamed(const QTableWidget& table, const QString& name) {
    for (int c = 0; c < table.columnCount(); ++c) {
        if (table.horizontalHeaderItem(c)->text() == name) {
            return c;
        }
    }
    return -1;
}

}  // namespace

class TestItemsPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theSortColumnIsShownAndMarked() {
        ItemsPanel panel;
        panel.setLevel(0);
        panel.refresh(frameWith("/a"));
        QTableWidget* table = panel.table();
        const int window = columnNamed(*table, QStringLiteral("window"));
        QVERIFY(window > 0);
        QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), window);
        QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QVERIFY(table->horizontalHeader()->isSortIndicatorShown());
        // The rows are in the order of the marked column (not of the 1 min column).
        for (int row = 1; row < table->rowCount(); ++row) {
            QVERIFY(table->item(row - 1, window)->text().remove(QLatin1Char(',')).toLongLong() >=
                    table->item(row, window)->text().remove(QLatin1Char(',')).toLongLong());
        }
        QCOMPARE(table->item(0, window)->text(), QStringLiteral("300"));
        // The 1 min column is shown beside it; a level equal to W (300 s) would only repeat it.
        QVERIFY(!table->isColumnHidden(columnNamed(*table, QStringLiteral("1 min"))));
        EngineFrame w300 = frameWith("/a");
        w300.snapshot.windowSeconds = 300;
        panel.setLevel(1);
        panel.refresh(w300);
        QVERIFY(table->isColumnHidden(columnNamed(*table, QStringLiteral("5 min"))));
    }

    void theHighlightedRowIsThePlottedKey() {
        ItemsPanel panel;
        panel.refresh(frameWith("/b"));
        QTableWidget* table = panel.table();
        QCOMPARE(table->selectedItems().value(0)->row(), 1);
        // The plotted key left the table: no row stays highlighted.
        panel.refresh(frameWith("/gone"));
        QVERIFY(table->selectedItems().isEmpty());
        // The plotted key moved to another row: the highlight follows it.
        EngineFrame moved = frameWith("/b");
        std::swap(moved.top[0], moved.top[1]);
        panel.refresh(moved);
        QCOMPARE(table->selectedItems().value(0)->row(), 0);
    }

    void aRowPickedWithTheKeyboardIsPlotted() {
        ItemsPanel panel;
        panel.show();
        panel.refresh(frameWith("/a"));
        QSignalSpy spy(&panel, &ItemsPanel::keyViewChanged);
        panel.table()->setFocus();
        QTest::keyClick(panel.table(), Qt::Key_Down);
        QVERIFY(!spy.isEmpty());
        QCOMPARE(spy.last().at(0).value<std::string>(), std::string("/b"));
        QCOMPARE(panel.selectedKey(), QStringLiteral("/b"));
        // A refresh (the engine's choice) does not count as a pick.
        spy.clear();
        panel.refresh(frameWith("/b"));
        QVERIFY(spy.isEmpty());
    }

    // A narrow table keeps room for the keys: all time, then uniques give way (the key
    // header's tooltip names them) and come back when the table is wide again.
    void aNarrowTableHidesTheLeastImportantColumns() {
        ItemsPanel panel;
        panel.resize(900, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        EngineFrame frame = frameWith("/a");
        frame.top[0].key = "/products/category-0/item/detail";
        frame.top[0].allTime = 987'654;
        panel.refresh(frame);
        QTableWidget* table = panel.table();
        const int allTime = columnNamed(*table, QStringLiteral("all time"));
        const int uniques = columnNamed(*table, QStringLiteral("uniques"));
        QVERIFY(!table->isColumnHidden(allTime) && !table->isColumnHidden(uniques));
        const QString tipWide = table->horizontalHeaderItem(0)->toolTip();
        QVERIFY2(!tipWide.contains(QStringLiteral("Hidden")), qPrintable(tipWide));

        panel.resize(panel.minimumSizeHint().width(), 300);
        QApplication::processEvents();
        panel.refresh(frame);
        QVERIFY2(table->columnWidth(0) >= panel.keyColumnMinimum(),
                 qPrintable(QString::number(table->columnWidth(0))));
        QVERIFY(table->isColumnHidden(allTime));
        const QString tipNarrow = table->horizontalHeaderItem(0)->toolTip();
        QVERIFY2(tipNarrow.contains(QStringLiteral("all time")), qPrintable(tipNarrow));
        // The window column stays: it is the table's order.
        QVERIFY(!table->isColumnHidden(columnNamed(*table, QStringLiteral("window"))));

        panel.resize(900, 300);
        QApplication::processEvents();
        QVERIFY(!table->isColumnHidden(allTime) && !table->isColumnHidden(uniques));
    }
};

HITCOUNTER_TEST_MAIN(TestItemsPanel)
#include "tst_items_panel.moc"
