// The settings the GUI reads at start (issue 30 items 17, 18 and 9): a real INI file with bad
// values and a real MainWindow offscreen; the real hitcounter binary with a bad settings file
// in its XDG_CONFIG_HOME; the last source stored as an absolute path; a remembered source that
// is a FIFO or a device.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <optional>

#include "tests/io/fifo_rescuer.h"
#include "tests/io/special_files.h"
#include "tests/test_main.h"
#include "ui/monitor/ring_histogram.h"
#include "ui/sources/recent_files.h"
#include "ui/sources/source_session.h"
#include "ui/sources/source_spec.h"
#include "ui/window/main_window.h"

using namespace hitcounter;
using namespace hitcounter::ui;
using hitcounter::testing::addSpecialFileRows;
using hitcounter::testing::FifoRescuer;
using hitcounter::testing::specialFile;

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

// The problems the window's banner shows ("Settings: A; B; ..."), one per entry.
QStringList shownProblems(const MainWindow& w) {
    QString text = w.errorText();
    if (!text.startsWith(QStringLiteral("Settings: "))) {
        return {};
    }
    return text.mid(10).split(QStringLiteral("; "));
}

QString storedValue(const QString& ini, const QString& key) {
    QSettings settings(ini, QSettings::IniFormat);
    return settings.value(key).toString();
}

}  // namespace

