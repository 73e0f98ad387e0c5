// The window reads several files as one (issue 27 item 2): a real Combined log no one here
// wrote (logstalgia's example) cut into two servers' logs, one of them rotated into
// access.log.2.gz, access.log.1 and access.log. Replayed: what the window shows after seeks
// forward and back (checkpointed ones included) is what this test counts itself from the
// lines' time fields; `--key source` splits the counts by server; the command line (--replay
// given several times, --state-json) writes the same; a gzip file cut short is named among
// the others. Followed (--follow given twice): the lines appended to both logs are counted.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <map>
#include <memory>

#include "core/sources/source_capabilities.h"
#include "core/time/manual_clock.h"
#include "tests/app/real_log.h"
#include "tests/io/gzip_writer.h"
#include "tests/test_main.h"
#include "ui/sources/kinds/follow_kind.h"
#include "ui/sources/kinds/replay_kind.h"
#include "ui/sources/source_session.h"
#include "ui/window/main_window.h"

using namespace hitcounter;
using namespace hitcounter::testing;
using namespace hitcounter::ui;

namespace {

constexpr qint64 kWindow = 300;

// Each server's lines in (t - 300, t]. Every file is in time order, so by the time the replay
// reaches t it has sent exactly the lines at or before t.
struct Counts {
    Count web1 = 0;
    Count web2 = 0;
    Count total = 0;  // all lines at or before t
};

// Waits (with frames) until the seek to `t` is counted and drawn; false after 60 s.
bool seekAndSettle(MainWindow& w, Timestamp t) {
    w.session()->seek(t);
    const std::uint64_t epoch = w.session()->seekable()->epoch();
    return QTest::qWaitFor(
        [&] {
            if (w.session()->seekable()->progress().seeksApplied < epoch) {
                return false;
            }
            w.waitForFrame(std::chrono::milliseconds(20), true);
            w.frame();
            return w.views().snapshot().head == t;
        },
        60000);
}

}  // namespace

