// hitcounter-cli listen --follow, run as a process on a real access log that the test writes,
// rotates by rename and truncates: the report (text and JSON) counts every line exactly once,
// with the rotations and truncations it saw; --from-start; bad follow arguments.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include "tests/app/listen_process.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

using namespace hitcounter::testing;

namespace {

QByteArray combined(int second, const QByteArray& path, int status) {
    return "10.0.0.1 - - [10/Oct/2000:13:55:" + QByteArray::number(10 + second) + " +0000] \"GET " +
           path + "?q=1 HTTP/1.1\" " + QByteArray::number(status) + " 12 \"-\" \"test\"\n";
}

bool write(const QString& file, const QByteArray& text, QIODevice::OpenMode mode) {
    QFile f(file);
    return f.open(mode) && f.write(text) == text.size();
}

bool append(const QString& file, const QByteArray& text) {
    return write(file, text, QIODevice::Append);
}

// Rows in the recording's FILE.partial (flushed at least once a second while listen runs).
int recordedRows(const QString& recording) {
    QFile partial(recording + ".partial");
    if (!partial.open(QIODevice::ReadOnly))
        return -1;
    return int(partial.readAll().count('\n')) - 1;  // minus the header
}

}  // namespace

class TestCliListenFollow : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void countsEveryLineOnceAcrossRotationAndTruncation() {
        QTemporaryDir dir;
        const QString log = dir.filePath("access.log");
        const QString recording = dir.filePath("rec.csv");
        QVERIFY(write(log, combined(0, "/before", 200), QIODevice::WriteOnly));
        ListeningCli cli;
        QVERIFY(cli.start(
            {"--follow", log, "--udp", "127.0.0.1:0", "--record", recording, "--json"}, 1));
        QVERIFY(cli.waitForError("following " + log.toUtf8()));
        // The recording shows what was counted; each step waits for the previous one.
        const auto counted = [&](int rows) {
            return waitUntil([&] { return recordedRows(recording) == rows; },
                             std::chrono::seconds(10));
        };
        QVERIFY(append(log, combined(1, "/a", 200) + combined(2, "/a", 404)));
        QVERIFY(counted(2));
        QVERIFY(QFile::rename(log, log + ".1"));  // logrotate's default: rename, then a new file
        QVERIFY(append(log + ".1", combined(3, "/late-in-old", 200)));
        QVERIFY(write(log, combined(4, "/b", 500) + combined(5, "/b", 500), QIODevice::WriteOnly));
        QVERIFY(counted(5));
        QVERIFY(write(log, combined(6, "/c", 301), QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(counted(6));
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);

        QJsonParseError error;
        const QJsonObject report = QJsonDocument::fromJson(result.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, result.out.constData());
        QCOMPARE(report["hits"].toInteger(), 6);
        const QJsonObject keys = report["keys"].toObject();
        QCOMPARE(keys["/a"].toInteger(), 2);
        QCOMPARE(keys["/late-in-old"].toInteger(), 1);
        QCOMPARE(keys["/b"].toInteger(), 2);
        QCOMPARE(keys["/c"].toInteger(), 1);
        QVERIFY(!keys.contains("/before"));  // there before the start: not a new hit
        QJsonObject follow;
        for (const auto& entry : report["by_listener"].toArray())
            if (entry.toObject()["listener"].toString().startsWith("follow "))
                follow = entry.toObject();
        QCOMPARE(follow["lines"].toInteger(), 6);
        QCOMPARE(follow["hits"].toInteger(), 6);
        QCOMPARE(follow["bad_lines"].toInteger(), 0);
        QCOMPARE(follow["rotations"].toInteger(), 1);
        QCOMPARE(follow["truncations"].toInteger(), 1);
        QCOMPARE(follow["lost_partial_lines"].toInteger(), 0);
    }

