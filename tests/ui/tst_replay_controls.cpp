// Issue 15 item 3 in real widgets (offscreen): the replay bar's state label and seek clicks,
// the toolbar's pause state after opening a trace, an empty trace's message.
#include <QAction>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "core/time/manual_clock.h"
#include "ui/main_window.h"
#include "ui/replay_bar.h"
#include "ui/source_session.h"
#include "ui/source_spec.h"

using namespace hitcounter;
using namespace hitcounter::ui;

namespace {

// A trace CSV with one hit in each of seconds first..last (none if last < first).
QString writeTrace(const QTemporaryDir& dir, const QString& name, int first, int last) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        return {};
    }
    file.write("timestamp,key,visitor\n");
    for (int t = first; t <= last; ++t) {
        file.write(QStringLiteral("%1,k,u\n").arg(t).toUtf8());
    }
    return path;
}

ReplayProgress loaded(Timestamp first, Timestamp last) {
    ReplayProgress p;
    p.state = ReplayState::Playing;
    p.rows = std::uint64_t(last - first + 1);
    p.first = first;
    p.last = last;
    return p;
}

// Frames until `done` (bounded: about 10 s).
template <typename Done>
bool framesUntil(MainWindow& w, Done done) {
    for (int i = 0; i < 1000; ++i) {
        w.frame();
        if (done()) {
            return true;
        }
        QTest::qWait(10);
    }
    return false;
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
        const QString first = writeTrace(dir, QStringLiteral("a.csv"), 1, 100);
        const QString second = writeTrace(dir, QStringLiteral("b.csv"), 1, 50);
        MainWindow w(std::make_shared<ManualClock>());
        auto* pause = w.findChild<QAction*>(QStringLiteral("pauseAction"));
        QVERIFY(pause);
        QVERIFY(w.session()->openTrace(first));
        QVERIFY(framesUntil(w, [&] { return w.replay()->progress().first.has_value(); }));
        w.setPaused(true);
        QVERIFY(w.replay()->paused());
        QCOMPARE(pause->text(), QStringLiteral("Resume"));
        QVERIFY(w.session()->openTrace(second));
        QVERIFY(framesUntil(w, [&] { return w.replay()->progress().first.has_value(); }));
        QVERIFY(!w.replay()->paused());
        QCOMPARE(pause->text(), QStringLiteral("Pause"));
        QVERIFY(!pause->isChecked());
        // The replay bar's button pauses: the toolbar follows.
        w.replayBar()->playButton()->click();
        QVERIFY(w.replay()->paused());
        w.frame();
        QCOMPARE(pause->text(), QStringLiteral("Resume"));
        QVERIFY(pause->isChecked());
    }

    void anEmptyTraceSaysSo() {
        QTemporaryDir dir;
        const QString empty = writeTrace(dir, QStringLiteral("empty.csv"), 1, 0);
        MainWindow w(std::make_shared<ManualClock>());
        w.show();  // the error banner is a visible widget
        QVERIFY(w.session()->openTrace(empty));
        QVERIFY(framesUntil(w, [&] { return !w.errorText().isEmpty(); }));
        QVERIFY2(w.errorText().contains(QStringLiteral("empty")), qPrintable(w.errorText()));
        QVERIFY(w.errorText().contains(QStringLiteral("empty.csv")));
        QCOMPARE(w.replayBar()->timeLabel()->text(), QStringLiteral("no hits in the trace"));
        QCOMPARE(w.replayBar()->stateLabel()->text(), QStringLiteral("empty"));
    }
};

QTEST_MAIN(TestReplayControls)
#include "tst_replay_controls.moc"
