// The Rate limits tab in a real (offscreen) main window: its limiters run on the counting
// thread in lockstep with the replay. After replaying a trace its totals equal
// `hitcounter-cli limit FILE --json` on the same file; the boundary example marks a burst for
// fixed and none for log; after a seek it equals a from-the-start run (a LimitsFeed fed the
// same rows here); changing L, W or the scope restarts it consistently (replay: re-run from
// the start; live: from the point the counting thread takes the change). At large values
// (millions of requests) and at 1024x768, 1280x720 and 1920x1080 the lab's numbers are plain
// (no exponents, separators or compact units), its bar value labels do not overlap and its
// tables fit without cutting a cell or scrolling sideways.
#include <QComboBox>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <limits>

#include "../app/cli_process.h"
#include "core/engine/limits_feed.h"
#include "core/sources/replay_source.h"
#include "core/time/manual_clock.h"
#include "tests/test_main.h"
#include "ui/common/number_text.h"
#include "ui/limits/limits_lab.h"
#include "ui/limits/limits_view.h"
#include "ui/plot/qcp.h"
#include "ui/sources/source_session.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

// Bursty per-key traffic with late rows and multi-request rows.
HitBatch burstRows() {
    HitBatch rows;
    for (Timestamp t = 1; t <= 900; ++t) {
        const int hits = (t >= 300 && t < 360) ? 40 : 6;
        for (int i = 0; i < hits; ++i) {
            rows.push_back(
                HitEvent{t, "/page/" + std::to_string((i * 7 + t) % 9), "v", Count(1 + i % 3)});
        }
        if (t % 13 == 0) {
            rows.push_back(HitEvent{t - 5, "/late", "v", 4});
        }
    }
    return rows;
}

QString writeTrace(const QTemporaryDir& dir, const QString& name, const HitBatch& rows) {
    const QString path = dir.filePath(name);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write("timestamp,key,visitor,count\n");
    for (const HitEvent& e : rows) {
        file.write(QStringLiteral("%1,%2,%3,%4\n")
                       .arg(e.time)
                       .arg(QString::fromStdString(e.key), QString::fromStdString(e.visitor))
                       .arg(e.count)
                       .toUtf8());
    }
    return path;
}

// Millions of requests per second: ten keys, a burst from 300 to 360 s.
HitBatch bigRows() {
    HitBatch rows;
    for (Timestamp t = 1; t <= 600; ++t) {
        const Count each = (t >= 300 && t < 360) ? 900'000 : 150'000;
        for (int k = 0; k < 10; ++k) {
            rows.push_back(HitEvent{t, "/page/" + std::to_string(k), "v", each + Count(k * 7)});
        }
    }
    return rows;
}

// The rows an uninterrupted replay has delivered at trace time t (file order).
HitBatch prefixTo(const HitBatch& rows, Timestamp t) {
    HitBatch prefix;
    Timestamp head = std::numeric_limits<Timestamp>::min();
    for (const HitEvent& e : rows) {
        head = std::max(head, e.time);
        if (head > t) {
            break;
        }
        prefix.push_back(e);
    }
    return prefix;
}

LimitsOptions labOptions(Count l, std::int64_t w, bool perKey = true,
                         std::vector<std::string> algorithms = {"fixed", "log", "counter",
                                                                "bucket"}) {
    LimitsOptions o;
    o.enabled = true;
    o.limit = RateLimit{l, std::chrono::seconds(w)};
    o.perKey = perKey;
    o.algorithms = std::move(algorithms);
    return o;
}

// A from-the-start run of the lab on `rows`, as one frame.
LimitsFrame referenceFrame(const LimitsOptions& options, const HitBatch& rows) {
    LimitsFeed feed(options);
    feed.feed(rows);
    LimitsFrame frame;
    feed.fill(frame, nullptr);
    return frame;
}

// Frames until the replay's last seek is counted and a frame built with an empty queue is
// drawn.
bool settleAfterSeek(MainWindow& w) {
    const std::uint64_t epoch = w.session()->seekable()->epoch();
    for (int i = 0; i < 2000; ++i) {
        w.frame();
        if (w.session()->seekable()->progress().seeksApplied >= epoch &&
            w.waitForFrame(std::chrono::milliseconds(200), true) &&
            w.views().lastFrame()->streamEpoch == epoch) {
            return true;
        }
        QTest::qWait(5);
    }
    return false;
}