class TestStoredSettings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hitcounter-test"));
    }

    // 3601 .. 2^31-2 aborted the GUI at every start (the ring has at most the history's hour),
    // 2^31-1 threw bad_alloc; 0 and text were taken as "no change" in silence.
    void aBadWindowIsResetAndNamed_data() {
        QTest::addColumn<QByteArray>("stored");
        QTest::newRow("3601") << QByteArray("3601");
        QTest::newRow("5000") << QByteArray("5000");
        QTest::newRow("2^31-2") << QByteArray("2147483646");
        QTest::newRow("2^31-1") << QByteArray("2147483647");
        QTest::newRow("2^40") << QByteArray("1099511627776");
        QTest::newRow("negative") << QByteArray("-60");
        QTest::newRow("text") << QByteArray("lots");
    }
    void aBadWindowIsResetAndNamed() {
        QFETCH(QByteArray, stored);
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("hitcounter.conf"));
        writeFile(ini, "[view]\nwindowSeconds=" + stored + "\nbucketSeconds=10\n");
        MainWindow w;
        {
            QSettings settings(ini, QSettings::IniFormat);
            w.restoreSettings(settings);
        }
        w.resize(1024, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.renderNow();
        QCOMPARE(w.engineOptions().window.count(), std::int64_t{300});
        QCOMPARE(w.ringHistogram()->bucketSeconds(), 10);  // the good value next to it is kept
        QVERIFY2(w.errorText().contains(QStringLiteral("view/windowSeconds")),
                 qPrintable(w.errorText()));
        QVERIFY2(w.errorText().contains(QStringLiteral("reset to 300")), qPrintable(w.errorText()));
        QCOMPARE(storedValue(ini, QStringLiteral("view/windowSeconds")), QStringLiteral("300"));
    }

    // Every key the window reads is checked, each bad one named; the good ones are used.
    void everyBadValueIsNamedAndTheGoodOnesAreUsed() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("hitcounter.conf"));
        writeFile(ini,
                  "[view]\ntheme=purple\nwindowSeconds=900\nbucketSeconds=0\nitemsLevel=7\n"
                  "statusSplit=sideways\nlogY=maybe\ntimeZone=mars\ntab=nowhere\n"
                  "[limits]\nlimit=0\nper=-5\nperKey=perhaps\n"
                  "[alerts]\nthreshold=-1\nnotify=2\n"
                  "[window]\ngeometry=@ByteArray(not a geometry)\n"
                  "[source]\nkind=teleport\npattern=chaos\nrate=-1\nkeys=0\nspeed=7\n"
                  "key=colour\nloop=sometimes\nfromStart=9\n");
        MainWindow w;
        {
            QSettings settings(ini, QSettings::IniFormat);
            w.restoreSettings(settings);
        }
        const QStringList problems = shownProblems(w);
        QCOMPARE(w.engineOptions().window.count(), std::int64_t{900});
        QCOMPARE(w.themeName(), QStringLiteral("light"));
        QCOMPARE(w.ringHistogram()->bucketSeconds(), 1);
        QCOMPARE(w.session()->spec(), SourceSpec{});
        const QStringList keys{"view/theme",       "view/bucketSeconds", "view/itemsLevel",
                               "view/statusSplit", "view/logY",          "view/timeZone",
                               "view/tab",         "limits/limit",       "limits/per",
                               "limits/perKey",    "alerts/threshold",   "alerts/notify",
                               "window/geometry",  "source/kind",        "source/pattern",
                               "source/rate",      "source/keys",        "source/speed",
                               "source/key",       "source/loop",        "source/fromStart"};
        QCOMPARE(problems.size(), keys.size());
        for (const QString& key : keys) {
            QVERIFY2(problems.join(QLatin1Char('\n')).contains(key + QStringLiteral(" = ")),
                     qPrintable(key + QStringLiteral(" not in:\n") + problems.join('\n')));
        }
        // Read again: nothing left to reset.
        MainWindow again;
        QSettings settings(ini, QSettings::IniFormat);
        again.restoreSettings(settings);
        QVERIFY2(again.errorText().isEmpty(), qPrintable(again.errorText()));
        QCOMPARE(again.engineOptions().window.count(), std::int64_t{900});
    }

    // A file QSettings cannot parse was used in silence; it is named, and a copy is kept (the
    // next save rewrites it without the lines it could not parse).
    void aCorruptSettingsFileIsReported() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("hitcounter.conf"));
        const QByteArray corrupt = "[view]\nwindowSeconds=900\n\x01\x02 no equals sign\n[source\n";
        writeFile(ini, corrupt);
        MainWindow w;
        {
            QSettings settings(ini, QSettings::IniFormat);
            w.restoreSettings(settings);
        }
        const QStringList problems = shownProblems(w);
        QVERIFY2(w.errorText().contains(ini) && w.errorText().contains(QStringLiteral("corrupt")),
                 qPrintable(w.errorText()));
        QCOMPARE(problems.size(), 1);
        QCOMPARE(w.engineOptions().window.count(), std::int64_t{900});  // what it could read
        QFile copy(ini + QStringLiteral(".bad"));
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), corrupt);
    }

    // The real binary, its settings where a user's are (XDG_CONFIG_HOME): it starts, says on
    // stderr which key it reset, and keeps running (it aborted at every start).
    void theAppStartsWithABadStoredWindowAndSaysSo() {
        QTemporaryDir home;
        QVERIFY(QDir(home.path()).mkpath(QStringLiteral("hitcounter")));
        const QString ini = home.filePath(QStringLiteral("hitcounter/hitcounter.conf"));
        writeFile(ini, "[view]\nwindowSeconds=5000\n");
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(HITCOUNTER_GUI), {});
        QVERIFY2(gui.waitForStarted(60000), qPrintable(gui.errorString()));
        QByteArray err;
        QElapsedTimer clock;
        clock.start();
        while (!err.contains("view/windowSeconds") && gui.state() == QProcess::Running &&
               clock.elapsed() < 120000) {
            gui.waitForReadyRead(1000);
            err += gui.readAllStandardError();
        }
        QVERIFY2(err.contains("hitcounter: settings: view/windowSeconds = 5000"), err.constData());
        // Still running a while later: the window is up and drawing.
        QVERIFY2(!gui.waitForFinished(3000), err.constData());
        QCOMPARE(gui.state(), QProcess::Running);
        gui.terminate();
        if (!gui.waitForFinished(30000)) {
            gui.kill();
            gui.waitForFinished(30000);
        }
        QCOMPARE(storedValue(ini, QStringLiteral("view/windowSeconds")), QStringLiteral("300"));
    }

    // Item 18: a replay started from a relative path is stored absolute, so a start from
    // another directory finds it (it was stored as given and not found there).
    void theLastSourceAndRecentFilesAreStoredAbsolute() {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("t.csv"));
        writeFile(trace, "timestamp,key\n1,a\n2,b\n");
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        {
            ReplaySpec spec;
            spec.file = QStringLiteral("t.csv");
            QSettings settings(ini, QSettings::IniFormat);
            saveSpec(spec, settings);
            RecentFiles recent(ini);
            recent.add(QStringLiteral("t.csv"));
        }
        QVERIFY(QDir::setCurrent(QDir::rootPath()));  // the next start, elsewhere
        QCOMPARE(storedValue(ini, QStringLiteral("source/file")), trace);
        MainWindow w;
        {
            QSettings settings(ini, QSettings::IniFormat);
            w.restoreSettings(settings);
        }
        QCOMPARE(sourceFile(w.session()->spec()), trace);
        QVERIFY2(w.startSpec(w.session()->spec()), qPrintable(w.errorText()));
        QCOMPARE(RecentFiles(ini).files(), QStringList{trace});
        w.stopSource();
        QVERIFY(QDir::setCurrent(before));
    }

    // Issue 30 item 9: a FIFO as the remembered last source froze the window at every start
    // (open() on the GUI thread waited for a writer); /dev/zero as a replay ran forever. Both
    // are refused at once with a message naming the path and what it is, and the window goes
    // on (its event loop runs, the default source can be started).
    void aRememberedFifoOrDeviceIsRefusedAndTheWindowStaysResponsive_data() {
        addSpecialFileRows(QStringLiteral("replay"), QStringLiteral("follow"));
    }
    void aRememberedFifoOrDeviceIsRefusedAndTheWindowStaysResponsive() {
        QFETCH(QString, source);
        QFETCH(bool, fifo);
        QFETCH(QString, what);
        QTemporaryDir dir;
        const QString path = specialFile(dir, fifo);
        QVERIFY(!path.isEmpty());
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        writeFile(ini, "[source]\nkind=" + source.toUtf8() + "\nfile=" + path.toUtf8() + "\n");
        MainWindow w;
        w.resize(1024, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        {
            QSettings settings(ini, QSettings::IniFormat);
            w.restoreSettings(settings);
        }
        QCOMPARE(sourceFile(w.session()->spec()), path);
        std::optional<FifoRescuer> rescuer;
        if (fifo) {
            rescuer.emplace(QFile::encodeName(path).toStdString());
        }
        QVERIFY(!w.startSpec(w.session()->spec()));
        if (rescuer) {
            QVERIFY2(rescuer->done(), "the window blocked in open() on the FIFO");
        }
        QVERIFY2(w.errorText().contains(path + QStringLiteral("': ") + what),
                 qPrintable(w.errorText()));
        bool fired = false;  // the event loop runs
        QTimer::singleShot(0, &w, [&fired] { fired = true; });
        QTRY_VERIFY_WITH_TIMEOUT(fired, 10000);
        QVERIFY2(w.startSpec(SourceSpec{}), qPrintable(w.errorText()));
        w.stopSource();
    }

    // An entry stored relative by an older version names no file reliably: it is left out.
    void aRelativeRecentEntryIsLeftOut() {
        QTemporaryDir dir;
        const QString ini = dir.filePath(QStringLiteral("s.ini"));
        writeFile(ini, "[recent]\nfiles=t.csv, /abs/u.csv\n");
        QCOMPARE(RecentFiles(ini).files(), QStringList{QStringLiteral("/abs/u.csv")});
    }
};

HITCOUNTER_TEST_MAIN(TestStoredSettings)
#include "tst_stored_settings.moc"
