// Issue 15 items 3 and 4 in real widgets (offscreen): the replay bar's state label and seek
// clicks, the toolbar's pause state after opening a trace, an empty trace's message, the
// live plot's time axis in a replay (no time before the trace, looped times labelled within
// the trace) and the zoom/follow rules of the live plot (docs/gui.md).
#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <cmath>

#include "core/sources/follow_set.h"
#include "core/sources/source_capabilities.h"
#include "core/time/manual_clock.h"
#include "tests/test_main.h"
#include "tests/ui/gui_test_steps.h"
#include "tests/ui/known_inputs.h"
#include "tests/ui/running_as.h"
#include "ui/limits/limits_view.h"
#include "ui/monitor/items_panel.h"
#include "ui/monitor/live_plot.h"
#include "ui/monitor/policy_comparison.h"
#include "ui/plot/axis_tickers.h"
#include "ui/plot/display_zone.h"
#include "ui/plot/time_axis.h"
#include "ui/sources/recent_files.h"
#include "ui/sources/replay_bar.h"
#include "ui/sources/source_session.h"
#include "ui/sources/source_spec.h"
#include "ui/sources/source_status.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"
#include "ui/window/window_state.h"

using namespace hitcounter;
using namespace hitcounter::ui;
using hitcounter::testing::framesUntil;
using hitcounter::testing::pushKnownStream;
using hitcounter::testing::runningAs;
using hitcounter::testing::writeOneHitTrace;

namespace {

ReplayProgress loaded(Timestamp first, Timestamp last) {
    ReplayProgress p;
    p.state = ReplayState::Playing;
    p.rows = std::uint64_t(last - first + 1);
    p.first = first;
    p.last = last;
    return p;
}

ReplayProgress ended(Timestamp first, Timestamp last) {
    ReplayProgress p = loaded(first, last);
    p.state = ReplayState::Ended;
    return p;
}

// `w` shown at 1280x720, replaying the trace at `path`.
bool showReplaying(MainWindow& w, const QString& path) {
    w.resize(1280, 720);
    w.show();
    return QTest::qWaitForWindowExposed(&w) && w.session()->openTrace({path});
}

// Loop on or off, as the replay bar's box sets it: an edit of the running replay's spec.
void setLoop(MainWindow& w, bool loop) {
    ReplaySpec spec = std::get<ReplaySpec>(w.session()->spec());
    spec.loop = loop;
    w.session()->edit(spec);
}

// The time axes of every time plot of `w`.
QList<QCPAxis*> everyTimeAxis(MainWindow& w) {
    QList<QCPAxis*> axes{w.livePlot()->xAxis, w.itemsPanel()->plot()->xAxis};
    for (QCPAxisRect* rect : w.comparison()->plot()->axisRects()) {
        if (isTimeAxis(*rect->axis(QCPAxis::atBottom))) {
            axes << rect->axis(QCPAxis::atBottom);
        }
    }
    return axes;
}

// Labels that repeat on one axis, or that are not readable ("1.7·10⁹", "1e+09").
QString labelProblem(const QVector<QString>& labels) {
    for (qsizetype i = 0; i < labels.size(); ++i) {
        if (labels[i].contains(QStringLiteral("·10")) || labels[i].contains(QLatin1Char('e'))) {
            return QStringLiteral("unreadable label '%1'").arg(labels[i]);
        }
        if (labels.indexOf(labels[i]) != i) {
            return QStringLiteral("label '%1' repeats").arg(labels[i]);
        }
    }
    return {};
}

void sendMouse(QWidget* to, QEvent::Type type, QPoint pos, Qt::MouseButton button,
               Qt::MouseButtons buttons) {
    QMouseEvent event(type, QPointF(pos), to->mapToGlobal(QPointF(pos)), button, buttons,
                      Qt::NoModifier);
    QCoreApplication::sendEvent(to, &event);
}

}  // namespace