// Frames until one says the counting thread runs the lab with `options` (a live restart takes
// effect where that thread picks it up).
bool waitForLab(MainWindow& w, const LimitsOptions& options) {
    return QTest::qWaitFor(
        [&] {
            return w.waitForFrame(std::chrono::milliseconds(100), true) &&
                   w.views().lastFrame()->limits.options == options;
        },
        5000);
}

double valueAt(QCPGraph* graph, double key) {
    auto it = graph->data()->findBegin(key, false);
    return it != graph->data()->constEnd() && it->key == key ? it->value : -1.0;
}

// The view shows exactly `expected`: totals, peaks, memory, per-second history and graphs,
// and the table's text.
void compareView(const LimitsView& view, const LimitsFrame& expected) {
    const LimitsFrame& shown = view.lastFrame();
    QCOMPARE(shown.options, expected.options);
    QCOMPARE(shown.empty, expected.empty);
    QCOMPARE(shown.requests, expected.requests);
    QCOMPARE(shown.names, expected.names);
    QCOMPARE(shown.lanes.size(), expected.lanes.size());
    const QLocale locale;
    for (std::size_t i = 0; i < expected.lanes.size(); ++i) {
        const LimitLaneState& a = shown.lanes[i];
        const LimitLaneState& b = expected.lanes[i];
        QCOMPARE(a.accepted, b.accepted);
        QCOMPARE(a.rejected, b.rejected);
        QCOMPARE(a.maxInAnyWindow, b.maxInAnyWindow);
        QCOMPARE(a.maxWindowKey, b.maxWindowKey);
        QCOMPARE(a.burstSeconds, b.burstSeconds);
        QCOMPARE(a.memoryBytes, b.memoryBytes);
        QCOMPARE(a.liveKeys, b.liveKeys);
        QCOMPARE(a.topRejected.size(), b.topRejected.size());
        for (std::size_t k = 0; k < b.topRejected.size(); ++k) {
            QCOMPARE(a.topRejected[k].key, b.topRejected[k].key);
            QCOMPARE(a.topRejected[k].rejected, b.topRejected[k].rejected);
        }
        QTableWidget* table = view.lanesTable();
        QCOMPARE(table->item(int(i), LimitsView::ColAccepted)->text(),
                 locale.toString(qulonglong(b.accepted)));
        QCOMPARE(table->item(int(i), LimitsView::ColRejected)->text(),
                 locale.toString(qulonglong(b.rejected)));
        QCOMPARE(table->item(int(i), LimitsView::ColMaxWindow)->text(),
                 locale.toString(qulonglong(b.maxInAnyWindow)));
    }
    QCOMPARE(view.history().size(), expected.history.size());
    for (std::size_t s = 0; s < expected.history.size(); ++s) {
        const LimitSecond& a = view.history()[s];
        const LimitSecond& b = expected.history[s];
        QCOMPARE(a.second, b.second);
        QCOMPARE(a.accepted, b.accepted);
        QCOMPARE(a.rejected, b.rejected);
        QCOMPARE(a.windowMax, b.windowMax);
        for (std::size_t i = 0; i < b.accepted.size(); ++i) {
            QCOMPARE(valueAt(view.acceptedGraph(int(i)), double(b.second)), double(b.accepted[i]));
            QCOMPARE(valueAt(view.rejectedGraph(int(i)), double(b.second)), double(b.rejected[i]));
            const bool burst = b.windowMax[i] > expected.options.limit.limit;
            QCOMPARE(valueAt(view.burstGraph(int(i)), double(b.second)) >= 0, burst);
        }
    }
}

// `w` at `size`, shown, its lab (L = 1,000,000 per 60 s, every algorithm) run over bigRows()
// and drawn.
bool showBigLab(MainWindow& w, const QTemporaryDir& dir, QSize size) {
    w.resize(size);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w) || !w.limitsLab()->apply(labOptions(1'000'000, 60))) {
        return false;
    }
    w.showLimitsView();
    ReplaySpec spec;
    spec.file = writeTrace(dir, QStringLiteral("big.csv"), bigRows());
    if (!w.startSpec(spec)) {
        return false;
    }
    w.session()->seek(600);
    if (!settleAfterSeek(w) || w.limitsView()->lastFrame().lanes.size() != 4) {
        return false;
    }
    w.limitsView()->plot()->replot();
    return true;
}

