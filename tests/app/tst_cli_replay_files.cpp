// hitcounter-cli replay and limit with several files, run as a process on a real Combined log
// no one here wrote (logstalgia's example, 3,260 lines): a rotation set (access.log,
// access.log.1, access.log.2.gz) answers exactly what the concatenated log answers; two
// servers' halves of the log with --key source count, per server and query time, the lines
// this test counts itself from their time fields; the errors a user sees.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include "tests/app/cli_process.h"
#include "tests/app/real_log.h"
#include "tests/io/gzip_writer.h"
#include "tests/test_main.h"

using namespace hitcounter::testing;

namespace {

// What replay --json answered and read (not "trace", which names the files, nor the
// policies' timings).
QJsonObject answersOf(const QByteArray& json) {
    const QJsonObject object = QJsonDocument::fromJson(json).object();
    QJsonObject kept;
    for (const char* key : {"answers", "bad_rows", "final_time", "rows", "truncated"})
        kept.insert(QLatin1String(key), object.value(QLatin1String(key)));
    return kept;
}

}  // namespace

class TestCliReplayFiles : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QList<QByteArray> m_real;

    QString path(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase() {
        m_real = linesOf(readAll(kRealLog));
        if (m_real.size() != kRealLogLines)
            QFAIL("no /usr/share/logstalgia/example.log: run scripts/install-deps.sh");
        QVERIFY(m_dir.isValid());
    }

    // The log cut in three and rotated; named in the order a shell's access.log* gives them.
    void aRotationSetAnswersAsItsConcatenation() {
        hitcounter::testing::writeGzip(path(QStringLiteral("access.log.2.gz")),
                                       {joined(m_real.mid(0, 1000)).toStdString()});
        QVERIFY(writeAll(path(QStringLiteral("access.log.1")), joined(m_real.mid(1000, 1200))));
        QVERIFY(writeAll(path(QStringLiteral("access.log")), joined(m_real.mid(2200))));
        const QStringList rotated = {path(QStringLiteral("access.log")),
                                     path(QStringLiteral("access.log.1")),
                                     path(QStringLiteral("access.log.2.gz"))};
        const QString at = QStringLiteral("1240383200,1240383300,1240383411");
        for (const QStringList& options : {QStringList{"--policy", "all", "--json", "--at", at},
                                           QStringList{"--key", "client", "--top", "5", "--at", at},
                                           QStringList{"--uniques", "--at", at}}) {
            const CliResult set = runCli(QStringList{"replay"} + rotated + options);
            const CliResult one = runCli(QStringList{"replay", kRealLog} + options);
            QVERIFY2(set.finished && set.exitCode == 0, set.err.constData());
            QCOMPARE(one.exitCode, 0);
            if (options.contains(QStringLiteral("--json"))) {
                QCOMPARE(answersOf(set.out), answersOf(one.out));
                QCOMPARE(QJsonDocument::fromJson(set.out).object().value("rows").toInteger(), 3260);
            } else {
                QCOMPARE(set.out, one.out);
            }
        }
    }

    // Two servers: the log's lines alternate between web1.log and web2.log. --key source
    // --top 2 at each query time: each server's lines with a time in (T - 300, T], counted
    // here (both halves are in time order, so the merged stream is too).
    void twoServersByKeySource() {
        QList<QByteArray> web1, web2;
        for (qsizetype i = 0; i < m_real.size(); ++i)
            (i % 3 == 0 ? web2 : web1).push_back(m_real[i]);
        const QString one = path(QStringLiteral("web1.log"));
        const QString two = path(QStringLiteral("web2.log"));
        QVERIFY(writeAll(one, joined(web1)));
        QVERIFY(writeAll(two, joined(web2)));
        const QList<qint64> times = {timeOf(m_real.first()) + 60, timeOf(m_real.first()) + 150,
                                     timeOf(m_real.last())};
        QStringList at;
        for (const qint64 t : times)
            at << QString::number(t);
        const CliResult result = runCli({"replay", one, two, "--key", "source", "--top", "2",
                                         "--at", at.join(QLatin1Char(','))});
        QVERIFY2(result.finished && result.exitCode == 0, result.err.constData());
        QByteArray expected = "time,rank,key,count\n";
        for (const qint64 t : times) {
            const auto inWindow = [t](const QList<QByteArray>& lines) {
                return std::count_if(lines.begin(), lines.end(), [t](const QByteArray& line) {
                    const qint64 time = timeOf(line);
                    return time > t - 300 && time <= t;
                });
            };
            const auto n1 = inWindow(web1);
            const auto n2 = inWindow(web2);
            QVERIFY(n1 > n2 && n2 > 0);  // web1 has two lines in three
            expected += QByteArray::number(t) + ",1," + one.toUtf8() + ',' +
                        QByteArray::number(n1) + '\n' + QByteArray::number(t) + ",2," +
                        two.toUtf8() + ',' + QByteArray::number(n2) + '\n';
        }
        QCOMPARE(result.out, expected);
    }

    // limit reads several files the same way: the requests are all lines of both.
    void limitReadsSeveralFiles() {
        const QString one = path(QStringLiteral("first.log"));
        const QString two = path(QStringLiteral("second.log"));
        QVERIFY(writeAll(one, joined(m_real.mid(0, 1500))));
        QVERIFY(writeAll(two, joined(m_real.mid(1500))));
        const CliResult result = runCli(
            {"limit", one, two, "--limit", "10", "--per", "60", "--algorithm", "fixed", "--json"});
        QVERIFY2(result.finished && result.exitCode == 0, result.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(json.value("rows").toInteger(), 3260);
    }

    // --jobs: the lines parsed on several threads answer exactly as on one, for a rotation
    // set with a gzip member and a filter too.
    void jobsAnswerAsOneThread() {
        hitcounter::testing::writeGzip(path(QStringLiteral("jobs.log.1.gz")),
                                       {joined(m_real.mid(0, 1700)).toStdString()});
        QVERIFY(writeAll(path(QStringLiteral("jobs.log")), joined(m_real.mid(1700))));
        const QStringList files = {path(QStringLiteral("jobs.log")),
                                   path(QStringLiteral("jobs.log.1.gz"))};
        const QString at = QStringLiteral("1240383200,1240383411");
        for (const QStringList& options :
             {QStringList{"--policy", "all", "--json", "--at", at},
              QStringList{"--key", "client", "--top", "5", "--at", at},
              QStringList{"--uniques", "--at", at},
              QStringList{"--filter", "status=302", "--top", "3", "--at", at}}) {
            const CliResult one = runCli(QStringList{"replay"} + files + options);
            QVERIFY2(one.finished && one.exitCode == 0, one.err.constData());
            for (const char* jobs : {"2", "5"}) {
                const CliResult many =
                    runCli(QStringList{"replay"} + files + options + QStringList{"--jobs", jobs});
                QVERIFY2(many.finished && many.exitCode == 0, many.err.constData());
                if (options.contains(QStringLiteral("--json")))
                    QCOMPARE(answersOf(many.out), answersOf(one.out));
                else
                    QCOMPARE(many.out, one.out);
            }
        }
    }

    void errorsNameTheProblem_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("mentions");
        QTest::newRow("no file") << QStringList{"replay"} << QByteArray("replay expects FILE...");
        QTest::newRow("stdin with a file")
            << QStringList{"replay", "-", kRealLog}
            << QByteArray("- (standard input) cannot be read with other files");
        QTest::newRow("a file twice") << QStringList{"replay", kRealLog, kRealLog}
                                      << QByteArray("example.log is named twice");
        QTest::newRow("a missing file") << QStringList{"replay", kRealLog, "/nonexistent/web9.log"}
                                        << QByteArray("/nonexistent/web9.log");
        QTest::newRow("bad key") << QStringList{"replay", kRealLog, "--key", "server"}
                                 << QByteArray(
                                        "expected path, path+query, status, method, "
                                        "vhost, source or client");
        QTest::newRow("no jobs") << QStringList{"replay", kRealLog, "--jobs", "0"}
                                 << QByteArray("--jobs");
        QTest::newRow("too many jobs")
            << QStringList{"replay", kRealLog, "--jobs", "65"} << QByteArray("--jobs");
    }
    void errorsNameTheProblem() {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, mentions);
        const CliResult result = runCli(arguments);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(result.err.contains(mentions), result.err.constData());
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliReplayFiles)
#include "tst_cli_replay_files.moc"