class TestReplayControls : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
    }

    // ---- item 3: replay controls ----

    void stateLabelSaysPausedWhilePaused() {
        ReplayBar bar;
        bar.updateFrom(loaded(1, 100), 10, true);
        QCOMPARE(bar.stateLabel()->text(), QStringLiteral("paused"));
        QCOMPARE(bar.playButton()->text(), QStringLiteral("Play"));
        bar.updateFrom(loaded(1, 100), 11, false);
        QCOMPARE(bar.stateLabel()->text(), QStringLiteral("playing"));
    }

    // An ended replay's clock runs on (a seek past the end, a fast speed): the bar shows the
    // trace's end, as the views do, never a time wrapped back into the trace.
    void anEndedReplayShowsTheTracesEnd_data() {
        QTest::addColumn<qint64>("now");
        QTest::newRow("seeked to 99999") << qint64(99999);
        QTest::newRow("ran on at 1000x") << qint64(1144);
        QTest::newRow("at the end") << qint64(900);
    }
    void anEndedReplayShowsTheTracesEnd() {
        QFETCH(qint64, now);
        ReplayBar bar;
        bar.updateFrom(ended(1, 900), now, false);
        QCOMPARE(bar.timeLabel()->text(), QStringLiteral("t = 900 s / 900 s"));
        QCOMPARE(bar.seekSlider()->value(), 900);
        QCOMPARE(bar.seekSlider()->value(), bar.seekSlider()->maximum());
        QCOMPARE(bar.stateLabel()->text(), QStringLiteral("ended"));
        // Still playing without loop, the clock just past the end: the end, not the start.
        bar.updateFrom(loaded(1, 900), 905, false);
        QCOMPARE(bar.timeLabel()->text(), QStringLiteral("t = 900 s / 900 s"));
        // With loop the time within the trace.
        bar.setLoop(true);
        bar.updateFrom(loaded(1, 900), 905, false);
        QCOMPARE(bar.timeLabel()->text(), QStringLiteral("t = 5 s / 900 s"));
    }

    // "Pause" means nothing once ended or without a hit: replay from the start, or disabled.
    void theButtonOffersWhatCanBeDone() {
        ReplayBar bar;
        std::vector<Timestamp> seeks;
        std::vector<bool> plays;
        connect(&bar, &ReplayBar::seekRequested, this, [&](Timestamp t) { seeks.push_back(t); });
        connect(&bar, &ReplayBar::playRequested, this, [&](bool play) { plays.push_back(play); });
        QPushButton* button = bar.playButton();

        bar.updateFrom(ended(5, 900), 99999, false);
        QCOMPARE(button->text(), QStringLiteral("Replay from start"));
        QVERIFY(button->isEnabled());
        button->click();
        QCOMPARE(seeks, (std::vector<Timestamp>{5}));
        QVERIFY(plays.empty());  // not paused: it plays on from the start
        bar.updateFrom(ended(5, 900), 99999, true);
        button->click();
        QCOMPARE(seeks, (std::vector<Timestamp>{5, 5}));
        QCOMPARE(plays, (std::vector<bool>{true}));

        ReplayProgress empty;
        empty.state = ReplayState::Ended;
        bar.updateFrom(empty, 0, false);
        QCOMPARE(bar.stateLabel()->text(), QStringLiteral("empty"));
        QVERIFY(!button->isEnabled());
        QVERIFY(button->text() != QStringLiteral("Pause"));
        ReplayProgress failed;
        failed.state = ReplayState::Failed;
        bar.updateFrom(failed, 0, false);
        QVERIFY(!button->isEnabled());

        bar.updateFrom(loaded(5, 900), 10, false);
        QCOMPARE(button->text(), QStringLiteral("Pause"));
        QVERIFY(button->isEnabled());
        button->click();
        QCOMPARE(plays, (std::vector<bool>{true, false}));
        QCOMPARE(seeks.size(), std::size_t(2));
    }

    // A real replay seeked past its end: the bar stands at the end; its button replays it.
    void aSeekPastTheEndShowsTheEndAndReplaysFromStart() {
        QTemporaryDir dir;
        const QString path = writeOneHitTrace(dir, QStringLiteral("t.csv"), 1, 100);
        MainWindow w(std::make_shared<ManualClock>());  // frozen: only seeks move the replay
        QVERIFY(showReplaying(w, path));
        QVERIFY(
            framesUntil(w, [&] { return w.session()->seekable()->progress().first.has_value(); }));
        w.session()->seek(99999);
        ReplayBar* bar = w.replayBar();
        QVERIFY(
            framesUntil(w, [&] { return bar->stateLabel()->text() == QLatin1String("ended"); }));
        QCOMPARE(bar->timeLabel()->text(), QStringLiteral("t = 100 s / 100 s"));
        QCOMPARE(bar->seekSlider()->value(), 100);
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().totalHits == 100; }));
        QCOMPARE(bar->playButton()->text(), QStringLiteral("Replay from start"));
        bar->playButton()->click();
        QVERIFY(framesUntil(w, [&] {
            return w.session()->seekable()->progress().state == ReplayState::Playing &&
                   w.views().snapshot().totalHits == 1;
        }));
        QCOMPARE(bar->timeLabel()->text(), QStringLiteral("t = 1 s / 100 s"));
        QCOMPARE(bar->playButton()->text(), QStringLiteral("Pause"));
    }

    // The Go to box: steps from the time shown and absolute trace seconds seek there (every
    // view rebuilt: one hit a second from 1 s, so the totals say where the replay stands),
    // clamped to the trace; what is not a time is refused and named, with no seek.
    void theGoToBoxSeeksToATypedTime() {
        QTemporaryDir dir;
        const QString path = writeOneHitTrace(dir, QStringLiteral("t.csv"), 1, 1000);
        MainWindow w(std::make_shared<ManualClock>());  // frozen: only seeks move the replay
        QVERIFY(showReplaying(w, path));
        QVERIFY(
            framesUntil(w, [&] { return w.session()->seekable()->progress().first.has_value(); }));
        w.session()->seek(1000);
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().totalHits == 1000; }));
        ReplayBar* bar = w.replayBar();
        QVERIFY(framesUntil(w, [&] { return bar->goToEdit()->isEnabled(); }));
        QSignalSpy refused(bar, &ReplayBar::goToRefused);
        const auto goTo = [&](const QString& text, Count total) {
            bar->goToEdit()->setText(text);
            QTest::keyClick(bar->goToEdit(), Qt::Key_Return);
            return framesUntil(w, [&] {
                return w.views().snapshot().totalHits == total &&
                       w.views().snapshot().head == Timestamp(total);
            });
        };
        QVERIFY(goTo(QStringLiteral("-300"), 700));
        QCOMPARE(w.views().snapshot().windowCount, Count(300));
        QVERIFY(goTo(QStringLiteral("+1m40s"), 800));
        QVERIFY(goTo(QStringLiteral("250"), 250));
        QVERIFY(goTo(QStringLiteral("-1h"), 1));  // before the trace: its first second
        QVERIFY(goTo(QStringLiteral("+2d"), 1000));
        QCOMPARE(refused.count(), 0);
        bar->goToEdit()->setText(QStringLiteral("06:55"));  // trace seconds have no clock
        QTest::keyClick(bar->goToEdit(), Qt::Key_Return);
        QCOMPARE(refused.count(), 1);
        QVERIFY2(refused.front().front().toString().contains(QStringLiteral("'06:55'")),
                 qPrintable(refused.front().front().toString()));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().head == 1000; }));
    }

    // The status bar does not keep "Started replay ... (loading, 0 rows)" once it loaded.
    void theStatusBarSaysWhatTheReplayLoaded() {
        QTemporaryDir dir;
        const QString path = writeOneHitTrace(dir, QStringLiteral("t.csv"), 3, 1002);
        MainWindow w(std::make_shared<ManualClock>());
        QVERIFY(showReplaying(w, path));
        QVERIFY(framesUntil(w, [&] {
            return w.statusBar()->currentMessage().startsWith(QStringLiteral("Loaded"));
        }));
        const QString message = w.statusBar()->currentMessage();
        QVERIFY2(message.contains(QStringLiteral("t.csv")), qPrintable(message));
        const QLocale locale;
        QVERIFY2(message.contains(locale.toString(1000) + QStringLiteral(" rows")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("3 s to %1 s").arg(locale.toString(1002))),
                 qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("loading")), qPrintable(message));
    }

    void clickingTheSeekBarSeeksToTheClick() {
        ReplayBar bar;
        bar.resize(900, 40);
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        bar.updateFrom(loaded(0, 1000), 10, false);
        std::vector<Timestamp> seeks;
        connect(&bar, &ReplayBar::seekRequested, this, [&](Timestamp t) { seeks.push_back(t); });
        QSlider* slider = bar.seekSlider();
        const QPoint at(slider->width() * 8 / 10, slider->height() / 2);
        QTest::mouseClick(slider, Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(seeks.size(), std::size_t(1));
        const Timestamp target = seeks.front();
        // About 80 % of the trace (the handle's width makes it inexact), not one page (50 s).
        QVERIFY2(target > 700 && target < 900, QByteArray::number(qlonglong(target)));
    }

    void openingATraceWhilePausedShowsItPlaying() {
        QTemporaryDir dir;
        const QString first = writeOneHitTrace(dir, QStringLiteral("a.csv"), 1, 100);
        const QString second = writeOneHitTrace(dir, QStringLiteral("b.csv"), 1, 50);
        MainWindow w(std::make_shared<ManualClock>());
        auto* pause = w.findChild<QAction*>(QStringLiteral("pauseAction"));
        QVERIFY(pause);
        QVERIFY(w.session()->openTrace({first}));
        QVERIFY(
            framesUntil(w, [&] { return w.session()->seekable()->progress().first.has_value(); }));
        w.frame();
        w.setPaused(true);
        QVERIFY(w.session()->pausable()->paused());
        QCOMPARE(pause->text(), QStringLiteral("Resume"));
        QVERIFY(w.session()->openTrace({second}));
        QVERIFY(
            framesUntil(w, [&] { return w.session()->seekable()->progress().first.has_value(); }));
        // The load may end after a frame's tick: frames until one reports it (under ASan on a
        // busy machine one frame was not enough).
        QVERIFY(framesUntil(w, [&] { return pause->text() == QStringLiteral("Pause"); }));
        QVERIFY(!w.session()->pausable()->paused());
        QVERIFY(!pause->isChecked());
        // The replay bar's button pauses: the toolbar follows.
        w.replayBar()->playButton()->click();
        QVERIFY(w.session()->pausable()->paused());
        w.frame();
        QCOMPARE(pause->text(), QStringLiteral("Resume"));
        QVERIFY(pause->isChecked());
    }

    void anEmptyTraceSaysSo() {
        QTemporaryDir dir;
        const QString empty = writeOneHitTrace(dir, QStringLiteral("empty.csv"), 1, 0);
        MainWindow w(std::make_shared<ManualClock>());
        w.show();  // the error banner is a visible widget
        QVERIFY(w.session()->openTrace({empty}));
        QVERIFY(framesUntil(w, [&] { return !w.errorText().isEmpty(); }));
        QVERIFY2(w.errorText().contains(QStringLiteral("empty")), qPrintable(w.errorText()));
        QVERIFY(w.errorText().contains(QStringLiteral("empty.csv")));
        QCOMPARE(w.replayBar()->timeLabel()->text(), QStringLiteral("no hits in the trace"));
        QCOMPARE(w.replayBar()->stateLabel()->text(), QStringLiteral("empty"));
    }

    void theTraceAxisStartsAtTheTrace() {
        QTemporaryDir dir;
        const QString path = writeOneHitTrace(dir, QStringLiteral("t.csv"), 1, 1000);
        MainWindow w(std::make_shared<ManualClock>());  // frozen: the replay stays at its start
        QVERIFY(w.session()->openTrace({path}));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().windowCount > 0; }));
        const QCPRange range = w.livePlot()->xAxis->range();
        QVERIFY2(range.lower >= 0.5, QByteArray::number(range.lower));
        QVERIFY(range.upper >= 2.0);
        QVERIFY(w.livePlot()->following());
        // One hit so far: said in the singular.
        QVERIFY2(w.livePlot()->titleText().startsWith(QStringLiteral("Live window: 1 hit in")),
                 qPrintable(w.livePlot()->titleText()));
    }

    // A 3-second trace under the 5-minute axis: a few trace-time ticks, not one pair per pass
    // (about 50 labels "2 4 2 4" ran into one another), and whole count labels.
    void aShortTraceHasReadableAxes() {
        QTemporaryDir dir;
        const QString path = writeOneHitTrace(dir, QStringLiteral("t.csv"), 1, 3);
        MainWindow w(std::make_shared<ManualClock>());
        QVERIFY(showReplaying(w, path));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().windowCount > 0; }));
        LivePlot* plot = w.livePlot();
        plot->xAxis->setRange(0, 300);  // the axis a window of 300 s shows
        plot->replot();
        const QVector<double> ticks = plot->xAxis->tickVector();
        QVERIFY(!ticks.isEmpty());
        QVERIFY2(ticks.size() <= 2 * plot->xAxis->ticker()->tickCount(),
                 qPrintable(QString::number(ticks.size())));
        // Its few hits: the count axes are labelled 0, 1, 2, 3, never "1.250000".
        for (QCPAxis* axis : {plot->yAxis, plot->yAxis2}) {
            const QVector<QString> labels = axis->tickVectorLabels();
            QVERIFY2(labels.size() >= 2, qPrintable(axis->label()));
            for (const QString& label : labels) {
                bool whole = false;
                QLocale().toLongLong(label, &whole);
                QVERIFY2(whole, qPrintable(axis->label() + QStringLiteral(": ") + label));
            }
        }
    }

    // The comparison's small charts have no axis title: their trace-time ticks carry the unit.
    void theComparisonChartsTicksSayTraceSeconds() {
        QTemporaryDir dir;
        const QString path = writeOneHitTrace(dir, QStringLiteral("t.csv"), 1, 400);
        MainWindow w(std::make_shared<ManualClock>());
        QVERIFY(showReplaying(w, path));
        QVERIFY(framesUntil(w, [&] { return w.comparison()->countGraph(0) != nullptr; }));
        w.comparison()->plot()->replot();
        QCPAxis* time = w.comparison()->countGraph(0)->keyAxis();
        QVERIFY(time->label().isEmpty());
        QVERIFY(!time->tickVectorLabels().isEmpty());
        for (const QString& label : time->tickVectorLabels()) {
            QVERIFY2(label.endsWith(QStringLiteral(" s")), qPrintable(label));
        }
    }

    void plainNumberTickerWritesTheDecimalsATickNeeds() {
        PlainNumberTicker any;
        QVector<double> ticks;
        QVector<QString> labels;
        any.generate(QCPRange(0, 1.25), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
        QVERIFY(labels.contains(QStringLiteral("0.5")));
        QVERIFY(!labels.contains(QStringLiteral("0.500000")));
        for (const QString& label : labels) {
            QVERIFY2(!label.endsWith(QLatin1Char('0')) || label == QStringLiteral("0"),
                     qPrintable(label));
        }
        PlainNumberTicker whole(PlainNumberTicker::Values::Whole);
        whole.generate(QCPRange(0, 1.25), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr,
                       &labels);
        QVector<double> inside;  // generate() keeps one tick beyond each end
        std::copy_if(ticks.begin(), ticks.end(), std::back_inserter(inside),
                     [](double t) { return t >= 0 && t <= 1.25; });
        QCOMPARE(inside, (QVector<double>{0.0, 1.0}));
        // A step of 2.5 (QCustomPlot's choice for 0 to 12.5) would tick 7.5 on a count axis.
        whole.generate(QCPRange(0, 12.5), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr,
                       &labels);
        for (double t : ticks) {
            QCOMPARE(t, std::round(t));
        }
        // From a million, the whole axis in one unit: "0.5 M" beside "1 M", not "500,000".
        any.generate(QCPRange(0, 1.6e6), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr,
                     &labels);
        for (int i = 0; i < ticks.size(); ++i) {
            if (ticks[i] != 0) {
                QVERIFY2(labels[i].endsWith(QStringLiteral(" M")), qPrintable(labels[i]));
            }
        }
        QVERIFY2(labels.contains(QStringLiteral("0.5 M")),
                 qPrintable(labels.join(QLatin1Char(' '))));
    }

    void aLoopedTraceIsLabelledWithinTheTrace() {
        LivePlot plot;
        plot.resize(800, 400);
        plot.setTimeAxisMode(TimeAxisMode::Trace);
        plot.setReplayTrace(1, 100, true);  // span 100 s, looping
        plot.setFollowing(false);
        plot.xAxis->setRange(150, 350);  // passes 2 and 3
        plot.replot();
        const QVector<QString> labels = plot.xAxis->tickVectorLabels();
        QVERIFY(!labels.isEmpty());
        for (const QString& label : labels) {
            bool ok = false;
            const double t = QLocale().toDouble(label, &ok);
            QVERIFY2(ok && t >= 1 && t <= 100.5, qPrintable(label));
        }
        // Not looped (yet): the time past the end is still to come, labelled as it is.
        plot.setReplayTrace(1, 100, false);
        plot.replot();
        QVERIFY(plot.xAxis->tickVectorLabels().contains(QStringLiteral("200")));
        // A 60 s trace in its 2nd to 7th pass: round trace times (20, 40, 60, 20, ...), not
        // the wrapped labels of round counter times (30, 20, 10, 60, 50, 40).
        plot.setReplayTrace(1, 60, true);
        plot.xAxis->setRange(102, 403);
        plot.replot();
        const QVector<QString> looped = plot.xAxis->tickVectorLabels();
        QVERIFY(looped.size() >= 6);
        for (const QString& label : looped) {
            const int t = label.toInt();
            QVERIFY2(t >= 1 && t <= 60 && t % 20 == 0, qPrintable(label));
        }
        QCOMPARE(wrapTraceTime(150, TraceWrap{1, 100}), 50.0);
        QCOMPARE(wrapTraceTime(100, TraceWrap{1, 100}), 100.0);
    }

    // ---- issue 23 ----

    // Item 3: a file that cannot be opened (missing, or no known format) is detected before
    // anything stops: the good replay plays on with its time axes, and only files that opened
    // are in the recent files (those started any way: open, drop, --replay, --follow).
    void aFailedOpenKeepsTheRunningReplay() {
        QTemporaryDir dir;
        const QString good = writeOneHitTrace(dir, QStringLiteral("good.csv"), 1, 400);
        const QString garbage = dir.filePath(QStringLiteral("garbage.bin"));
        {
            QFile file(garbage);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArrayLiteral("\x01\x02 no trace, no log \xff\n").repeated(10));
        }
        const QString missing = dir.filePath(QStringLiteral("missing.log"));
        MainWindow w(std::make_shared<ManualClock>(std::chrono::seconds(1'000'000)));
        w.show();
        w.recentFiles()->clear();
        w.openFiles({good});
        Source* replay = w.session()->source();
        QVERIFY(w.session()->seekable() != nullptr);
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().windowCount > 0; }));
        QVERIFY(!isClockAxis(*w.livePlot()->xAxis));  // small trace seconds
        for (const QString& bad : {garbage, missing}) {
            w.openFiles({bad});
            QVERIFY2(w.errorText().contains(QFileInfo(bad).fileName()), qPrintable(w.errorText()));
            QCOMPARE(w.session()->source(), replay);  // the same replay, still running
            QVERIFY(replay->running());
            QCOMPARE(sourceFile(w.session()->spec()), good);
            QVERIFY(!isClockAxis(*w.livePlot()->xAxis));
            w.frame();
            w.livePlot()->replot();
            QCOMPARE(labelProblem(w.livePlot()->xAxis->tickVectorLabels()), QString());
        }
        QCOMPARE(w.recentFiles()->files(), QStringList{good});
        // Started as --follow and --replay do (startSpec): remembered too.
        const QString log = dir.filePath(QStringLiteral("access.log"));
        {
            QFile file(log);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] \"GET / HTTP/1.1\" 200 5\n");
        }
        FollowSpec follow;
        follow.file = log;
        QVERIFY(w.startSpec(follow));
        QCOMPARE(w.recentFiles()->files(), (QStringList{log, good}));
        follow.file = missing;
        QVERIFY(!w.startSpec(follow));
        QVERIFY(runningAs<FollowSet>(*w.session()) != nullptr);  // the good follow runs on
        QCOMPARE(w.recentFiles()->files(), (QStringList{log, good}));
        w.recentFiles()->clear();
    }

    // Item 4: every state text follows the source: the status bar, a snapshot's settings and
    // the state JSON say "paused" while paused, and the speed and loop in use.
    void theStateTextsFollowTheReplay() {
        QTemporaryDir dir;
        const QString path = writeOneHitTrace(dir, QStringLiteral("t.csv"), 1, 400);
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        QVERIFY(showReplaying(w, path));
        QVERIFY(
            framesUntil(w, [&] { return w.session()->seekable()->progress().first.has_value(); }));
        auto* status = w.findChild<QLabel*>(QStringLiteral("statusSource"));
        QVERIFY(status);
        const auto says = [&](const QString& word) {
            w.frame();
            return status->toolTip().contains(word) &&
                   windowSettingsUsed(w).value(QStringLiteral("source")).toString().contains(word);
        };
        QVERIFY(framesUntil(w, [&] { return says(QStringLiteral("playing")); }));
        QCOMPARE(windowSettingsUsed(w).value(QStringLiteral("state")).toString(),
                 QStringLiteral("playing"));
        w.setPaused(true);
        QVERIFY2(says(QStringLiteral("paused")), qPrintable(status->toolTip()));
        QVERIFY(!status->toolTip().contains(QStringLiteral("playing")));
        QCOMPARE(windowSettingsUsed(w).value(QStringLiteral("state")).toString(),
                 QStringLiteral("paused"));
        QCOMPARE(sourceStateName(w.session()->source(), w.paused()), QStringLiteral("paused"));
        // Speed and loop from the replay bar: the source, the spec and the settings agree.
        auto* speed = w.replayBar()->findChild<QComboBox*>();
        QVERIFY(speed);
        speed->setCurrentIndex(speed->findData(10.0));
        Q_EMIT speed->activated(speed->currentIndex());
        QCOMPARE(w.session()->speedControl()->speed(), 10.0);
        QCOMPARE(std::get<ReplaySpec>(w.session()->spec()).speed, 10.0);
        QCOMPARE(windowSettingsUsed(w).value(QStringLiteral("speed")).toDouble(), 10.0);
        QVERIFY(says(QStringLiteral("10x")));
        setLoop(w, true);
        QVERIFY(says(QStringLiteral("loop")));
        QCOMPARE(windowSettingsUsed(w).value(QStringLiteral("loop")).toBool(), true);
        w.setPaused(false);
        QVERIFY(says(QStringLiteral("playing")));
        // Ended: the state says so.
        setLoop(w, false);
        clock->advance(std::chrono::seconds(100));
        QVERIFY(framesUntil(w, [&] { return says(QStringLiteral("ended")); }));
        QCOMPARE(windowSettingsUsed(w).value(QStringLiteral("state")).toString(),
                 QStringLiteral("ended"));
    }

    // Item 10: with loop on, every time axis labels the second pass by its place in the trace,
    // as the live plot does; none runs past the trace's end.
    void aLoopingReplayLabelsEveryTimeAxisAlike() {
        QTemporaryDir dir;
        const QString path = writeOneHitTrace(dir, QStringLiteral("loop.csv"), 1, 60);
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
        MainWindow w(clock);
        QVERIFY(showReplaying(w, path));
        setLoop(w, true);
        QVERIFY(
            framesUntil(w, [&] { return w.session()->seekable()->progress().first.has_value(); }));
        clock->advance(std::chrono::seconds(100));  // 1 to 60, then 41 s of the second pass
        QVERIFY(framesUntil(w, [&] {
            return w.session()->seekable()->progress().loops >= 1 &&
                   w.views().snapshot().head >= 95;
        }));
        w.renderNow();
        QVERIFY(w.livePlot()->traceWrap().has_value());
        for (QCPAxis* axis : everyTimeAxis(w)) {
            axis->parentPlot()->replot();
            const QVector<double> ticks = axis->tickVector();
            const QVector<QString> labels = axis->tickVectorLabels();
            QVERIFY(!labels.isEmpty());
            for (int i = 0; i < labels.size(); ++i) {
                QString text = labels[i];
                text.remove(QStringLiteral(" s"));
                bool ok = false;
                const qlonglong t = QLocale().toLongLong(text, &ok);
                QVERIFY2(ok && t <= 61,  // (the key plot shows the 2 minutes before the start)
                         qPrintable(QStringLiteral("%1 at %2: '%3'")
                                        .arg(axis->parentPlot()->objectName())
                                        .arg(ticks.value(i))
                                        .arg(labels[i])));
            }
        }
    }

    // Item 13: a trace of unix seconds (gen --start, recordings) reads as dates and clock times
    // in the zone shown, on every axis and in the replay bar; no axis repeats a label.
    void aTraceOfUnixSecondsReadsAsDates() {
        QTemporaryDir dir;
        const QString path =
            writeOneHitTrace(dir, QStringLiteral("unix.csv"), 1700000000, 1700000400);
        MainWindow w(std::make_shared<ManualClock>(std::chrono::seconds(1'000'000)));
        w.setTimeZone(ZoneChoice::Utc);
        QVERIFY(showReplaying(w, path));
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().windowCount > 0; }));
        w.session()->seek(1700000350);
        QVERIFY(framesUntil(w, [&] { return w.views().snapshot().head == 1700000350; }));
        w.renderNow();
        for (QCPAxis* axis : everyTimeAxis(w)) {
            QVERIFY2(isClockAxis(*axis), qPrintable(axis->parentPlot()->objectName()));
            axis->parentPlot()->replot();
            const QVector<QString> labels = axis->tickVectorLabels();
            QVERIFY(!labels.isEmpty());
            QCOMPARE(labelProblem(labels), QString());
            for (const QString& label : labels) {
                QVERIFY2(label.contains(QLatin1Char(':')), qPrintable(label));  // 22:18, not 1.7e9
            }
        }
        QVERIFY2(w.livePlot()->xAxis->label().contains(QStringLiteral("UTC")),
                 qPrintable(w.livePlot()->xAxis->label()));
        // 1700000350 is 2023-11-14 22:19:10 UTC
        QVERIFY2(w.replayBar()->timeLabel()->text().startsWith(
                     QStringLiteral("2023-11-14 22:19:10 / 22:20:00 UTC")),
                 qPrintable(w.replayBar()->timeLabel()->text()));
    }

    // Item 13: no time axis repeats a label or prints an exponent, at any zoom, in clock and in
    // trace time, in any zone.
    void noTimeAxisRepeatsALabel_data() {
        QTest::addColumn<int>("mode");
        QTest::addColumn<double>("lower");
        QTest::addColumn<double>("width");
        for (double width :
             {8.0, 70.0, 301.0, 900.0, 3700.0, 5 * 3600.0, 86400.0, 3 * 86400.0, 40 * 86400.0}) {
            QTest::addRow("clock %g s", width) << int(TimeAxisMode::Clock) << 1700000003.0 << width;
            QTest::addRow("trace %g s", width) << int(TimeAxisMode::Trace) << 3.0 << width;
        }
    }
    void noTimeAxisRepeatsALabel() {
        QFETCH(int, mode);
        QFETCH(double, lower);
        QFETCH(double, width);
        for (const ZoneChoice zone : {ZoneChoice::Utc, ZoneChoice::Local, ZoneChoice::Log}) {
            ZoneSetting::instance().setZone(resolveZone(zone, 12 * 3600 + 45 * 60));
            for (const QSize size : {QSize(1280, 300), QSize(400, 200)}) {
                QCustomPlot plot;
                plot.resize(size);
                setTimeAxis(*plot.xAxis, TimeAxisMode(mode));
                plot.xAxis->setRange(lower, lower + width);
                plot.replot();
                const QVector<QString> labels = plot.xAxis->tickVectorLabels();
                QVERIFY(labels.size() >= 2);
                QVERIFY2(labelProblem(labels).isEmpty(),
                         qPrintable(labelProblem(labels) + QStringLiteral(": ") +
                                    labels.toList().join(QLatin1Char(' '))));
            }
        }
        ZoneSetting::instance().setZone(resolveZone(ZoneChoice::Local, std::nullopt));
    }

    // ---- item 4: zoom and follow ----

    void zoomWhileFollowingKeepsTheRightEdgeAtNow() {
        MainWindow w;
        pushKnownStream(w.queue());
        w.renderNow();
        LivePlot* plot = w.livePlot();
        const double upper = plot->xAxis->range().upper;
        QCOMPARE(upper, 1010.5);
        plot->zoomTime(0.5);
        QVERIFY(plot->following());
        QCOMPARE(plot->xAxis->range().upper, upper);
        QCOMPARE(plot->xAxis->range().size(), 151.0);
        plot->zoomTime(2.0);
        QCOMPARE(plot->xAxis->range().size(), 301.0);
        plot->zoomTime(0.5);
        w.queue().tryPush(HitBatch{HitEvent{1100, "", "", 3}});
        QVERIFY(w.waitForFrame(std::chrono::seconds(5), true));
        QCOMPARE(plot->xAxis->range().upper, 1101.5);
        QCOMPARE(plot->xAxis->range().size(), 151.0);
    }

    void aClickKeepsFollowADragLeavesIt() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        pushKnownStream(w.queue());
        w.renderNow();
        LivePlot* plot = w.livePlot();
        const QPoint mid = plot->axisRect()->rect().center();
        QTest::mouseClick(plot, Qt::LeftButton, Qt::NoModifier, mid);
        QVERIFY(plot->following());
        sendMouse(plot, QEvent::MouseButtonPress, mid, Qt::LeftButton, Qt::LeftButton);
        sendMouse(plot, QEvent::MouseMove, mid + QPoint(60, 0), Qt::NoButton, Qt::LeftButton);
        sendMouse(plot, QEvent::MouseButtonRelease, mid + QPoint(60, 0), Qt::LeftButton,
                  Qt::NoButton);
        QVERIFY(!plot->following());
        QVERIFY(plot->xAxis->range().upper < 1010.5);  // panned into the past
    }

    void wheelWhileFollowingZoomsAtNow() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        pushKnownStream(w.queue());
        w.renderNow();
        LivePlot* plot = w.livePlot();
        const QPointF mid = plot->axisRect()->rect().center();
        QWheelEvent wheel(mid, plot->mapToGlobal(mid), QPoint(), QPoint(0, 120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(plot, &wheel);
        QVERIFY(plot->following());
        QCOMPARE(plot->xAxis->range().upper, 1010.5);
        QVERIFY(plot->xAxis->range().size() < 300.0);
    }

    void doubleClickResets() {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        pushKnownStream(w.queue());
        w.renderNow();
        LivePlot* plot = w.livePlot();
        plot->zoomTime(0.5);
        plot->setFollowing(false);
        plot->xAxis->setRange(100, 200);
        const QPoint mid = plot->axisRect()->rect().center();
        QTest::mouseDClick(plot, Qt::LeftButton, Qt::NoModifier, mid);
        QVERIFY(plot->following());
        QCOMPARE(plot->xAxis->range().upper, 1010.5);
        QCOMPARE(plot->xAxis->range().size(), 301.0);
    }
};

HITCOUNTER_TEST_MAIN(TestReplayControls)
#include "tst_replay_controls.moc"
