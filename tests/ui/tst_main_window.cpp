// MainWindow: every panel built, a known stream reaching the plots, settings round-trip,
// PNG export and snapshot, and a source that cannot start leaving a visible message.
#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>

#include "tests/test_main.h"
#include "tests/ui/known_inputs.h"
#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/monitor/policy_comparison.h"
#include "ui/monitor/ring_histogram.h"
#include "ui/plot/plot_export.h"
#include "ui/sources/source_session.h"
#include "ui/sources/source_spec.h"
#include "ui/window/main_window.h"
#include "ui/window/shortcut_list.h"
#include "ui/window/view_fan_out.h"

using namespace hitcounter;
using namespace hitcounter::ui;
using hitcounter::testing::pushKnownStream;

namespace {

// A source whose start() fails the way a taken port does.
class FailingSource : public Source {
public:
    void start(BatchQueue&) override {
        throw SourceError("statsd udp 127.0.0.1:8125: cannot bind: Address already in use");
    }
    void stop() override {}
    bool running() const override { return false; }
    SourceStats stats() const override { return {}; }
    std::string describe() const override { return "failing"; }
};

double valueAt(QCPGraph* graph, double key) {
    auto it = graph->data()->findBegin(key, false);
    return it != graph->data()->constEnd() && it->key == key ? it->value : -1.0;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
    }