// A number as people write it: no exponent ("5e+06", "5·10⁶", "10^6"); from 1,000 up with the
// locale's group separator or a compact unit ("1.5 M").
bool plainNumber(const QString& text, double value) {
    if (text.contains(QLatin1Char('e'), Qt::CaseInsensitive) ||
        text.contains(QStringLiteral("·10")) || text.contains(QLatin1Char('^'))) {
        return false;
    }
    if (std::abs(value) < 1000) {
        return true;
    }
    static const QStringList kUnits{QStringLiteral(" M"), QStringLiteral(" G"),
                                    QStringLiteral(" T")};
    return text.contains(QLocale().groupSeparator()) ||
           std::any_of(kUnits.begin(), kUnits.end(),
                       [&](const QString& unit) { return text.endsWith(unit); });
}

// Every shown cell of `table` fits its column and the table does not scroll sideways. Returns
// the hidden columns' headers.
QStringList verifyTableFits(QTableWidget& table) {
    QString widths;
    for (int c = 0; c < table.columnCount(); ++c) {
        widths += QStringLiteral(" %1%2")
                      .arg(table.columnWidth(c))
                      .arg(table.isColumnHidden(c) ? QStringLiteral("h") : QString());
    }
    // (The scroll bar follows the columns after the view's delayed layout.)
    [&] {
        QTRY_VERIFY2(!table.horizontalScrollBar()->isVisible(),
                     qPrintable(QStringLiteral("%1 (%2 px) scrolls sideways:%3")
                                    .arg(table.objectName())
                                    .arg(table.width())
                                    .arg(widths)));
    }();
    QStringList hidden;
    if (QTest::currentTestFailed()) {
        return hidden;
    }
    for (int c = 0; c < table.columnCount(); ++c) {
        const QString header = table.horizontalHeaderItem(c)->text();
        if (table.isColumnHidden(c)) {
            hidden << header;
            continue;
        }
        for (int row = 0; row < table.rowCount(); ++row) {
            if (!cellTextFits(table, row, c)) {
                QTest::qFail(qPrintable(QStringLiteral("%1: column %2 (%3 px) cuts '%4'")
                                            .arg(table.objectName(), header)
                                            .arg(table.columnWidth(c))
                                            .arg(table.item(row, c)->text())),
                             __FILE__, __LINE__);
                return hidden;
            }
        }
    }
    return hidden;
}

}  // namespace

class TestLimitsView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void totalsEqualTheCliOnTheSameTrace() {
        QTemporaryDir dir;
        const HitBatch rows = burstRows();
        const QString file = writeTrace(dir, QStringLiteral("burst.csv"), rows);
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.show();
        const LimitsOptions options = labOptions(25, 30);
        QVERIFY(w.limitsLab()->apply(options));
        ReplaySpec spec;
        spec.file = file;
        QVERIFY(w.startSpec(spec));
        w.session()->seek(5000);  // past the end: every row
        QVERIFY(settleAfterSeek(w));

        const CliResult cli =
            runCli({QStringLiteral("limit"), file, QStringLiteral("--limit"), QStringLiteral("25"),
                    QStringLiteral("--per"), QStringLiteral("30"), QStringLiteral("--json")});
        QVERIFY2(cli.finished && cli.exitCode == 0, cli.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(cli.out).object();
        const QJsonObject algorithms = json.value(QStringLiteral("algorithms")).toObject();
        const LimitsFrame& shown = w.limitsView()->lastFrame();
        QCOMPARE(shown.names.size(), std::size_t(4));
        QCOMPARE(qint64(shown.requests), json.value(QStringLiteral("requests")).toInteger());
        bool someRejected = false;
        for (std::size_t i = 0; i < shown.lanes.size(); ++i) {
            const LimitLaneState& lane = shown.lanes[i];
            const QJsonObject cliLane =
                algorithms.value(QString::fromStdString(lane.name)).toObject();
            QVERIFY2(!cliLane.isEmpty(), lane.name.c_str());
            QCOMPARE(qint64(lane.accepted), cliLane.value(QStringLiteral("accepted")).toInteger());
            QCOMPARE(qint64(lane.rejected), cliLane.value(QStringLiteral("rejected")).toInteger());
            QCOMPARE(qint64(lane.maxInAnyWindow),
                     cliLane.value(QStringLiteral("max_in_any_window")).toInteger());
            QCOMPARE(qint64(lane.memoryBytes),
                     cliLane.value(QStringLiteral("memory_bytes")).toInteger());
            QCOMPARE(qint64(lane.liveKeys), cliLane.value(QStringLiteral("live_keys")).toInteger());
            someRejected = someRejected || lane.rejected > 0;
            // the per-second records add up to the totals
            Count accepted = 0;
            Count rejected = 0;
            for (const LimitSecond& s : w.limitsView()->history()) {
                accepted += s.accepted[i];
                rejected += s.rejected[i];
            }
            QCOMPARE(accepted, lane.accepted);
            QCOMPARE(rejected, lane.rejected);
        }
        QVERIFY(someRejected);  // the limit bites on this trace
        compareView(*w.limitsView(), referenceFrame(options, rows));
    }

