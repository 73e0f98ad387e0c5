// Issue 23 item 5 in real widgets (offscreen): a log written in a +1200 zone shows its times
// in the zone chosen (the log's own, UTC or local), and every place names it: the time axes,
// the crosshair readout, the replay bar, the CSV export, the status bar's zone button, the
// state JSON; the choice is remembered; a source whose times name no offset says why "log"
// shows UTC.
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include "core/time/manual_clock.h"
#include "tests/ui/gui_test_steps.h"
#include "tests/ui/known_inputs.h"
#include "ui/monitor/live_plot.h"
#include "ui/plot/data_export.h"
#include "ui/plot/display_zone.h"
#include "ui/plot/plot_crosshair.h"
#include "ui/plot/time_axis.h"
#include "ui/sources/replay_bar.h"
#include "ui/sources/source_session.h"
#include "ui/window/main_window.h"
#include "ui/window/state_json.h"
#include "ui/window/view_fan_out.h"
#include "ui/window/window_state.h"

#include <QLabel>
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::ui;
using hitcounter::testing::framesUntil;

namespace {

// 01/Mar/2009:18:52:07 +1200 is 06:52:07 UTC: 1235890327.
constexpr Timestamp kAt = 1235890327;

// One line per second from 18:50:00 to 18:55:00 +1200.
QString writeLog(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("nz.log"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    for (int s = 0; s <= 300; ++s) {
        const int m = 50 + s / 60;
        file.write(QStringLiteral("10.0.0.1 - - [01/Mar/2009:18:%1:%2 +1200] \"GET / HTTP/1.0\" "
                                  "200 12 \"-\" \"curl\"\n")
                       .arg(m, 2, 10, QLatin1Char('0'))
                       .arg(s % 60, 2, 10, QLatin1Char('0'))
                       .toUtf8());
    }
    return path;
}

QString readoutAt(MainWindow& w, Timestamp t) {
    LivePlot* live = w.livePlot();
    const QPointF pos(live->xAxis->coordToPixel(double(t)), live->axisRect()->center().y());
    QMouseEvent move(QEvent::MouseMove, pos, live->mapToGlobal(pos), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(live, &move);
    return PlotCrosshair::of(*live)->readout().section(QLatin1Char('\n'), 0, 0);
}

QByteArray csvRowOf(MainWindow& w, Timestamp t) {
    for (const QByteArray& row : visibleDataCsv(*w.livePlot()).split('\n')) {
        if (row.contains(',' + QByteArray::number(qlonglong(t)) + ',')) {
            return row;
        }
    }
    return {};
}

}  // namespace

class TestTimeZones : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_time_zones"));
    }