    void fromStartReadsTheLinesAlreadyThereAndTheTextReportShowsTheFollower() {
        QTemporaryDir dir;
        const QString log = dir.filePath("access.log");
        QVERIFY(write(log, combined(0, "/x", 200) + "not a log line\n" + combined(1, "/y", 200),
                      QIODevice::WriteOnly));
        const CliResult result =
            runCli({"listen", "--follow", log, "--from-start", "--duration", "0.5"});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("hits 2 "), result.out.constData());
        QVERIFY2(result.out.contains("bad_lines 1 "), result.out.constData());
        QVERIFY2(result.out.contains("rotations 0  truncations 0"), result.out.constData());
        QVERIFY2(!result.err.contains("listening on statsd udp"),  // no default UDP listener
                 result.err.constData());
    }

    // A follower's bad lines were counted and never shown: the report names the newest, with
    // its file:line, the problem and the line, in text and JSON.
    void theReportShowsAFollowersBadLines() {
        QTemporaryDir dir;
        const QString log = dir.filePath("access.log");
        QVERIFY(write(log,
                      combined(0, "/x", 200) + "first bad\n" + combined(1, "/y", 200) +
                          combined(2, "/y", 200) + "second \x1b]0;title\x07 bad\n",
                      QIODevice::WriteOnly));
        const CliResult text =
            runCli({"listen", "--follow", log, "--from-start", "--duration", "0.5"});
        QVERIFY(text.finished);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("problem bad line x2, last: follow"), text.out.constData());
        QVERIFY2(text.out.contains(" at access.log:5: "), text.out.constData());
        QVERIFY2(text.out.contains("\"second \\x1b]0;title\\x07 bad\""), text.out.constData());
        QVERIFY2(!text.out.contains('\x1b'), text.out.constData());

        const CliResult json =
            runCli({"listen", "--follow", log, "--from-start", "--duration", "0.5", "--json"});
        QVERIFY(json.finished);
        QCOMPARE(json.exitCode, 0);
        const QJsonArray problems = QJsonDocument::fromJson(json.out)["problems"].toArray();
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems[0]["kind"].toString(), QStringLiteral("bad line"));
        QCOMPARE(problems[0]["count"].toInteger(), 2);
        QVERIFY2(problems[0]["last"].toString().contains(QStringLiteral("access.log:5: ")),
                 json.out.constData());
    }

    void badFollowArgumentsNameTheProblem_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing file")
            << QStringList{"--follow", "/nonexistent/access.log"} << 1 << "/nonexistent/access.log";
        QTest::newRow("bad format") << QStringList{"--follow", "x.log", "--format", "xml"} << 2
                                    << "--format 'xml' is not a format";
        QTest::newRow("bad key") << QStringList{"--follow", "x.log", "--key", "cookie"} << 2
                                 << "--key 'cookie' is not a key";
        // Issue 30 item 9: a FIFO blocked in open() and ignored --duration; /dev/zero spun.
        const QString fifo = m_dir.filePath("pipe");
        QVERIFY(QFile::exists(fifo) || ::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QTest::newRow("fifo") << QStringList{"--follow", fifo} << 1
                              << "cannot follow '" + fifo + "': it is a FIFO";
        QTest::newRow("character device") << QStringList{"--follow", "/dev/zero"} << 1
                                          << "cannot follow '/dev/zero': it is a character device";
    }
    void badFollowArgumentsNameTheProblem() {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QString, message);
        const CliResult result = runCli(QStringList{"listen", "--duration", "5"} + arguments);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, exitCode);
        QVERIFY2(result.err.contains(message.toUtf8()), result.err.constData());
    }

    // Issue 30 item 9: the followed file replaced by a symlink to /dev/zero read zeros at 100 %
    // CPU and ignored SIGTERM (the report was lost). It is refused and named on stderr; the
    // next regular file at the path is read; SIGTERM ends the run with the report.
    void aDeviceRotatedInIsRefusedAndSigtermStillEndsTheRun() {
        const QString log = m_dir.filePath("rotated.log");
        QVERIFY(write(log, "", QIODevice::WriteOnly));
        ListeningCli cli;
        QVERIFY(cli.start({"--follow", log, "--json"}, 0));
        QVERIFY(cli.waitForError("following " + log.toUtf8()));
        QVERIFY(append(log, combined(1, "/before", 200)));
        QVERIFY(QFile::remove(log));
        QVERIFY(QFile::link("/dev/zero", log));
        QVERIFY(cli.waitForError("cannot follow '" + log.toUtf8() +
                                 "': it is a character device (a regular file is needed)"));
        QVERIFY(QFile::remove(log));
        QVERIFY(write(log, combined(2, "/after", 200), QIODevice::WriteOnly));
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY2(result.finished, "SIGTERM did not end the run");
        QCOMPARE(result.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(result.out).object();
        const QJsonObject keys = report["keys"].toObject();
        QCOMPARE(keys["/before"].toInteger(), 1);
        QCOMPARE(keys["/after"].toInteger(), 1);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliListenFollow)
#include "tst_cli_listen_follow.moc"