    void boundaryBurstIsMarkedForFixedAndNotForLog() {
        QTemporaryDir dir;
        const HitBatch rows{
            {58, "a", "v", 1}, {59, "a", "v", 1}, {60, "a", "v", 1}, {61, "a", "v", 1}};
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.resize(1280, 720);
        w.show();
        QVERIFY(w.limitsLab()->apply(labOptions(2, 60, true, {"fixed", "log"})));
        w.showLimitsView();
        QCOMPARE(w.findChild<QTabWidget*>(QStringLiteral("viewTabs"))->currentWidget(),
                 static_cast<QWidget*>(w.limitsView()));
        ReplaySpec spec;
        spec.file = writeTrace(dir, QStringLiteral("boundary.csv"), rows);
        QVERIFY(w.startSpec(spec));
        w.session()->seek(61);
        QVERIFY(settleAfterSeek(w));
        const LimitsView& view = *w.limitsView();
        QCOMPARE(view.lastFrame().names, (std::vector<std::string>{"fixed", "log"}));
        const LimitLaneState& fixed = view.lastFrame().lanes[0];
        const LimitLaneState& log = view.lastFrame().lanes[1];
        QCOMPARE(fixed.accepted, Count(4));
        QCOMPARE(fixed.maxInAnyWindow, Count(4));
        QCOMPARE(log.accepted, Count(2));
        QCOMPARE(log.rejected, Count(2));
        QCOMPARE(log.maxInAnyWindow, Count(2));
        // fixed: (0, 60] holds 58, 59, 60 and (1, 61] all four: marked at 60 and 61
        QCOMPARE(view.burstGraph(0)->data()->size(), 2);
        QCOMPARE(valueAt(view.burstGraph(0), 60.0), 1.0);
        QCOMPARE(valueAt(view.burstGraph(0), 61.0), 1.0);
        QCOMPARE(fixed.burstSeconds, Count(2));
        QCOMPARE(view.burstGraph(1)->data()->size(), 0);
        QCOMPARE(log.burstSeconds, Count(0));
        // drawn: the fixed marker is in the legend, the log's is not
        QVERIFY(w.limitsView()->plot()->legend->itemWithPlottable(view.burstGraph(0)) != nullptr);
        QVERIFY(w.limitsView()->plot()->legend->itemWithPlottable(view.burstGraph(1)) == nullptr);
        QCOMPARE(view.lanesTable()->item(0, LimitsView::ColMaxWindow)->foreground().color(),
                 QColor("#d93025"));
        const QImage image = w.grab().toImage();
        QVERIFY(!image.isNull());
    }

    void afterASeekTheLabEqualsARunFromTheStart() {
        QTemporaryDir dir;
        const HitBatch rows = burstRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        const LimitsOptions options = labOptions(12, 20);
        QVERIFY(w.limitsLab()->apply(options));
        ReplaySpec spec;
        spec.file = writeTrace(dir, QStringLiteral("seek.csv"), rows);
        QVERIFY(w.startSpec(spec));
        for (Timestamp target :
             {Timestamp{700}, Timestamp{330}, Timestamp{0}, Timestamp{900}, Timestamp{301}}) {
            w.session()->seek(target);
            QVERIFY(settleAfterSeek(w));
            compareView(*w.limitsView(), referenceFrame(options, prefixTo(rows, target)));
            if (QTest::currentTestFailed()) {
                QFAIL(qPrintable(QStringLiteral("after the seek to %1").arg(target)));
            }
        }
    }

