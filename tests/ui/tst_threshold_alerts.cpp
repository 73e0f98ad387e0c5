// ThresholdAlerts with watched keys (issue 15): a key followed second by second by the
// counting thread, whatever its rank, typed or picked in the Alerts dock, kept in the settings.
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "core/time/manual_clock.h"
#include "tests/test_main.h"
#include "tests/ui/gui_test_steps.h"
#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/monitor/threshold_alerts.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"

using namespace hitcounter;
using namespace hitcounter::ui;
using hitcounter::testing::framesUntil;

namespace {

// Seconds first..last: eleven busy keys with 20 hits each and one hit of "quiet", so that
// quiet ranks 12th and its window count (W = 300 s) at second s <= 1299 is s - 999.
bool pushBusyStream(BatchQueue& queue, Timestamp first, Timestamp last, bool quiet) {
    for (Timestamp s = first; s <= last; ++s) {
        HitBatch batch;
        for (int k = 0; k <= 10; ++k) {
            batch.push_back(HitEvent{s, "busy" + std::to_string(k), "v", 20});
        }
        if (quiet) {
            batch.push_back(HitEvent{s, "quiet", "v", 1});
        }
        if (!queue.tryPush(std::move(batch))) {
            return false;
        }
    }
    return true;
}

std::vector<ThresholdCrossing> crossingsOf(const ThresholdAlerts& alerts,
                                           const std::string& series) {
    std::vector<ThresholdCrossing> out;
    for (const ThresholdCrossing& c : alerts.crossings()) {
        if (c.series == series) {
            out.push_back(c);
        }
    }
    return out;
}

}  // namespace

class TestThresholdAlerts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_threshold_alerts"));
    }

    // The key is never in the top 10, and its crossings are found at their exact seconds, even
    // when one frame spans hundreds of seconds.
    void aWatchedKeyOutsideTheTopKeysCrossesAtItsSecond() {
        MainWindow w(std::make_shared<ManualClock>());
        ThresholdAlerts* alerts = w.thresholdAlerts();
        alerts->setThreshold(7);
        alerts->setWatchKeys(true);  // the top keys too: they do not hide the watched one
        // Typed in the Watch field and added with the button, as a user does.
        QTest::keyClicks(alerts->watchEdit(), QStringLiteral("quiet"));
        auto* watch = alerts->findChild<QPushButton*>(QStringLiteral("watchKeyButton"));
        QVERIFY(watch && watch->isEnabled());
        QSignalSpy changed(alerts, &ThresholdAlerts::watchedKeysChanged);
        watch->click();
        QCOMPARE(changed.size(), 1);
        QCOMPARE(alerts->watchedKeys(), std::vector<std::string>{"quiet"});
        QCOMPARE(alerts->watchList()->count(), 1);
        QCOMPARE(alerts->watchList()->item(0)->text(), QStringLiteral("quiet"));
        QVERIFY(alerts->watchEdit()->text().isEmpty());

        QVERIFY(pushBusyStream(w.queue(), 1000, 1019, true));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().head == 1019; }));
        QCOMPARE(w.views().lastFrame()->top.size(), std::size_t{10});
        for (const KeyRow& row : w.views().lastFrame()->top) {
            QVERIFY(row.key != "quiet");
        }
        std::vector<ThresholdCrossing> quiet = crossingsOf(*alerts, "key quiet");
        QCOMPARE(quiet.size(), std::size_t{1});
        QCOMPARE(quiet[0].direction, CrossingDirection::Up);
        QCOMPARE(quiet[0].second, Timestamp{1006});  // window counts 6 at 1005, 7 at 1006
        QCOMPARE(quiet[0].value, Count{7});
        QCOMPARE(quiet[0].threshold, Count{7});

        // One batch at 1320: the frame's head jumps 301 s, and the window (s - 300, s] drops
        // quiet below 7 at 1313 ((1013, 1313] holds 1014..1019), not at the head.
        QVERIFY(pushBusyStream(w.queue(), 1320, 1320, false));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().head == 1320; }));
        quiet = crossingsOf(*alerts, "key quiet");
        QCOMPARE(quiet.size(), std::size_t{2});
        QCOMPARE(quiet[1].direction, CrossingDirection::Down);
        QCOMPARE(quiet[1].second, Timestamp{1313});
        QCOMPARE(quiet[1].value, Count{6});
        // Listed (newest first) and marked on the live plot like the total's.
        QCOMPARE(alerts->table()->item(0, 1)->text(), QStringLiteral("key quiet"));
        const auto mark = alerts->downMarks()->data()->findBegin(1313.0, false);
        QVERIFY(mark != alerts->downMarks()->data()->constEnd());
        QCOMPARE(mark->key, 1313.0);
        QCOMPARE(mark->value, 6.0);

        // Unwatched: no further crossings of it.
        alerts->unwatchKey("quiet");
        QVERIFY(alerts->watchedKeys().empty());
        QVERIFY(pushBusyStream(w.queue(), 1321, 1330, true));
        QVERIFY(pushBusyStream(w.queue(), 1331, 1340, true));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().head == 1340; }));
        QCOMPARE(crossingsOf(*alerts, "key quiet").size(), std::size_t{2});
    }

    // A key picked in the items table is offered in the Watch field.
    void aKeyPickedInTheItemsTableIsOffered() {
        MainWindow w(std::make_shared<ManualClock>());
        QVERIFY(pushBusyStream(w.queue(), 1000, 1002, true));
        QVERIFY(framesUntil(w, [&] { return w.itemsPanel()->table()->rowCount() == 10; }));
        w.itemsPanel()->selectKey(QStringLiteral("busy3"));
        QCOMPARE(w.thresholdAlerts()->watchEdit()->text(), QStringLiteral("busy3"));
        QVERIFY(w.thresholdAlerts()->watchedKeys().empty());  // offered, not yet watched
    }

    void watchedKeysAreKeptInTheSettings() {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        {
            MainWindow w(std::make_shared<ManualClock>());
            w.thresholdAlerts()->setWatchedKeys({"a", "", "b", "a"});
            QCOMPARE(w.thresholdAlerts()->watchedKeys(), (std::vector<std::string>{"a", "b"}));
            w.saveSettings(settings);
        }
        MainWindow again(std::make_shared<ManualClock>());
        QVERIFY(again.thresholdAlerts()->watchedKeys().empty());
        again.restoreSettings(settings);
        QCOMPARE(again.thresholdAlerts()->watchedKeys(), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(again.thresholdAlerts()->watchList()->count(), 2);
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
        MainWindow w(std::make_shared<ManualClock>());
        w.setThemeName(theme);
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.findChild<QDockWidget*>(QStringLiteral("alertsDock"))->raise();
        ThresholdAlerts* alerts = w.thresholdAlerts();
        alerts->setThreshold(7);
        alerts->setWatchedKeys({"quiet", "busy9"});
        alerts->watchEdit()->setText(QStringLiteral("busy1"));
        QVERIFY(pushBusyStream(w.queue(), 1000, 1019, true));
        QVERIFY(pushBusyStream(w.queue(), 1320, 1320, false));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().head == 1320; }));
        w.renderNow();
        const QString file = QDir(dir).filePath(QStringLiteral("alerts-watched-key-%1x%2-%3.png")
                                                    .arg(size.width())
                                                    .arg(size.height())
                                                    .arg(theme));
        QVERIFY(w.grab().save(file, "PNG"));
        QCOMPARE(QImage(file).size(), size);
    }
};

HITCOUNTER_TEST_MAIN(TestThresholdAlerts)
#include "tst_threshold_alerts.moc"
