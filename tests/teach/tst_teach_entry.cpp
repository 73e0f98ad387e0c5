// The ways into the teaching mode: the main window's Teach action, and `hitcounter --teach`
// run as a process (its screenshot and its errors for bad options).
#include <QAction>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "tests/test_main.h"
#include "ui/teach/lesson_panel.h"
#include "ui/teach/teach_view.h"
#include "ui/window/main_window.h"

using namespace hitcounter::ui;

namespace {

struct Run {
    int exitCode = -1;
    QString errors;
};

Run runApp(const QStringList& arguments) {
    QProcess process;
    process.start(QStringLiteral(HITCOUNTER_GUI), arguments);
    Run run;
    if (!process.waitForFinished(30'000)) {
        process.kill();
        process.waitForFinished();
        run.errors = QStringLiteral("did not finish");
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.errors = QString::fromLocal8Bit(process.readAllStandardError());
    return run;
}

}  // namespace

class TestTeachEntry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
    }

    void teachActionOpensOneTeachingWindow() {
        MainWindow window;
        window.show();
        QAction* teach = nullptr;
        for (QAction* action : window.findChildren<QAction*>()) {
            if (action->text() == QStringLiteral("Teach")) {
                teach = action;
            }
        }
        QVERIFY(teach != nullptr);
        QCOMPARE(teach->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_T));
        QVERIFY(window.findChild<TeachView*>() == nullptr);
        teach->trigger();
        auto* view = window.findChild<TeachView*>();
        QVERIFY(view != nullptr);
        QVERIFY(view->isVisible());
        QVERIFY(view->isWindow());
        QCOMPARE(view->lessonPanel()->lessonId(), QStringLiteral("example"));
        view->showStep(4);
        view->close();
        teach->trigger();
        QCOMPARE(window.findChildren<TeachView*>().size(), 1);
        QCOMPARE(view->currentStep(), 4);
    }

    void teachScreenshotShowsTheExampleAtFullSize() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("teach.png"));
        const Run run = runApp({QStringLiteral("--teach"), QStringLiteral("--screenshot"), file,
                                QStringLiteral("--after"), QStringLiteral("0.2")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.errors));
        const QImage image(file);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 1280 && image.height() >= 800);
    }

    // Build 5: a saved lesson file opens at its step; a bad one names the file and the line.
    void lessonFileOpensAtItsStep() {
        QTemporaryDir dir;
        const QString lesson = dir.filePath(QStringLiteral("past.lesson"));
        QFile file(lesson);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            "# hitcounter lesson 1\nwindow 10\nstep 3\nanswer 3 0\noperations:\n"
            "hit 1\nhit 12\ngetHits 5\n");
        file.close();
        const QString png = dir.filePath(QStringLiteral("past.png"));
        const Run run = runApp({QStringLiteral("--teach"), QStringLiteral("--lesson-file"), lesson,
                                QStringLiteral("--screenshot"), png, QStringLiteral("--after"),
                                QStringLiteral("0.2")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.errors));
        QVERIFY(!QImage(png).isNull());

        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("# hitcounter lesson 1\nwindow 10\noperations:\nhit 1\nhit two\n");
        file.close();
        const Run bad =
            runApp({QStringLiteral("--teach"), QStringLiteral("--lesson-file"), lesson});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.errors.contains(lesson + QStringLiteral(": line 5, column 5")),
                 qPrintable(bad.errors));
    }

    void badTeachingOptionsExitWithTwo_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown lesson")
            << QStringList{"--teach", "--lesson", "nope"} << "no lesson 'nope'";
        QTest::newRow("step past the end")
            << QStringList{"--teach", "--lesson", "boundary", "--step", "99"} << "steps 0 to 5";
        QTest::newRow("negative step") << QStringList{"--teach", "--step", "-1"} << "--step";
        QTest::newRow("step without teach") << QStringList{"--step", "2"} << "need --teach";
        QTest::newRow("lesson and lesson file")
            << QStringList{"--teach", "--lesson", "gap", "--lesson-file", "x.lesson"} << "not both";
        QTest::newRow("missing lesson file")
            << QStringList{"--teach", "--lesson-file", "/nonexistent/x.lesson"}
            << "/nonexistent/x.lesson";
        QTest::newRow("teach with a source")
            << QStringList{"--teach", "--simulate", "steady"} << "--teach and --simulate";
    }

    void badTeachingOptionsExitWithTwo() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        const Run run = runApp(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.errors.contains(mentions), qPrintable(run.errors));
    }
};

HITCOUNTER_TEST_MAIN(TestTeachEntry)
#include "tst_teach_entry.moc"