    // #25 item 1: the shortcuts dialog is generated from the actions: every action of the
    // window that has a shortcut is listed with each of its keys (the hand-written list
    // missed "=" for zoom in), an action without one is not, and a new action is listed
    // without any other change.
    void theShortcutListIsMadeFromTheActions() {
        MainWindow w;
        auto* extra = new QAction(QStringLiteral("Frobnicate"), &w);
        extra->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_J));
        extra->setToolTip(QStringLiteral("Frobnicate the views (Ctrl+J)"));
        w.addAction(extra);
        QTextDocument doc;
        doc.setHtml(shortcutTable(w.findChildren<QAction*>()));
        const QString text = doc.toPlainText();
        int withKeys = 0;
        for (const QAction* action : w.findChildren<QAction*>()) {
            for (const QKeySequence& key : action->shortcuts()) {
                ++withKeys;
                QVERIFY2(text.contains(key.toString(QKeySequence::NativeText)),
                         qPrintable(action->text() + QStringLiteral(": ") + text));
            }
        }
        QVERIFY(withKeys >= 12);
        for (const QString& key : {QStringLiteral("Space"), QStringLiteral("="),
                                   QStringLiteral("Ctrl+O"), QStringLiteral("F1")}) {
            QVERIFY2(text.contains(key), qPrintable(text));
        }
        QVERIFY2(text.contains(QStringLiteral("Ctrl+J\tFrobnicate the views\n")) ||
                     text.contains(QStringLiteral("Ctrl+J\nFrobnicate the views\n")),
                 qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("(Ctrl+J)")));  // the keys are not said twice
        QVERIFY(!text.contains(QStringLiteral("light and the dark theme")));  // no shortcut
    }

    // A message shown before the window was (the default simulator's "Started ...") is never
    // drawn over the running source's text: the status bar's two texts were on top of each other.
    void aStatusMessageHidesTheSourceText() {
        MainWindow w;
        QVERIFY(w.startSpec(SourceSpec{}));  // as the app starts: the simulator, then show()
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* source = w.findChild<QLabel*>(QStringLiteral("statusSource"));
        QVERIFY(source);
        w.frame();
        QApplication::processEvents();
        QVERIFY(!w.statusBar()->currentMessage().isEmpty());
        QVERIFY2(!source->isVisible(), qPrintable(w.statusBar()->currentMessage() +
                                                  QStringLiteral(" over ") + source->text()));
        w.statusBar()->clearMessage();
        w.frame();
        QVERIFY(source->isVisible());
    }

    void windowBuildsWithEveryPanel() {
        MainWindow w;
        w.show();
        for (const char* name : {"livePlot", "ringHistogram", "policyComparison", "policyTable",
                                 "comparisonPlot", "statusRate", "statusTotals", "statusBad",
                                 "statusDropped", "statusLate", "windowBox", "bucketBox"}) {
            QWidget* child = w.findChild<QWidget*>(QString::fromLatin1(name));
            QVERIFY2(child != nullptr, name);
            QVERIFY2(child->isVisible(), name);
        }
        // The first window fits the screen (offscreen: its available area), unless the
        // window's minimum is larger.
        const QSize available = QGuiApplication::primaryScreen()->availableGeometry().size();
        QVERIFY(w.width() <= std::max(available.width(), w.minimumSizeHint().width()));
        QVERIFY(w.height() <= std::max(available.height(), w.minimumSizeHint().height()));
    }

    void knownStreamReachesEveryPlot() {
        MainWindow w;
        pushKnownStream(w.queue());
        w.renderNow();
        QCOMPARE(valueAt(w.livePlot()->hitsGraph(), 1004), 5.0);
        QCOMPARE(valueAt(w.livePlot()->hitsGraph(), 1009), 10.0);
        QCOMPARE(valueAt(w.livePlot()->windowGraph(), 1009), 55.0);
        QCOMPARE(valueAt(w.livePlot()->windowGraph(), 1002), 6.0);
        QCOMPARE(w.views().snapshot().windowCount, Count{55});

        // ring slots: second s sits in slot s mod 300; the head slot is drawn highlighted
        const auto slotValue = [](QCPBars* bars, double key) {
            auto it = bars->data()->findBegin(key, false);
            return it != bars->data()->constEnd() && it->key == key ? it->value : -1.0;
        };
        QCOMPARE(slotValue(w.ringHistogram()->headBars(), 1009 % 300), 10.0);
        QCOMPARE(slotValue(w.ringHistogram()->liveBars(), 1003 % 300), 4.0);
        QVERIFY(w.ringHistogram()->describeSlot(1003 % 300).contains(QStringLiteral("1003")));

        QTableWidget* table = w.comparison()->table();
        QCOMPARE(table->rowCount(), int(w.views().snapshot().policies.size()));
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("ring"));
        QCOMPARE(table->item(0, 1)->text(), QLocale().toString(55));
        QCOMPARE(valueAt(w.comparison()->countGraph(1), 1009), 55.0);  // deque agrees
    }

    void wideBucketsRegroupTheRing() {
        MainWindow w;
        pushKnownStream(w.queue());
        w.setBucketSeconds(5);
        w.renderNow();
        // 1005..1009 form bucket 201 (slot 201 mod 61), holding 6+7+8+9+10 hits
        const auto& slots = w.ringHistogram()->slotsShown();
        QCOMPARE(slots.size(), std::size_t{61});
        QCOMPARE(slots[201 % 61].count, Count{40});
        QVERIFY(slots[201 % 61].isHead);
    }

    void changingTheWindowKeepsTheHistory() {
        MainWindow w;
        pushKnownStream(w.queue());
        w.renderNow();
        QCOMPARE(w.views().snapshot().windowCount, Count{55});
        w.setWindowSeconds(60);
        w.renderNow();
        // The live stream's past is kept: the new 60 s window holds seconds 1000..1009.
        QCOMPARE(w.views().snapshot().windowSeconds, std::int64_t{60});
        QCOMPARE(w.views().snapshot().slots.size(), std::size_t{60});
        QCOMPARE(w.views().snapshot().windowCount, Count{55});
        QCOMPARE(w.views().snapshot().totalHits, Count{55});
        QCOMPARE(w.livePlot()->hitsGraph()->data()->size(), 10);
        QCOMPARE(valueAt(w.livePlot()->windowGraph(), 1009), 55.0);
        // One hit at 1065: the window (1005, 1065] holds 1006..1009 (7 + 8 + 9 + 10) and it.
        QVERIFY(w.queue().tryPush(HitBatch{HitEvent{1065, "page", "visitor", 1}}));
        w.renderNow();
        QCOMPARE(w.views().snapshot().windowCount, Count{35});
        QCOMPARE(w.views().snapshot().totalHits, Count{56});
        QCOMPARE(valueAt(w.livePlot()->hitsGraph(), 1004), 5.0);
    }

    // Issue 15: a new W on a live stream keeps the items table (the per-key counts are kept and
    // re-windowed, not restarted), for a shorter and then a longer window.
    void changingTheWindowKeepsTheItems() {
        MainWindow w;
        pushKnownStream(w.queue(), "page");
        QVERIFY(w.queue().tryPush(HitBatch{HitEvent{1009, "other", "visitor", 3}}));
        w.renderNow();
        QTableWidget* table = w.itemsPanel()->table();
        const auto row = [&](int r) {
            return std::pair(table->item(r, 0)->data(Qt::UserRole).toString(),
                             table->item(r, 1)->text());
        };
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(row(0), std::pair(QStringLiteral("page"), QStringLiteral("55")));
        w.setWindowSeconds(60);
        // A hit at 1065: the 60 s window (1005, 1065] holds page's 1006..1009 (7 + 8 + 9 + 10)
        // and the hit, and other's 3 hits at 1009.
        QVERIFY(w.queue().tryPush(HitBatch{HitEvent{1065, "page", "visitor", 1}}));
        w.renderNow();
        QCOMPARE(w.views().snapshot().windowSeconds, std::int64_t{60});
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(row(0), std::pair(QStringLiteral("page"), QStringLiteral("35")));
        QCOMPARE(row(1), std::pair(QStringLiteral("other"), QStringLiteral("3")));
        // Longer again: every hit since 1000 is back in the 15 min window.
        w.setWindowSeconds(900);
        w.renderNow();
        QCOMPARE(w.views().snapshot().windowSeconds, std::int64_t{900});
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(row(0), std::pair(QStringLiteral("page"), QStringLiteral("56")));
        QCOMPARE(row(1), std::pair(QStringLiteral("other"), QStringLiteral("3")));
    }

    void aWindowNotFullYetIsMarkedAsFilling() {
        MainWindow w;
        pushKnownStream(w.queue());  // 10 seconds of a 300 s window
        w.renderNow();
        QVERIFY2(w.livePlot()->titleText().contains(QStringLiteral("filling: 10 s seen")),
                 qPrintable(w.livePlot()->titleText()));
        auto* note = w.findChild<QLabel*>(QStringLiteral("policyNote"));
        QVERIFY(note && note->text().contains(QStringLiteral("Window filling: 10 of 300 s")));
        w.setWindowSeconds(60);
        QVERIFY(w.queue().tryPush(HitBatch{HitEvent{1065, "page", "visitor", 1}}));
        w.renderNow();  // 66 s of history now: the 60 s window is full
        QVERIFY2(!w.livePlot()->titleText().contains(QStringLiteral("filling")),
                 qPrintable(w.livePlot()->titleText()));
        QVERIFY(!note->text().contains(QStringLiteral("Window filling")));
    }

    void settingsRoundTrip() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("settings.ini"));
        {
            MainWindow w;
            w.setThemeName(QStringLiteral("dark"));
            w.setWindowSeconds(900);
            w.setBucketSeconds(10);
            QSettings settings(path, QSettings::IniFormat);
            w.saveSettings(settings);
        }
        MainWindow restored;
        QCOMPARE(restored.themeName(), QStringLiteral("light"));
        QSettings settings(path, QSettings::IniFormat);
        restored.restoreSettings(settings);
        QCOMPARE(restored.themeName(), QStringLiteral("dark"));
        QCOMPARE(restored.engineOptions().window.count(), std::int64_t{900});
        QCOMPARE(restored.ringHistogram()->bucketSeconds(), 10);
        restored.setThemeName(QStringLiteral("light"));
    }

    void exportWritesAValidPng() {
        MainWindow w;
        pushKnownStream(w.queue());
        w.renderNow();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("live.png"));
        QString error;
        QVERIFY2(exportPlotPng(*w.livePlot(), path, &error), qPrintable(error));
        QImage image;
        QVERIFY(image.load(path, "PNG"));
        QVERIFY(image.width() >= 800 && image.height() >= 500);

        QVERIFY(!exportPlotPng(*w.livePlot(), dir.filePath(QStringLiteral("no/such/dir/x.png")),
                               &error));
        QVERIFY(error.contains(QStringLiteral("x.png")));
    }

    void snapshotWritesPngCsvAndSettings() {
        MainWindow w;
        w.resize(1280, 800);  // the first size follows the (offscreen) screen
        w.show();
        pushKnownStream(w.queue());
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("snap"));
        QString error;
        QVERIFY2(w.snapshotTo(out, &error), qPrintable(error));
        QImage image;
        QVERIFY(image.load(out + QStringLiteral("/window.png"), "PNG"));
        QVERIFY(image.width() >= 1280);
        QFile csv(out + QStringLiteral("/window.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 11);
        QCOMPARE(lines.front(), QByteArray("second,hits,window_count"));
        QCOMPARE(lines.back(), QByteArray("1009,10,55"));
        QFile json(out + QStringLiteral("/settings.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        QVERIFY(json.readAll().contains("\"window_count\": 55"));
    }

    // Two snapshots taken in the same second go to two folders: the second never writes over
    // the first one's files.
    void aSnapshotOfTheSameSecondGetsItsOwnFolder() {
        QTemporaryDir dir;
        const QDateTime now(QDate(2026, 12, 5), QTime(14, 3, 9));
        const QString first = newSnapshotDirectory(dir.path(), now);
        QCOMPARE(QFileInfo(first).fileName(), QStringLiteral("hitcounter-20261205-140309"));
        QVERIFY(!QFileInfo::exists(first));
        QVERIFY(QDir().mkpath(first));
        const QString second = newSnapshotDirectory(dir.path(), now);
        QCOMPARE(QFileInfo(second).fileName(), QStringLiteral("hitcounter-20261205-140309-2"));
        QVERIFY(QDir().mkpath(second));
        QCOMPARE(QFileInfo(newSnapshotDirectory(dir.path(), now)).fileName(),
                 QStringLiteral("hitcounter-20261205-140309-3"));
    }

    void sourceThatCannotStartShowsAMessageAndTheAppGoesOn() {
        MainWindow w;
        w.show();
        QVERIFY(!w.session()->start(std::make_unique<FailingSource>(), TimeAxisMode::Clock));
        QVERIFY(w.errorText().contains(QStringLiteral("Address already in use")));
        QVERIFY(w.findChild<QLabel*>(QStringLiteral("errorBanner"))->isVisible());
        QVERIFY(w.session()->source() == nullptr);
        pushKnownStream(w.queue());
        w.renderNow();
        QCOMPARE(w.views().snapshot().windowCount, Count{55});
    }

    void pauseFreezesTheViewsButNotTheCounting() {
        MainWindow w;
        w.setPaused(true);
        pushKnownStream(w.queue());
        QTest::qWait(100);  // frames pass; the counting thread counts meanwhile
        w.frame();
        QCOMPARE(w.livePlot()->hitsGraph()->data()->size(), 0);
        w.setPaused(false);
        QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
        QCOMPARE(w.views().lastFrame()->hitsIngested, Count{55});
        QCOMPARE(valueAt(w.livePlot()->windowGraph(), 1009), 55.0);
    }

    void leavingFollowModeKeepsTheRangeWhileDataArrives() {
        MainWindow w;
        pushKnownStream(w.queue());
        w.renderNow();
        w.livePlot()->setFollowing(false);  // what a drag does (tst_replay_controls)
        w.livePlot()->zoomTime(0.5);
        QVERIFY(!w.livePlot()->following());
        const QCPRange before = w.livePlot()->xAxis->range();
        w.queue().tryPush(HitBatch{HitEvent{1100, "", "", 3}});
        w.renderNow();
        QCOMPARE(w.livePlot()->xAxis->range().upper, before.upper);
        w.livePlot()->setFollowing(true);
        QCOMPARE(w.livePlot()->xAxis->range().upper, 1101.5);
    }
};

HITCOUNTER_TEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
