// Issue 15, "what users of comparable tools expect", in real widgets (offscreen): the
// crosshair readout, legend clicks, several keys and the key filter, CSV / PNG / PDF export,
// dropped files and recent files, log-y / box zoom / range presets and threshold alerts.
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSystemTrayIcon>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>

#include "core/time/manual_clock.h"
#include "tests/test_main.h"
#include "tests/ui/gui_test_steps.h"
#include "tests/ui/known_inputs.h"
#include "ui/limits/limits_view.h"
#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/monitor/plot_tools.h"
#include "ui/monitor/policy_comparison.h"
#include "ui/monitor/threshold_alerts.h"
#include "ui/plot/data_export.h"
#include "ui/plot/display_zone.h"
#include "ui/plot/plot_crosshair.h"
#include "ui/sources/recent_files.h"
#include "ui/sources/source_session.h"
#include "ui/sources/source_spec.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"

using namespace hitcounter;
using namespace hitcounter::ui;
using hitcounter::testing::framesUntil;
using hitcounter::testing::pushKnownStream;
using hitcounter::testing::writeOneHitTrace;

namespace {

bool knownStreamDrawn(MainWindow& w) {
    return framesUntil(w, [&] {
        return w.views().snapshot().head == 1009 && w.views().snapshot().windowCount == 55;
    });
}

// `w` shown at 1280x720 with the known stream counted and drawn.
bool showKnownStream(MainWindow& w) {
    w.resize(1280, 720);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w)) {
        return false;
    }
    pushKnownStream(w.queue());
    if (!knownStreamDrawn(w)) {
        return false;
    }
    w.renderNow();
    return true;
}

// Seconds 1000..1009: s - 999 hits of 2xx and 2 of 4xx each; no 3xx, 5xx or other.
void pushStatusStream(BatchQueue& queue) {
    for (Timestamp s = 1000; s < 1010; ++s) {
        HitBatch batch;
        batch.push_back(HitEvent{s, "page", "v", Count(s - 999), 2});
        batch.push_back(HitEvent{s, "missing", "v", 2, 4});
        QVERIFY(queue.tryPush(std::move(batch)));
    }
}

// "UTC", "UTC+01:00", "UTC-07:00": the offset of `t` as the screen names it.
QString offsetName(const QDateTime& t) {
    const int offset = t.offsetFromUtc();
    if (offset == 0) {
        return QStringLiteral("UTC");
    }
    const QTime hhmm = QTime(0, 0).addSecs(std::abs(offset));
    return QStringLiteral("UTC") + (offset < 0 ? u'-' : u'+') +
           hhmm.toString(QStringLiteral("hh:mm"));
}

QStringList legendNames(QCustomPlot& plot) {
    QStringList names;
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.legend->item(i))) {
            names << item->plottable()->name();
        }
    }
    return names;
}

void sendMouse(QWidget* to, QEvent::Type type, QPointF pos, Qt::MouseButton button,
               Qt::MouseButtons buttons, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QMouseEvent event(type, pos, to->mapToGlobal(pos), button, buttons, modifiers);
    QCoreApplication::sendEvent(to, &event);
}

// The pixel of time `t` in `rect`, halfway up.
QPointF pixelAt(QCPAxisRect* rect, double t) {
    return QPointF(rect->axis(QCPAxis::atBottom)->coordToPixel(t), rect->center().y());
}

QRectF legendItemRect(QCustomPlot& plot, QCPAbstractPlottable* series) {
    for (int i = 0; i < plot.legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.legend->item(i));
        if (item && item->plottable() == series) {
            return item->outerRect();
        }
    }
    return {};
}

}  // namespace