    void changingTheLimitRestartsAReplayFromItsStart() {
        QTemporaryDir dir;
        const HitBatch rows = burstRows();
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.show();
        QVERIFY(w.limitsLab()->apply(labOptions(12, 20)));
        ReplaySpec spec;
        spec.file = writeTrace(dir, QStringLiteral("change.csv"), rows);
        QVERIFY(w.startSpec(spec));
        w.session()->seek(600);
        QVERIFY(settleAfterSeek(w));
        // through the controls: L 3 per 7 s, all traffic as one key, Apply
        LimitsView& view = *w.limitsView();
        view.findChild<QSpinBox*>(QStringLiteral("limitBox"))->setValue(3);
        view.findChild<QSpinBox*>(QStringLiteral("perBox"))->setValue(7);
        view.findChild<QComboBox*>(QStringLiteral("scopeBox"))->setCurrentIndex(1);
        view.findChild<QPushButton*>(QStringLiteral("limitsApply"))->click();
        QVERIFY2(view.restartNote().contains(QStringLiteral("re-run from the trace's start")),
                 qPrintable(view.restartNote()));
        QVERIFY(settleAfterSeek(w));
        const LimitsOptions changed = labOptions(3, 7, false);
        QCOMPARE(w.limitsLab()->options(), changed);
        compareView(view, referenceFrame(changed, prefixTo(rows, 600)));
        QCOMPARE(view.lastFrame().lanes.front().topRejected.front().key,
                 std::string(kAllTrafficKey));
        // and back to per key with fewer algorithms
        const LimitsOptions perKey = labOptions(5, 11, true, {"log", "bucket"});
        QVERIFY(w.limitsLab()->apply(perKey));
        QVERIFY(settleAfterSeek(w));
        compareView(view, referenceFrame(perKey, prefixTo(rows, 600)));
        QCOMPARE(view.lanesTable()->rowCount(), 2);
        // bad options are refused and change nothing
        QVERIFY(!w.limitsLab()->apply(labOptions(5, 11, true, {"nope"})));
        QCOMPARE(w.limitsLab()->options(), perKey);
    }

    void changingTheLimitRestartsALiveLabFromNow() {
        // No source: batches pushed straight into the queue, as a live source does.
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        const LimitsOptions first = labOptions(2, 10);
        QVERIFY(w.limitsLab()->apply(first));
        QVERIFY(waitForLab(w, first));
        HitBatch before;
        for (Timestamp t = 100; t < 130; ++t) {
            before.push_back(HitEvent{t, t % 2 ? "x" : "y", "v", 3});
        }
        w.queue().pushWait(HitBatch(before), {});
        QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
        compareView(*w.limitsView(), referenceFrame(first, before));
        // restart: takes effect where the counting thread picks it up (the next frame says so)
        const LimitsOptions second = labOptions(4, 5, true, {"fixed", "counter"});
        QVERIFY(w.limitsLab()->apply(second));
        QVERIFY(waitForLab(w, second));
        QVERIFY(w.limitsView()->lastFrame().empty);
        QVERIFY(w.limitsView()->history().empty());
        HitBatch after;
        for (Timestamp t = 130; t < 170; ++t) {
            after.push_back(HitEvent{t, t % 3 ? "x" : "z", "v", 2});
        }
        w.queue().pushWait(HitBatch(after), {});
        QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
        compareView(*w.limitsView(), referenceFrame(second, after));
        // the main counters were not reset: they hold both batches
        QCOMPARE(w.views().snapshot().totalHits, Count(30 * 3 + 40 * 2));
    }

