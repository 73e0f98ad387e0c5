// hitcounter-cli simulate, run as a process: the window count it prints matches gen + replay
// for the same options, --record writes the same traffic, bad options exit 2, SIGTERM ends
// an endless run with a complete recording.
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

#include "tests/app/cli_process.h"
#include "tests/test_main.h"

namespace {
// The last "time,count" line of simulate's output.
QByteArray lastLine(const QByteArray& out) {
    return out.trimmed().split('\n').last();
}

const QStringList kTraffic = {"--pattern", "burst",  "--rate", "400",      "--duration",
                              "650",       "--seed", "7",      "--jitter", "5",
                              "--start",   "1000",   "--keys", "30"};
}  // namespace

class CliSimulateTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void finalCountMatchesReplayOfTheSameGeneratedTrace() {
        const QString trace = m_dir.filePath("gen.csv");
        QCOMPARE(runCli(QStringList{"gen"} << kTraffic << "--out" << trace).exitCode, 0);
        const CliResult replay = runCli({"replay", trace, "--at", "1649"});
        QCOMPARE(replay.exitCode, 0);
        const QByteArray expected = replay.out.trimmed().split('\n').last().split(',').last();
        QVERIFY(expected.toLongLong() > 0);

        const QString recorded = m_dir.filePath("recorded.csv");
        const CliResult sim = runCli(QStringList{"simulate"} << kTraffic << "--speed"
                                                             << "max"
                                                             << "--record" << recorded);
        QVERIFY2(sim.finished && sim.exitCode == 0, sim.err.constData());
        QVERIFY(sim.out.startsWith("time,count\n"));
        QCOMPARE(lastLine(sim.out), QByteArray("1649,") + expected);

        const CliResult replayRecorded = runCli({"replay", recorded, "--at", "1649"});
        QCOMPARE(replayRecorded.out, replay.out);
        QVERIFY(!QFile::exists(recorded + ".partial"));
    }

    void printsOncePerSecondAtAPacedSpeed() {
        const CliResult sim = runCli({"simulate", "--pattern", "steady", "--rate", "10",
                                      "--duration", "30", "--speed", "10", "--start", "100"});
        QVERIFY2(sim.finished && sim.exitCode == 0, sim.err.constData());
        const QList<QByteArray> lines = sim.out.trimmed().split('\n');
        QVERIFY2(lines.size() >= 4, sim.out.constData());  // header, >= 2 ticks, the last line
        long long previous = 0;
        for (int i = 1; i < lines.size(); ++i) {
            const long long t = lines[i].split(',').first().toLongLong();
            QVERIFY(t >= previous && t >= 100 && t <= 129);
            previous = t;
        }
        QCOMPARE(lines.last(), QByteArray("129,300"));  // 30 s of 10 hits, all in the window
    }

    void badOptionsExitWithCode2_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        const QStringList ok = {"simulate", "--pattern",  "steady", "--rate",
                                "1",        "--duration", "1"};
        QTest::newRow("speed 0") << (QStringList(ok) << "--speed"
                                                     << "0")
                                 << "--speed";
        QTest::newRow("speed word") << (QStringList(ok) << "--speed"
                                                        << "fast")
                                    << "--speed";
        QTest::newRow("pattern") << QStringList{"simulate", "--pattern", "zigzag", "--rate", "1"}
                                 << "zigzag";
        QTest::newRow("no rate") << QStringList{"simulate", "--pattern", "steady"} << "--rate";
        QTest::newRow("record dir") << (QStringList(ok) << "--record"
                                                        << "/nonexistent-dir/r.csv")
                                    << "/nonexistent-dir";
        QTest::newRow("argument") << (QStringList(ok) << "extra") << "extra";
        QTest::newRow("record a directory")
            << (QStringList(ok) << "--record" << m_dir.path()) << "is a directory";
        QTest::newRow("record empty") << (QStringList(ok) << "--record"
                                                          << "")
                                      << "empty";
        QTest::newRow("speed with a space") << (QStringList(ok) << "--speed"
                                                                << " 2")
                                            << "--speed ' 2'";
    }
    void badOptionsExitWithCode2() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        const CliResult result = runCli(arguments);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(QString::fromUtf8(result.err).contains(mentions), result.err.constData());
        QVERIFY(!QFile::exists(m_dir.path() + ".partial"));
    }

    void aFullStdoutEndsTheRunWithExit1AndACompleteRecording() {
        const QString recorded = m_dir.filePath("full.csv");
        const CliResult result = runCli({"simulate", "--pattern", "steady", "--rate", "5",
                                         "--speed", "50", "--record", recorded},
                                        {}, 20000, "/dev/full");
        QVERIFY2(result.finished, "a failing stdout must end an endless run");
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("cannot write to stdout"), result.err.constData());
        QVERIFY(QFile::exists(recorded));
        QVERIFY(!QFile::exists(recorded + ".partial"));
    }

    void everyStopSignalFinishesTheRecording_data() {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGHUP") << SIGHUP;
        QTest::newRow("SIGQUIT") << SIGQUIT;
        QTest::newRow("SIGUSR1") << SIGUSR1;
    }
    void everyStopSignalFinishesTheRecording() {
        QFETCH(int, signal);
        const QString recorded = m_dir.filePath(QStringLiteral("signal%1.csv").arg(signal));
        QProcess process;
        process.start(HITCOUNTER_CLI, {"simulate", "--pattern", "steady", "--rate", "100",
                                       "--speed", "100", "--record", recorded});
        QVERIFY(process.waitForStarted());
        QByteArray out;
        while (out.count('\n') < 2 && process.waitForReadyRead(10000))
            out += process.readAllStandardOutput();
        ::kill(pid_t(process.processId()), signal);
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(QFile::exists(recorded));
        QVERIFY(!QFile::exists(recorded + ".partial"));
        QVERIFY(process.readAllStandardError().contains("recorded "));
    }

    void sigtermEndsAnEndlessRunWithACompleteRecording() {
        const QString recorded = m_dir.filePath("endless.csv");
        QProcess process;
        process.start(HITCOUNTER_CLI, {"simulate", "--pattern", "poisson", "--rate", "100",
                                       "--speed", "100", "--record", recorded});
        QVERIFY(process.waitForStarted());
        QByteArray out;
        while (out.count('\n') < 2 && process.waitForReadyRead(10000)) {
            out += process.readAllStandardOutput();
        }
        QVERIFY2(out.count('\n') >= 2, "no per-second line");
        process.terminate();  // SIGTERM
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        QVERIFY(QFile::exists(recorded));
        QVERIFY(!QFile::exists(recorded + ".partial"));
        const CliResult replay = runCli({"replay", recorded});
        QCOMPARE(replay.exitCode, 0);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(CliSimulateTest)
#include "tst_cli_simulate.moc"