class TestPlotTools : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_plot_tools"));
    }

    // ---- crosshair ----

    void theCrosshairReadsTheValuesUnderTheMouse() {
        MainWindow w(std::make_shared<ManualClock>());
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.thresholdAlerts()->setThreshold(15);  // its marks are no series to read out
        pushKnownStream(w.queue());
        QVERIFY(knownStreamDrawn(w));
        w.renderNow();
        LivePlot* live = w.livePlot();
        PlotCrosshair* crosshair = PlotCrosshair::of(*live);
        QVERIFY(crosshair);
        sendMouse(live, QEvent::MouseMove, pixelAt(live->axisRect(), 1005.2), Qt::NoButton,
                  Qt::NoButton);
        const QStringList lines = crosshair->readout().split(QLatin1Char('\n'));
        // The time in the zone shown (local by default), named (issue 23 item 5).
        QCOMPARE(lines.value(0), QDateTime::fromSecsSinceEpoch(1005).toString(
                                     QStringLiteral("yyyy-MM-dd hh:mm:ss ")) +
                                     offsetName(QDateTime::fromSecsSinceEpoch(1005)));
        QVERIFY2(lines.contains(QStringLiteral("hits per second: 6")), qPrintable(lines.join('|')));
        QVERIFY2(lines.contains(QStringLiteral("hits in window: 21")), qPrintable(lines.join('|')));
        QCOMPARE(lines.size(), 3);  // time, hits per second, hits in window: no marker series
        // The line stands at that second, from the rect's top to its bottom.
        auto* line = live->findChild<QCPItemStraightLine*>(QStringLiteral("crosshairLine"));
        QVERIFY(line);
        live->replot();
        QCOMPARE(line->point1->pixelPosition().x(), live->xAxis->coordToPixel(1005));
        QCOMPARE(line->point2->pixelPosition().x(), line->point1->pixelPosition().x());
        QVERIFY(std::abs(line->point2->pixelPosition().y() - line->point1->pixelPosition().y()) >=
                live->axisRect()->height() - 1);
        // Another second, another readout.
        sendMouse(live, QEvent::MouseMove, pixelAt(live->axisRect(), 1009), Qt::NoButton,
                  Qt::NoButton);
        QVERIFY(crosshair->readout().contains(QStringLiteral("hits in window: 55")));
        QEvent leave(QEvent::Leave);
        QCoreApplication::sendEvent(live, &leave);
        QVERIFY(crosshair->readout().isEmpty());

        // Per policy: the comparison's window-count panel reads every policy at that second.
        QCustomPlot* comparison = w.comparison()->plot();
        PlotCrosshair* perPolicy = PlotCrosshair::of(*comparison);
        QVERIFY(perPolicy);
        QStringList readouts;
        for (QCPAxisRect* rect : comparison->axisRects()) {
            sendMouse(comparison, QEvent::MouseMove, pixelAt(rect, 1005), Qt::NoButton,
                      Qt::NoButton);
            readouts << perPolicy->readout();
        }
        const QString all = readouts.join(QStringLiteral("||"));
        QVERIFY2(all.contains(QStringLiteral("ring: 21")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("deque: 21")), qPrintable(all));
    }

    // ---- legend, keys ----

    void aLegendClickHidesAndShowsItsSeries() {
        MainWindow w(std::make_shared<ManualClock>());
        QVERIFY(showKnownStream(w));
        LivePlot* live = w.livePlot();
        const QRectF entry = legendItemRect(*live, live->windowGraph());
        QVERIFY(!entry.isEmpty());
        QTest::mouseClick(live, Qt::LeftButton, Qt::NoModifier, entry.center().toPoint());
        QVERIFY(!live->windowGraph()->visible());
        live->replot();
        QCPAbstractLegendItem* item = nullptr;
        for (int i = 0; i < live->legend->itemCount(); ++i) {
            auto* legendItem = qobject_cast<QCPPlottableLegendItem*>(live->legend->item(i));
            if (legendItem && legendItem->plottable() == live->windowGraph()) {
                item = legendItem;
            }
        }
        QVERIFY(item);
        QVERIFY(item->font().strikeOut());  // the entry stays, struck through
        // Hidden series are not exported and not read out.
        QVERIFY(!visibleDataCsv(*live).contains("hits in window"));
        live->replot();
        QTest::mouseClick(live, Qt::LeftButton, Qt::NoModifier, entry.center().toPoint());
        QVERIFY(live->windowGraph()->visible());
        QVERIFY(visibleDataCsv(*live).contains("hits in window"));
        QVERIFY(live->following());  // a click on the legend is no pan
    }

    // Issue 23 item 2: a user moves the mouse onto the entry first, which puts the crosshair's
    // line right under it; at 5 minutes and wider the line took the click and nothing toggled.
    void aLegendClickTogglesItsSeriesAtEveryRange_data() {
        QTest::addColumn<int>("span");
        for (int span : {60, 300, 900, 3600}) {
            QTest::addRow("%d s", span) << span;
        }
    }
    void aLegendClickTogglesItsSeriesAtEveryRange() {
        QFETCH(int, span);
        MainWindow w(std::make_shared<ManualClock>());
        QVERIFY(showKnownStream(w));
        LivePlot* live = w.livePlot();
        w.plotToolBar()->presetAction(span)->trigger();
        w.renderNow();
        for (QCPGraph* series : {live->windowGraph(), live->hitsGraph()}) {
            const QPoint entry = legendItemRect(*live, series).center().toPoint();
            QVERIFY(!entry.isNull());
            for (bool shown : {false, true}) {
                sendMouse(live, QEvent::MouseMove, entry, Qt::NoButton, Qt::NoButton);
                QVERIFY(!PlotCrosshair::of(*live)->readout().isEmpty());  // the line is there
                live->replot();
                QTest::mouseClick(live, Qt::LeftButton, Qt::NoModifier, entry);
                QVERIFY2(series->visible() == shown,
                         qPrintable(QStringLiteral("%1 at %2 s").arg(series->name()).arg(span)));
                live->replot();
            }
        }
        QVERIFY(live->following());
    }

    // Issue 23 item 1: stacked is a way of drawing; the readout and the CSV give each class's
    // own hits and the total, and a class without hits is neither drawn nor in the legend.
    void aStatusSplitReadsEachClassAndTheTotal_data() {
        QTest::addColumn<int>("split");
        QTest::newRow("stacked") << int(StatusSplit::Stacked);
        QTest::newRow("lines") << int(StatusSplit::Lines);
    }
    void aStatusSplitReadsEachClassAndTheTotal() {
        QFETCH(int, split);
        MainWindow w(std::make_shared<ManualClock>());
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setTimeZone(ZoneChoice::Utc);
        pushStatusStream(w.queue());
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().windowCount == 75; }));
        LivePlot* live = w.livePlot();
        live->setStatusSplit(StatusSplit(split));
        w.renderNow();
        sendMouse(live, QEvent::MouseMove, pixelAt(live->axisRect(), 1005), Qt::NoButton,
                  Qt::NoButton);
        const QStringList lines = PlotCrosshair::of(*live)->readout().split(QLatin1Char('\n'));
        // second 1005: 6 of 2xx, 2 of 4xx, 8 in all; the window 21 + 12 = 33
        for (const char* want : {"2xx: 6", "4xx: 2", "total: 8", "hits in window: 33"}) {
            QVERIFY2(lines.contains(QLatin1String(want)), qPrintable(lines.join('|')));
        }
        for (const QString& line : lines) {
            QVERIFY2(!line.startsWith(QLatin1String("3xx")) &&
                         !line.startsWith(QLatin1String("5xx")) &&
                         !line.startsWith(QLatin1String("other")),
                     qPrintable(lines.join('|')));
        }
        const QStringList legend = legendNames(*live);
        QVERIFY2(legend.contains(QStringLiteral("2xx")) && legend.contains(QStringLiteral("4xx")),
                 qPrintable(legend.join('|')));
        for (const char* empty : {"3xx", "5xx", "other"}) {
            QVERIFY2(!legend.contains(QLatin1String(empty)), qPrintable(legend.join('|')));
        }
        // layers: 0 other, 1..4 = 2xx..5xx
        QVERIFY(live->statusGraph(1)->visible() && live->statusGraph(3)->visible());
        QVERIFY(!live->statusGraph(2)->visible() && !live->statusGraph(4)->visible() &&
                !live->statusGraph(0)->visible());
        // The CSV: the hits per second kept, each class's own hits.
        const QList<QByteArray> csv = visibleDataCsv(*live).trimmed().split('\n');
        QCOMPARE(csv.value(0),
                 QByteArray("time_iso8601,seconds,hits per second,2xx,4xx,hits in window"));
        QVERIFY2(csv.contains("1970-01-01T00:16:45Z,1005,8,6,2,33"), csv.join('|').constData());
        QVERIFY2(csv.contains("1970-01-01T00:16:49Z,1009,12,10,2,75"), csv.join('|').constData());
    }

    void severalKeysArePlottedAtOnce() {
        MainWindow w(std::make_shared<ManualClock>());
        pushKnownStream(w.queue(), "a");
        HitBatch b;
        for (int i = 0; i < 4; ++i) {
            b.push_back(HitEvent{1009, "b", "v", 1});
        }
        QVERIFY(w.queue().tryPush(std::move(b)));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().windowCount == 59; }));
        ItemsPanel* items = w.itemsPanel();
        items->selectKeys(QStringLiteral("a"), {QStringLiteral("b")});
        QVERIFY(framesUntil(w, [&] {
            return w.views().lastFrame()->selectedKey == "a" &&
                   w.views().lastFrame()->moreKeySeries.size() == 1;
        }));
        const EngineFrame& f = *w.views().lastFrame();
        QCOMPARE(f.moreKeySeries[0].key, std::string("b"));
        QCOMPARE(f.moreKeySeries[0].values.back(), Count{4});
        QCOMPARE(f.keySeries.back(), Count{55});
        // Both plotted, both rows highlighted, a legend names them.
        int visibleWithData = 0;
        for (int i = 0; i < items->plot()->graphCount(); ++i) {
            QCPGraph* g = items->plot()->graph(i);
            visibleWithData += g->visible() && !g->data()->isEmpty() ? 1 : 0;
        }
        QCOMPARE(visibleWithData, 2);
        QVERIFY(items->plot()->legend->visible());
        QCOMPARE(items->table()->selectionModel()->selectedRows().size(), 2);

        // Ctrl+click on a row adds it; a plain click goes back to one key.
        QTableWidget* table = items->table();
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        items->selectKey(QStringLiteral("a"));
        QVERIFY(framesUntil(w, [&] { return w.views().lastFrame()->moreKeySeries.empty(); }));
        const QRect rowB = table->visualItemRect(table->item(1, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier, rowB.center());
        QCOMPARE(items->selectedKey(), QStringLiteral("a"));
        QCOMPARE(items->moreKeys(), std::vector<std::string>{"b"});
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, rowB.center());
        QCOMPARE(items->selectedKey(), QStringLiteral("b"));
        QVERIFY(items->moreKeys().empty());
    }

    void theFilterBoxListsTheTopMatchingKeys() {
        MainWindow w(std::make_shared<ManualClock>());
        HitBatch batch;
        for (int k = 0; k < 12; ++k) {
            for (int i = 0; i < 10; ++i) {
                batch.push_back(HitEvent{1000, "/page/" + std::to_string(k), "v", 1});
            }
        }
        batch.push_back(HitEvent{1000, "/rare/API/x", "v", 1});
        QVERIFY(w.queue().tryPush(std::move(batch)));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().windowCount == 121; }));
        QTableWidget* table = w.itemsPanel()->table();
        const auto keysShown = [&] {
            QStringList keys;
            for (int r = 0; r < table->rowCount(); ++r) {
                if (!table->isRowHidden(r) && table->item(r, 0)) {
                    keys << table->item(r, 0)->text();
                }
            }
            return keys;
        };
        QVERIFY(!keysShown().contains(QStringLiteral("/rare/API/x")));  // not in the top 10
        w.itemsPanel()->filterBox()->setText(QStringLiteral("api"));
        QVERIFY(framesUntil(w, [&] { return keysShown() == QStringList{"/rare/API/x"}; }));
        w.itemsPanel()->filterBox()->setText(QStringLiteral("page/1"));
        QVERIFY(framesUntil(w, [&] {
            return keysShown() == QStringList{"/page/1", "/page/10", "/page/11"};
        }));
        w.itemsPanel()->filterBox()->clear();
        QVERIFY(framesUntil(w, [&] { return keysShown().size() == 10; }));
    }

    // ---- export ----

    void exportWritesTheVisibleDataAndImages() {
        QTemporaryDir dir;
        MainWindow w(std::make_shared<ManualClock>());
        w.setTimeZone(ZoneChoice::Utc);  // time_iso8601 is in the zone shown (issue 23 item 5)
        QVERIFY(showKnownStream(w));
        LivePlot* live = w.livePlot();
        QString error;
        const QString csvPath = dir.filePath(QStringLiteral("live.csv"));
        QVERIFY2(exportPlot(*live, ExportFormat::Csv, csvPath, {}, &error), qPrintable(error));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.value(0), QByteArray("time_iso8601,seconds,hits per second,hits in window"));
        QCOMPARE(lines.size(), 11);  // the header and seconds 1000..1009
        Count window = 0;
        for (int i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> cells = lines[i].split(',');
            QCOMPARE(cells.size(), 4);
            const qint64 second = 999 + i;
            window += Count(i);
            QCOMPARE(cells[0],
                     QDateTime::fromSecsSinceEpoch(second, Qt::UTC).toString(Qt::ISODate).toUtf8());
            QCOMPARE(cells[1].toLongLong(), second);
            QCOMPARE(cells[2].toLongLong(), qint64(i));
            QCOMPARE(cells[3].toULongLong(), qulonglong(window));
        }
        QCOMPARE(lines[6], QByteArray("1970-01-01T00:16:45Z,1005,6,21"));

        // Zoomed in: only the seconds shown.
        live->setFollowing(false);
        live->xAxis->setRange(1002.5, 1005.5);
        const QList<QByteArray> zoomed = visibleDataCsv(*live).trimmed().split('\n');
        QCOMPARE(zoomed.size(), 4);
        QVERIFY(zoomed[1].startsWith("1970-01-01T00:16:43Z,1003,"));

        const QString png = dir.filePath(QStringLiteral("live.png"));
        QVERIFY2(exportPlot(*live, ExportFormat::Png, png, QSize(640, 400), &error),
                 qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(640, 400));
        QVERIFY(exportPlot(*live, ExportFormat::Png, png, {}, &error));  // replaces it whole
        QCOMPARE(QImage(png).size(), live->size());
        const QString pdf = dir.filePath(QStringLiteral("live.pdf"));
        QVERIFY2(exportPlot(*live, ExportFormat::Pdf, pdf, QSize(800, 500), &error),
                 qPrintable(error));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        QVERIFY(pdfFile.size() > 1000);
        // A folder that does not exist: an error naming the file, nothing written.
        const QString bad = dir.filePath(QStringLiteral("missing/live.csv"));
        QVERIFY(!exportPlot(*live, ExportFormat::Csv, bad, {}, &error));
        QVERIFY(error.contains(bad));
        QVERIFY(!QFile::exists(bad));
    }

    void theExportDialogAsksBeforeReplacingAFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old contents");
        }
        LivePlot plot;
        plot.resize(700, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        // The export dialog, answered as a user would: PNG at 500 x 300.
        QTimer::singleShot(0, this, [&] {
            QWidget* modal = QApplication::activeModalWidget();
            QVERIFY(modal && modal->objectName() == QLatin1String("exportDialog"));
            const QString shots = qEnvironmentVariable("HITCOUNTER_SCREENSHOT_DIR");
            if (!shots.isEmpty()) {
                modal->grab().save(QDir(shots).filePath(QStringLiteral("export.png")));
            }
            auto* format = modal->findChild<QComboBox*>();
            format->setCurrentIndex(format->findData(int(ExportFormat::Png)));
            modal->findChildren<QRadioButton*>().last()->setChecked(true);  // a chosen size
            const auto spins = modal->findChildren<QSpinBox*>();
            spins.value(0)->setValue(500);
            spins.value(1)->setValue(300);
            modal->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        });
        const std::optional<ExportChoice> choice = askExportChoice(plot, &plot);
        QVERIFY(choice.has_value());
        QCOMPARE(choice->format, ExportFormat::Png);
        QCOMPARE(choice->size, QSize(500, 300));
        // The file exists: the question comes first; No writes nothing, Yes replaces it.
        const auto answer = [&](QMessageBox::StandardButton button, const QString& target) {
            auto asked = std::make_shared<int>(0);
            QTimer::singleShot(0, this, [asked, button] {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                    ++*asked;
                    box->button(button)->click();
                }
            });
            const bool written = exportAsking(plot, *choice, target, &plot);
            return std::make_pair(*asked, written);
        };
        QCOMPARE(answer(QMessageBox::No, path), std::make_pair(1, false));
        QFile kept(path);
        QVERIFY(kept.open(QIODevice::ReadOnly));
        QCOMPARE(kept.readAll(), QByteArray("old contents"));
        kept.close();
        QCOMPARE(answer(QMessageBox::Yes, path), std::make_pair(1, true));
        QCOMPARE(QImage(path).size(), QSize(500, 300));
        // A new file: no question.
        const QString fresh = dir.filePath(QStringLiteral("new.png"));
        QCOMPARE(answer(QMessageBox::No, fresh), std::make_pair(0, true));
        QVERIFY(!QImage(fresh).isNull());
    }

    // ---- files ----

    void aDroppedFileIsOpenedAndRemembered() {
        QTemporaryDir dir;
        const QString trace = writeOneHitTrace(dir, QStringLiteral("dropped.csv"), 1, 50);
        MainWindow w(std::make_shared<ManualClock>());
        w.recentFiles()->clear();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(trace)});
        QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(w.session()->seekable() != nullptr);
        // The manual clock stands still: the replay shows its first second.
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().totalHits > 0; }));
        QCOMPARE(w.recentFiles()->files().value(0), QFileInfo(trace).absoluteFilePath());
        // Text is not a file: refused.
        QMimeData text;
        text.setText(QStringLiteral("hello"));
        QDragEnterEvent refuse(QPoint(100, 100), Qt::CopyAction, &text, Qt::LeftButton,
                               Qt::NoModifier);
        refuse.setAccepted(false);
        QCoreApplication::sendEvent(&w, &refuse);
        QVERIFY(!refuse.isAccepted());
    }

    void recentFilesPersistAndForgetMissingOnes() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("settings.ini"));
        QStringList made;
        for (int i = 0; i < 12; ++i) {
            made << writeOneHitTrace(dir, QStringLiteral("t%1.csv").arg(i), 1, 2);
        }
        {
            RecentFiles recent(ini);
            for (const QString& f : made) {
                recent.add(f);
            }
            recent.add(made[5]);  // again: moves first, once
            QCOMPARE(recent.files().size(), RecentFiles::kMax);
            QCOMPARE(recent.files().first(), made[5]);
            QCOMPARE(recent.files().count(made[5]), 1);
        }
        RecentFiles again(ini);  // a new run reads the same list
        QCOMPARE(again.files().size(), RecentFiles::kMax);
        QCOMPARE(again.files().value(0), made[5]);
        QCOMPARE(again.files().value(1), made[11]);
        QVERIFY(!again.files().contains(made[0]));
        QVERIFY(QFile::remove(made[11]));
        QSignalSpy missing(&again, &RecentFiles::missing);
        QSignalSpy open(&again, &RecentFiles::openRequested);
        std::unique_ptr<QMenu> menu(again.menu());
        QCOMPARE(missing.size(), 1);
        QCOMPARE(missing.first().first().toStringList(), QStringList{made[11]});
        QCOMPARE(again.files().size(), RecentFiles::kMax - 1);
        QCOMPARE(RecentFiles(ini).files().size(), RecentFiles::kMax - 1);  // stored
        QList<QAction*> entries;
        for (QAction* a : menu->actions()) {
            if (!a->isSeparator() && a->toolTip().endsWith(QStringLiteral(".csv"))) {
                entries << a;
            }
        }
        QCOMPARE(entries.size(), RecentFiles::kMax - 1);
        entries.value(1)->trigger();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first().first().toString(), again.files().first());
    }

    // ---- y axis, box zoom, presets ----

    void logYBoxZoomAndPresets() {
        MainWindow w(std::make_shared<ManualClock>());
        QVERIFY(showKnownStream(w));
        LivePlot* live = w.livePlot();
        PlotToolBar* tools = w.plotToolBar();
        QVERIFY(tools);

        tools->logYAction()->trigger();
        QCOMPARE(live->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(live->yAxis2->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(live->yAxis->range().lower > 0);
        QVERIFY(live->yAxis2->range().upper >= 55);
        // Plain numbers at the powers of ten ("1", "100", "10,000", "1.00 M"), never 10^x.
        const QCPRange shown = live->yAxis->range();
        live->yAxis->setRange(1, 1e8);
        live->replot();
        for (QCPAxis* axis : {live->yAxis, live->yAxis2}) {
            QVERIFY(!axis->tickVectorLabels().isEmpty());
            for (const QString& label : axis->tickVectorLabels()) {
                QVERIFY2(!label.contains(QLatin1Char('e')) && !label.contains(QLatin1Char('^')),
                         qPrintable(label));
            }
        }
        QVERIFY2(live->yAxis->tickVectorLabels().contains(QStringLiteral("10,000")),
                 qPrintable(live->yAxis->tickVectorLabels().join(QLatin1Char(' '))));
        live->yAxis->setRange(shown);
        tools->logYAction()->trigger();
        QCOMPARE(live->yAxis->scaleType(), QCPAxis::stLinear);
        QCOMPARE(live->yAxis->range().lower, 0.0);

        tools->presetAction(900)->trigger();
        QVERIFY(live->following());
        QCOMPARE(live->followSpan(), 900.0);
        QCOMPARE(live->xAxis->range().upper, 1010.5);
        QCOMPARE(live->xAxis->range().size(), 901.0);
        QVERIFY(tools->presetAction(900)->isChecked());
        tools->presetAction(60)->trigger();
        QCOMPARE(live->xAxis->range().size(), 61.0);
        QVERIFY(!tools->presetAction(900)->isChecked());

        // Box zoom: a drag from 1002 to 1006 and from the top to the middle.
        tools->boxZoomAction()->trigger();
        QVERIFY(live->boxZoom());
        QCPAxisRect* rect = live->axisRect();
        const QPointF from(live->xAxis->coordToPixel(1002), rect->top() + 5);
        const QPointF to(live->xAxis->coordToPixel(1006), rect->center().y());
        sendMouse(live, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
        sendMouse(live, QEvent::MouseMove, (from + to) / 2, Qt::NoButton, Qt::LeftButton);
        sendMouse(live, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
        sendMouse(live, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
        QVERIFY(!live->following());
        QVERIFY2(std::abs(live->xAxis->range().lower - 1002) < 0.5 &&
                     std::abs(live->xAxis->range().upper - 1006) < 0.5,
                 qPrintable(QStringLiteral("%1..%2")
                                .arg(live->xAxis->range().lower)
                                .arg(live->xAxis->range().upper)));
        const QCPRange y = live->yAxis->range();
        QVERIFY(!tools->presetAction(60)->isChecked());
        // New frames keep the box's value range (no refit) until follow returns.
        HitBatch more{HitEvent{1010, "page", "v", 1}};
        QVERIFY(w.queue().tryPush(std::move(more)));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().head == 1010; }));
        QCOMPARE(live->yAxis->range().lower, y.lower);
        QCOMPARE(live->yAxis->range().upper, y.upper);
        live->setFollowing(true);
        QCOMPARE(live->yAxis->range().lower, 0.0);
    }

    // ---- threshold alerts ----

    void aThresholdCrossingIsMarkedAndListed() {
        MainWindow w(std::make_shared<ManualClock>());
        ThresholdAlerts* alerts = w.thresholdAlerts();
        QVERIFY(alerts);
        QVERIFY(!alerts->notify());  // off by default
        alerts->setNotify(true);     // only where a tray can show it (none offscreen)
        QCOMPARE(alerts->notify(), QSystemTrayIcon::isSystemTrayAvailable());
        alerts->setNotify(false);
        alerts->setThreshold(15);
        alerts->setWatchKeys(true);
        QVERIFY(alerts->line()->visible());
        QCOMPARE(alerts->line()->point1->coords().y(), 15.0);
        QCOMPARE(alerts->line()->point2->coords().y(), 15.0);
        QSignalSpy crossed(alerts, &ThresholdAlerts::crossed);
        pushKnownStream(w.queue());
        QVERIFY(knownStreamDrawn(w));  // a frame at 1009: the key is seen above
        // Hits at 1305 and 1310: the window leaves the known seconds behind and falls below.
        HitBatch late{HitEvent{1305, "page", "v", 1}};
        QVERIFY(w.queue().tryPush(std::move(late)));
        HitBatch later{HitEvent{1310, "page", "v", 1}};
        QVERIFY(w.queue().tryPush(std::move(later)));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().head == 1310; }));
        std::vector<ThresholdCrossing> total;
        std::vector<ThresholdCrossing> key;
        for (const ThresholdCrossing& c : alerts->crossings()) {
            (c.series == "total" ? total : key).push_back(c);
        }
        // The key is seen at the frames' heads: above at 1009, below (2 hits) at 1310.
        QCOMPARE(key.size(), std::size_t{2});
        QCOMPARE(key[0].series, std::string("key page"));
        QCOMPARE(key[0].direction, CrossingDirection::Up);
        QVERIFY(key[0].value >= 15);
        QCOMPARE(key[1].direction, CrossingDirection::Down);
        QCOMPARE(key[1].second, Timestamp{1310});
        QCOMPARE(key[1].value, Count{2});
        QCOMPARE(total.size(), std::size_t{2});
        QCOMPARE(total[0].direction, CrossingDirection::Up);
        QCOMPARE(total[0].second, Timestamp{1004});  // window counts 10 at 1003, 15 at 1004
        QCOMPARE(total[0].value, Count{15});
        QCOMPARE(total[1].direction, CrossingDirection::Down);
        // Exact: the history's window count at the crossing is below, the second before not.
        const auto& history = w.views().history();
        const auto at = [&](Timestamp s) {
            for (const SecondRecord& r : history) {
                if (r.second == s) {
                    return r.counts.at(0);
                }
            }
            return Count(~0ULL);
        };
        QCOMPARE(at(total[1].second), total[1].value);
        QVERIFY(total[1].value < 15);
        QVERIFY(at(total[1].second - 1) >= 15);
        // Marked on the plot and listed, newest first.
        QCOMPARE(alerts->upMarks()->data()->size(), 2);  // total and key
        QVERIFY(alerts->downMarks()->data()->size() >= 1);
        QCOMPARE(alerts->upMarks()->data()->begin()->key, 1004.0);
        QTableWidget* list = alerts->table();
        QCOMPARE(list->rowCount(), int(alerts->crossings().size()));
        QCOMPARE(list->item(0, 2)->text().startsWith(QStringLiteral("down")),
                 alerts->crossings().back().direction == CrossingDirection::Down);
        QCOMPARE(crossed.size(), int(alerts->crossings().size()));
        // Not in the CSV: markers are not series.
        QVERIFY(!visibleDataCsv(*w.livePlot()).contains("crossed"));
    }

    void theToolsSettingsAreKept() {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        {
            MainWindow w(std::make_shared<ManualClock>());
            w.thresholdAlerts()->setThreshold(1234);
            w.plotToolBar()->logYAction()->setChecked(true);
            w.saveSettings(settings);
        }
        MainWindow again(std::make_shared<ManualClock>());
        QCOMPARE(again.thresholdAlerts()->threshold(), Count{0});  // off until restored
        QVERIFY(!again.livePlot()->logY());
        again.restoreSettings(settings);
        QCOMPARE(again.thresholdAlerts()->threshold(), Count{1234});
        QVERIFY(again.livePlot()->logY());
        QVERIFY(again.thresholdAlerts()->line()->visible());
    }

    // ---- the screenshots in docs/ (only with HITCOUNTER_SCREENSHOT_DIR set) ----

    void screenshots_data() { hitcounter::testing::addScreenshotRows(); }

    void screenshots() {
        const QString dir = qEnvironmentVariable("HITCOUNTER_SCREENSHOT_DIR");
        if (dir.isEmpty()) {
            QSKIP("set HITCOUNTER_SCREENSHOT_DIR to write the docs' screenshots");
        }
        QFETCH(QSize, size);
        QFETCH(QString, theme);
        MainWindow w;  // the wall clock: the simulator warms up and runs
        w.setThemeName(theme);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.thresholdAlerts()->setThreshold(500000);
        w.thresholdAlerts()->setWatchKeys(false);
        w.findChild<QDockWidget*>(QStringLiteral("alertsDock"))->raise();
        QVERIFY(w.startSpec(SourceSpec{}));
        QVERIFY(framesUntil(
            w, [&] { return !w.session()->warmingUp() && w.views().snapshot().windowCount > 0; }));
        QVERIFY(framesUntil(w, [&] { return w.views().lastFrame()->top.size() >= 3; }));
        const auto& top = w.views().lastFrame()->top;
        w.itemsPanel()->selectKeys(
            QString::fromStdString(top[0].key),
            {QString::fromStdString(top[1].key), QString::fromStdString(top[2].key)});
        QVERIFY(framesUntil(w, [&] { return w.views().lastFrame()->moreKeySeries.size() == 2; }));
        w.plotToolBar()->presetAction(900)->trigger();  // the crossing in the warm-up shows
        w.renderNow();
        LivePlot* live = w.livePlot();
        const double t = live->xAxis->range().lower + live->xAxis->range().size() * 0.85;
        sendMouse(live, QEvent::MouseMove, pixelAt(live->axisRect(), t), Qt::NoButton,
                  Qt::NoButton);
        QCustomPlot* comparison = w.comparison()->plot();
        QCPAxisRect* first = comparison->axisRects().value(0);
        sendMouse(comparison, QEvent::MouseMove,
                  pixelAt(first, first->axis(QCPAxis::atBottom)->range().lower +
                                     first->axis(QCPAxis::atBottom)->range().size() * 0.85),
                  Qt::NoButton, Qt::NoButton);
        w.renderNow();
        QVERIFY(!PlotCrosshair::of(*live)->readout().isEmpty());
        const QString file = QDir(dir).filePath(QStringLiteral("plot-tools-%1x%2-%3.png")
                                                    .arg(size.width())
                                                    .arg(size.height())
                                                    .arg(theme));
        QVERIFY(w.grab().save(file, "PNG"));
        QCOMPARE(QImage(file).size(), size);

        // The Rate limits tab's plots have the crosshair too.
        w.showLimitsView();
        QVERIFY(framesUntil(w, [&] { return !w.views().lastFrame()->limits.empty; }));
        QTest::qWait(1500);
        w.renderNow();
        QCustomPlot* limits = w.limitsView()->plot();
        QCPAxisRect* rect = limits->axisRects().value(0);
        sendMouse(limits, QEvent::MouseMove,
                  pixelAt(rect, rect->axis(QCPAxis::atBottom)->range().lower +
                                    rect->axis(QCPAxis::atBottom)->range().size() * 0.6),
                  Qt::NoButton, Qt::NoButton);
        w.renderNow();
        QVERIFY(!PlotCrosshair::of(*limits)->readout().isEmpty());
        const QString limitsFile =
            QDir(dir).filePath(QStringLiteral("limits-crosshair-%1x%2-%3.png")
                                   .arg(size.width())
                                   .arg(size.height())
                                   .arg(theme));
        QVERIFY(w.grab().save(limitsFile, "PNG"));
    }
};

HITCOUNTER_TEST_MAIN(TestPlotTools)
#include "tst_plot_tools.moc"