class TestSeveralFiles : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QList<QByteArray> m_web1;  // two lines in three of the real log, in its order
    QList<QByteArray> m_web2;  // the third
    QStringList m_files;       // in the order a user might name them (live file first)

    Counts countsAt(qint64 t) const {
        const auto count = [t](const QList<QByteArray>& lines, bool windowOnly) {
            return Count(std::count_if(lines.begin(), lines.end(), [&](const QByteArray& line) {
                const qint64 time = timeOf(line);
                return time <= t && (!windowOnly || time > t - kWindow);
            }));
        };
        return {count(m_web1, true), count(m_web2, true),
                count(m_web1, false) + count(m_web2, false)};
    }

    // Times inside the log (it spans about 4 minutes): early, middle, its last second.
    QList<qint64> queryTimes() const {
        const qint64 first = timeOf(m_web1.first());
        return {first + 150, first + 40, timeOf(m_web1.last()), first + 90};
    }

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        const QList<QByteArray> real = linesOf(readAll(kRealLog));
        if (real.size() != kRealLogLines) {
            QFAIL("no /usr/share/logstalgia/example.log: run scripts/install-deps.sh");
        }
        for (qsizetype i = 0; i < real.size(); ++i) {
            (i % 3 == 2 ? m_web2 : m_web1).push_back(real[i]);
        }
        const QString live = m_dir.filePath(QStringLiteral("access.log"));
        const QString older = m_dir.filePath(QStringLiteral("access.log.1"));
        const QString oldest = m_dir.filePath(QStringLiteral("access.log.2.gz"));
        const QString other = m_dir.filePath(QStringLiteral("web2.log"));
        writeGzip(oldest, {joined(m_web1.mid(0, 700)).toStdString()});
        QVERIFY(writeAll(older, joined(m_web1.mid(700, 800))));
        QVERIFY(writeAll(live, joined(m_web1.mid(1500))));
        QVERIFY(writeAll(other, joined(m_web2)));
        m_files = {live, other, older, oldest};
    }

    // Opened together (File > Open with several files, or dropped together): the replay reads
    // them as one; seeks forward and back show the test's own counts, by server with the
    // source key.
    void openedTogetherTheWindowCountsThemAsOne() {
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(2'000'000'000));
        MainWindow w(clock);
        w.show();
        QSignalSpy messages(w.session(), &SourceSession::statusMessage);
        w.openFiles(m_files);
        const auto* spec = std::get_if<ReplaySpec>(&w.session()->spec());
        QVERIFY(spec);
        QCOMPARE(spec->files(), m_files);
        const auto* label = w.findChild<QLabel*>(QStringLiteral("replayFilesLabel"));
        QVERIFY(label);
        QCOMPARE(label->text(), QStringLiteral("access.log and 3 more files"));
        const QString loaded = QStringLiteral("Loaded access.log and 3 more files: 3,260 rows");
        QVERIFY(QTest::qWaitFor(
            [&] {
                w.frame();
                return std::any_of(messages.begin(), messages.end(), [&](const auto& message) {
                    return message.front().toString().startsWith(loaded);
                });
            },
            30000));

        ReplaySpec bySource = *spec;
        bySource.key = ReplaySpec::sourceKey();
        QVERIFY(w.startSpec(bySource));
        const QString description = QString::fromStdString(w.session()->source()->describe());
        QVERIFY2(description.contains(m_files.join(QStringLiteral(", "))), qPrintable(description));
        for (const qint64 t : queryTimes()) {
            QVERIFY2(seekAndSettle(w, t), qPrintable(QString::number(t)));
            const Counts want = countsAt(t);
            QCOMPARE(w.views().snapshot().totalHits, want.total);
            QCOMPARE(w.views().snapshot().windowCount, want.web1 + want.web2);
            std::map<std::string, Count> shown;
            for (const KeyRow& row : w.views().lastFrame()->top) {
                shown[row.key] = row.window;
            }
            const std::map<std::string, Count> expected = {{m_files[0].toStdString(), want.web1},
                                                           {m_files[1].toStdString(), want.web2}};
            QCOMPARE(shown, expected);
        }
    }

    // The command line: --replay given four times with --key source; --state-json writes one
    // state per seek with the same counts.
    void theCommandLineReplaysSeveralFiles() {
        const QString out = m_dir.filePath(QStringLiteral("states.jsonl"));
        QStringList arguments;
        for (const QString& file : m_files) {
            arguments << QStringLiteral("--replay") << file;
        }
        QStringList seeks;
        for (const qint64 t : queryTimes()) {
            seeks << QString::number(t);
        }
        arguments << QStringLiteral("--key") << QStringLiteral("source") << QStringLiteral("--seek")
                  << seeks.join(QLatin1Char(',')) << QStringLiteral("--state-json") << out;
        QProcess gui;
        gui.start(QStringLiteral(HITCOUNTER_GUI), arguments);
        QVERIFY(gui.waitForFinished(120000));
        QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());
        const QList<QByteArray> states = linesOf(readAll(out));
        QCOMPARE(states.size(), queryTimes().size());
        for (qsizetype i = 0; i < states.size(); ++i) {
            const qint64 t = queryTimes()[i];
            const Counts want = countsAt(t);
            const QJsonObject state = QJsonDocument::fromJson(states[i]).object();
            QCOMPARE(state.value(QStringLiteral("time")).toInteger(), t);
            QCOMPARE(Count(state.value(QStringLiteral("total")).toInteger()), want.total);
            std::map<QString, Count> shown;
            for (const QJsonValue& key : state.value(QStringLiteral("keys")).toArray()) {
                shown[key.toObject().value(QStringLiteral("key")).toString()] =
                    Count(key.toObject().value(QStringLiteral("window")).toInteger());
            }
            const std::map<QString, Count> expected = {{m_files[0], want.web1},
                                                       {m_files[1], want.web2}};
            QCOMPARE(shown, expected);
        }

        // The source key names servers: with one file it is refused, saying why.
        QProcess one;
        one.start(QStringLiteral(HITCOUNTER_GUI),
                  {QStringLiteral("--replay"), m_files[1], QStringLiteral("--key"),
                   QStringLiteral("source")});
        QVERIFY(one.waitForFinished(30000));
        QCOMPARE(one.exitCode(), 2);
        QVERIFY(one.readAllStandardError().contains("--key source needs several --replay FILE"));

        // A file named twice is refused, named, before any window counts it twice.
        QProcess twice;
        twice.start(QStringLiteral(HITCOUNTER_GUI),
                    {QStringLiteral("--replay"), m_files[1], QStringLiteral("--replay"), m_files[1],
                     QStringLiteral("--seek"), QString::number(queryTimes()[0]),
                     QStringLiteral("--state-json"), out});
        QVERIFY(twice.waitForFinished(30000));
        QCOMPARE(twice.exitCode(), 2);
        QVERIFY(twice.readAllStandardError().contains(m_files[1].toUtf8() + " is named twice"));
    }

    // Two live logs followed into the one window: what is appended to either is counted, each
    // path once; the dock says the second is followed too.
    void twoFollowedLogsAreCountedAsOne() {
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("live")));
        const QString web1 = m_dir.filePath(QStringLiteral("live/web1.log"));
        const QString web2 = m_dir.filePath(QStringLiteral("live/web2.log"));
        QVERIFY(writeAll(web1, joined(m_web1.mid(0, 3))));  // there before: not counted
        QVERIFY(writeAll(web2, joined(m_web2.mid(0, 3))));
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(timeOf(m_web1.last())));
        MainWindow w(clock);
        w.show();
        FollowSpec spec;
        spec.file = web1;
        spec.moreFiles = {web2};
        QVERIFY(w.startSpec(spec));
        const auto* more = w.findChild<QLabel*>(QStringLiteral("followMoreFiles"));
        QVERIFY(more);
        QVERIFY(more->isVisible());
        QCOMPARE(more->text(), QStringLiteral("and 1 more file"));
        const auto append = [](const QString& path, const QList<QByteArray>& lines) {
            QFile file(path);
            return file.open(QIODevice::Append) && file.write(joined(lines)) > 0;
        };
        QVERIFY(append(web1, m_web1.mid(3, 40)));
        QVERIFY(append(web2, m_web2.mid(3, 25)));
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         w.frame();
                         return w.views().snapshot().totalHits == 65;
                     },
                     30000),
                 qPrintable(QString::number(w.views().snapshot().totalHits)));
        QCOMPARE(QString::fromStdString(w.session()->source()->describe()),
                 QStringLiteral("follow %1, %2").arg(web1, web2));
        QCOMPARE(w.session()->source()->stats().lines, std::uint64_t(65));
    }

    // A gzip file cut short among several: the window names that file and where it was cut,
    // and counts the lines before the cut with the other files' lines.
    void aCutFileAmongSeveralIsNamed() {
        const QString cut = m_dir.filePath(QStringLiteral("cut/web3.log.gz"));
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("cut")));
        writeGzip(cut, {joined(m_web2).toStdString()});
        const QByteArray whole = readAll(cut);
        QVERIFY(writeAll(cut, whole.left(whole.size() / 2)));
        auto clock = std::make_shared<ManualClock>(std::chrono::seconds(2'000'000'000));
        MainWindow w(clock);
        w.show();
        w.openFiles({m_files[0], cut});
        QVERIFY(QTest::qWaitFor(
            [&] {
                w.frame();
                return w.errorText().contains(cut + QStringLiteral(": truncated at line"));
            },
            30000));
        QVERIFY2(!w.errorText().contains(m_files[0]), qPrintable(w.errorText()));
    }
};

HITCOUNTER_TEST_MAIN(TestSeveralFiles)
#include "tst_several_files.moc"