    void theLogsOwnZoneUtcAndLocalAreShownAndNamed() {
        QTemporaryDir dir;
        const QString log = writeLog(dir);
        MainWindow w(std::make_shared<ManualClock>(std::chrono::seconds(1'000'000)));
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.openFiles({log});
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().windowCount > 0; }));
        w.session()->seek(kAt + 60);
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().head == kAt + 60; }));
        w.renderNow();
        auto* zoneButton = w.findChild<QToolButton*>(QStringLiteral("statusZone"));
        QVERIFY(zoneButton);

        w.setTimeZone(ZoneChoice::Log);
        w.frame();  // the replay bar's label, once a frame
        w.renderNow();
        QCOMPARE(zoneButton->text(), QStringLiteral("UTC+12:00"));
        QVERIFY2(w.livePlot()->xAxis->label().contains(QStringLiteral("UTC+12:00")),
                 qPrintable(w.livePlot()->xAxis->label()));
        QCOMPARE(readoutAt(w, kAt), QStringLiteral("2009-03-01 18:52:07 UTC+12:00"));
        QVERIFY2(csvRowOf(w, kAt).startsWith("2009-03-01T18:52:07+12:00,1235890327,"),
                 csvRowOf(w, kAt).constData());
        QVERIFY2(w.replayBar()->timeLabel()->text().startsWith(
                     QStringLiteral("2009-03-01 18:53:07 / 18:55:00 UTC+12:00")),
                 qPrintable(w.replayBar()->timeLabel()->text()));
        for (const QString& label : w.livePlot()->xAxis->tickVectorLabels()) {
            QVERIFY2(label.startsWith(QStringLiteral("18:")), qPrintable(label));  // as the log
        }
        QJsonObject state = QJsonDocument::fromJson(stateJson(w, kAt)).object();
        QCOMPARE(state.value(QStringLiteral("time_zone")).toString(), QStringLiteral("UTC+12:00"));
        QCOMPARE(state.value(QStringLiteral("utc_offset_seconds")).toInt(), 43200);

        w.setTimeZone(ZoneChoice::Utc);
        w.frame();
        w.renderNow();
        QCOMPARE(zoneButton->text(), QStringLiteral("UTC"));
        QCOMPARE(readoutAt(w, kAt), QStringLiteral("2009-03-01 06:52:07 UTC"));
        QVERIFY(csvRowOf(w, kAt).startsWith("2009-03-01T06:52:07Z,"));
        QVERIFY(w.livePlot()->xAxis->label().contains(QStringLiteral("UTC")));
        for (const QString& label : w.livePlot()->xAxis->tickVectorLabels()) {
            QVERIFY2(label.startsWith(QStringLiteral("06:")), qPrintable(label));
        }
        state = QJsonDocument::fromJson(stateJson(w, kAt)).object();
        QCOMPARE(state.value(QStringLiteral("time_zone")).toString(), QStringLiteral("UTC"));

        w.setTimeZone(ZoneChoice::Local);
        w.renderNow();
        const QDateTime local = QDateTime::fromSecsSinceEpoch(kAt);
        QVERIFY2(
            readoutAt(w, kAt).startsWith(local.toString(QStringLiteral("yyyy-MM-dd hh:mm:ss "))),
            qPrintable(readoutAt(w, kAt)));
        QVERIFY2(zoneButton->text().contains(QStringLiteral("local")),
                 qPrintable(zoneButton->text()));
        QVERIFY(zoneButton->toolTip().contains(QStringLiteral("local")));
    }

    // A trace CSV names no offset: "log" shows UTC and says why, on the button and in the
    // state JSON's warnings.
    void aSourceWithoutAnOffsetShowsUtcAndSaysWhy() {
        QTemporaryDir dir;
        const QString trace =
            testing::writeOneHitTrace(dir, QStringLiteral("unix.csv"), 1700000000, 1700000100);
        MainWindow w(std::make_shared<ManualClock>(std::chrono::seconds(1'000'000)));
        w.setTimeZone(ZoneChoice::Log);
        w.openFiles({trace});
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().windowCount > 0; }));
        auto* zoneButton = w.findChild<QToolButton*>(QStringLiteral("statusZone"));
        QCOMPARE(zoneButton->text(), QStringLiteral("UTC"));
        QVERIFY2(zoneButton->toolTip().contains(QStringLiteral("name no UTC offset")),
                 qPrintable(zoneButton->toolTip()));
        QVERIFY2(windowWarnings(w).join('|').contains(QStringLiteral("time zone")),
                 qPrintable(windowWarnings(w).join('|')));
    }

    void theChoiceIsRemembered() {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        {
            MainWindow w;
            w.setTimeZone(ZoneChoice::Log);
            w.saveSettings(settings);
        }
        settings.sync();
        MainWindow again;
        QCOMPARE(again.timeZone(), ZoneChoice::Local);  // the default
        again.restoreSettings(settings);
        QCOMPARE(again.timeZone(), ZoneChoice::Log);
    }
};

HITCOUNTER_TEST_MAIN(TestTimeZones)
#include "tst_time_zones.moc"