    void theCommandLineOpensTheViewForScreenshots() {
        QTemporaryDir dir;
        const QString trace = writeTrace(
            dir, QStringLiteral("boundary.csv"),
            HitBatch{{58, "a", "v", 1}, {59, "a", "v", 1}, {60, "a", "v", 1}, {61, "a", "v", 1}});
        const QString png = dir.filePath(QStringLiteral("limits.png"));
        QProcess gui;
        gui.start(QStringLiteral(HITCOUNTER_GUI),
                  {QStringLiteral("--replay"),     trace,
                   QStringLiteral("--seek"),       QStringLiteral("61"),
                   QStringLiteral("--view"),       QStringLiteral("limits"),
                   QStringLiteral("--limit"),      QStringLiteral("2"),
                   QStringLiteral("--per"),        QStringLiteral("60"),
                   QStringLiteral("--algorithms"), QStringLiteral("fixed,log"),
                   QStringLiteral("--size"),       QStringLiteral("1280x720"),
                   QStringLiteral("--theme"),      QStringLiteral("dark"),
                   QStringLiteral("--screenshot"), png,
                   QStringLiteral("--after"),      QStringLiteral("1")});
        QVERIFY(gui.waitForFinished(30000));
        QCOMPARE(gui.exitCode(), 0);
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1280, 720));
        // bad values: exit code 2 and the option named
        const QList<QStringList> bad{{QStringLiteral("--view"), QStringLiteral("nope")},
                                     {QStringLiteral("--limit"), QStringLiteral("0")},
                                     {QStringLiteral("--per"), QStringLiteral("x")},
                                     {QStringLiteral("--limit-scope"), QStringLiteral("some")},
                                     {QStringLiteral("--algorithms"), QStringLiteral("fixed,nope")},
                                     {QStringLiteral("--size"), QStringLiteral("10x10")},
                                     {QStringLiteral("--theme"), QStringLiteral("pink")}};
        for (const QStringList& arguments : bad) {
            QProcess process;
            process.start(QStringLiteral(HITCOUNTER_GUI), arguments);
            QVERIFY(process.waitForFinished(30000));
            QCOMPARE(process.exitCode(), 2);
            const QByteArray err = process.readAllStandardError();
            QVERIFY2(err.contains(arguments.first().toUtf8()), err.constData());
        }
    }

    void settingsKeepTheLabsChoicesAndTab() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("settings.ini"));
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        const LimitsOptions chosen = labOptions(7, 45, false, {"log", "counter"});
        {
            MainWindow w(clock);
            QVERIFY(w.limitsLab()->apply(chosen));
            w.showLimitsView();
            QSettings settings(ini, QSettings::IniFormat);
            w.saveSettings(settings);
        }
        MainWindow w(clock);
        QVERIFY(!w.limitsLab()->options().enabled);
        QSettings settings(ini, QSettings::IniFormat);
        w.restoreSettings(settings);
        QCOMPARE(w.limitsView()->requestedOptions(), chosen);
        QCOMPARE(w.limitsLab()->options(), chosen);  // the tab was open: the lab runs again
        QCOMPARE(w.findChild<QTabWidget*>(QStringLiteral("viewTabs"))->currentWidget(),
                 static_cast<QWidget*>(w.limitsView()));
    }

    void windowSizes_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x768") << QSize(1024, 768);
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    // Every tick label of the lab's plots is a plain number or time (the algorithms' names on
    // the bars' axis aside); the count axes and the bars' value labels group their digits or
    // use compact units ("1.17 M").
    void largeNumbersArePlain_data() { windowSizes_data(); }
    void largeNumbersArePlain() {
        QFETCH(QSize, size);
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(showBigLab(w, dir, size));
        LimitsView* view = w.limitsView();
        int checked = 0;
        for (QCPAxisRect* rect : view->plot()->axisRects()) {
            for (QCPAxis* axis : rect->axes(QCPAxis::atLeft | QCPAxis::atBottom)) {
                if (!axis->visible() || !axis->tickLabels() ||
                    !qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker()).isNull()) {
                    continue;
                }
                const QVector<double> ticks = axis->tickVector();
                const QVector<QString> labels = axis->tickVectorLabels();
                QVERIFY(!labels.isEmpty());
                for (int i = 0; i < labels.size() && i < ticks.size(); ++i) {
                    // time axes read hh:mm:ss or seconds: no exponent either
                    const double value = axis->axisType() == QCPAxis::atLeft ? ticks[i] : 0.0;
                    QVERIFY2(plainNumber(labels[i], value),
                             qPrintable(QStringLiteral("%1: '%2'")
                                            .arg(axis->label(),
                                                 labels.toList().join(QStringLiteral("' '")))));
                    ++checked;
                }
            }
        }
        QVERIFY(checked >= 6);
        for (int lane = 0; lane < 4; ++lane) {
            const LimitLaneState& state = view->lastFrame().lanes[std::size_t(lane)];
            QVERIFY2(plainNumber(view->peakLabel(lane)->text(), double(state.maxInAnyWindow)),
                     qPrintable(view->peakLabel(lane)->text()));
        }
    }

    // The value labels over the bars of max_in_any_window never overlap; one over L (red)
    // always shows; the bars' title does not reach the plot's edge.
    void peakLabelsDoNotOverlap_data() { windowSizes_data(); }
    void peakLabelsDoNotOverlap() {
        QFETCH(QSize, size);
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(showBigLab(w, dir, size));
        LimitsView* view = w.limitsView();
        // The bars' title ("max in any window"), centred over its rect, stays inside it: off the
        // plot's right edge.
        QCPAxisRect* bars = view->peakLabel(0)->clipAxisRect();
        const QCPAxis* top = bars->axis(QCPAxis::atTop);
        const int title = QFontMetrics(top->labelFont()).horizontalAdvance(top->label());
        QVERIFY2(title <= bars->width(), qPrintable(QStringLiteral("'%1' %2 px over a %3 px rect")
                                                        .arg(top->label())
                                                        .arg(title)
                                                        .arg(bars->width())));
        const LimitsFrame& frame = view->lastFrame();
        QVector<QRectF> shown;
        for (int lane = 0; lane < 4; ++lane) {
            QCPItemText* label = view->peakLabel(lane);
            QVERIFY(label != nullptr);
            if (frame.lanes[std::size_t(lane)].maxInAnyWindow > frame.options.limit.limit) {
                QVERIFY2(label->visible(), qPrintable(label->text()));
            }
            if (!label->visible()) {
                continue;
            }
            const QRectF box =
                QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                    .normalized();
            for (const QRectF& other : shown) {
                QVERIFY2(!box.intersects(other),
                         qPrintable(QStringLiteral("'%1' at %2,%3 %4x%5 overlaps %6,%7 %8x%9")
                                        .arg(label->text())
                                        .arg(box.x())
                                        .arg(box.y())
                                        .arg(box.width())
                                        .arg(box.height())
                                        .arg(other.x())
                                        .arg(other.y())
                                        .arg(other.width())
                                        .arg(other.height())));
            }
            shown.push_back(box);
        }
        QVERIFY(!shown.isEmpty());
    }

    // Both tables fit: every shown cell's text fits its column, nothing scrolls sideways; a
    // column of the algorithms' table hidden for lack of room is named in its header's tooltip
    // and the algorithm, accepted, rejected and max-in-W columns always show.
    void tablesFitWithoutCuttingOrScrolling_data() { windowSizes_data(); }
    void tablesFitWithoutCuttingOrScrolling() {
        QFETCH(QSize, size);
        QTemporaryDir dir;
        MainWindow w;
        QVERIFY(showBigLab(w, dir, size));
        QTableWidget* lanes = w.limitsView()->lanesTable();
        QVERIFY(lanes->isVisible());
        QCOMPARE(lanes->rowCount(), 4);
        const QStringList hidden = verifyTableFits(*lanes);
        if (QTest::currentTestFailed()) {
            return;
        }
        for (int c : {LimitsView::ColAlgorithm, LimitsView::ColAccepted, LimitsView::ColRejected,
                      LimitsView::ColMaxWindow}) {
            QVERIFY(!lanes->isColumnHidden(c));
        }
        for (const QString& header : hidden) {
            QVERIFY2(lanes->horizontalHeaderItem(0)->toolTip().contains(header),
                     qPrintable(lanes->horizontalHeaderItem(0)->toolTip()));
        }
        if (size.width() >= 1920) {
            QVERIFY2(hidden.isEmpty(), qPrintable(hidden.join(QStringLiteral(", "))));
        }
        QTableWidget* keys = w.limitsView()->keysTable();
        QVERIFY(keys->rowCount() > 0);
        const QStringList keysHidden = verifyTableFits(*keys);
        QVERIFY2(keysHidden.isEmpty(), qPrintable(keysHidden.join(QStringLiteral(", "))));
    }

    void theLabIsOffUntilTheTabOpens() {
        QTemporaryDir dir;
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        w.show();
        QVERIFY(!w.limitsLab()->options().enabled);
        ReplaySpec spec;
        spec.file = writeTrace(dir, QStringLiteral("off.csv"), burstRows());
        QVERIFY(w.startSpec(spec));
        w.session()->seek(400);
        QVERIFY(settleAfterSeek(w));
        QVERIFY(w.views().lastFrame()->limits.lanes.empty());
        auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("viewTabs"));
        tabs->setCurrentIndex(1);  // the user opens the tab: the lab re-runs the replay to 400
        QVERIFY(w.limitsLab()->options().enabled);
        QVERIFY(settleAfterSeek(w));
        compareView(*w.limitsView(),
                    referenceFrame(w.limitsLab()->options(), prefixTo(burstRows(), 400)));
    }
};

HITCOUNTER_TEST_MAIN(TestLimitsView)
#include "tst_limits_view.moc"
