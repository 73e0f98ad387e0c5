// hitcounter-cli gen, run as a process: determinism for a seed, every pattern readable by
// TraceReader, gen -> replay round trip, atomic --out, special files written through (never
// replaced), bad output paths refused before any work, the --max-bytes cap, write errors,
// interruption, and bad arguments.
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <set>

#include "cli_process.h"
#include "core/counters/counter_factory.h"
#include "core/io/trace_reader.h"
#include "core/sim/traffic_pattern.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

struct ReadTrace {
    std::vector<HitEvent> events;
    std::uint64_t badRows = 0;
};

ReadTrace readTrace(const QByteArray& text) {
    TraceReader reader{std::string_view(text.constData(), std::size_t(text.size()))};
    ReadTrace trace;
    TraceRow row;
    for (TraceStatus status; (status = reader.next(row)) != TraceStatus::End;) {
        if (status == TraceStatus::Row)
            trace.events.push_back(row.event);
    }
    trace.badRows = reader.progress().badRows;
    return trace;
}

QByteArray readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TestCliGen : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void theSameSeedGivesTheSameTraceOnStdoutAndInAFile() {
        const QStringList options{"gen", "--pattern", "burst", "--rate", "20", "--duration",
                                  "200", "--keys",    "7",     "--seed", "42"};
        const auto first = runCli(options);
        QCOMPARE(first.exitCode, 0);
        QVERIFY(first.out.size() > 1000);
        QCOMPARE(runCli(options).out, first.out);
        const QString file = m_dir.filePath("seed42.csv");
        QCOMPARE(runCli(options + QStringList{"--out", file}).exitCode, 0);
        QCOMPARE(readFile(file), first.out);
        QVERIFY(!QFile::exists(file + ".partial"));
        QStringList otherSeed = options;
        otherSeed.last() = "43";
        QVERIFY(runCli(otherSeed).out != first.out);
    }

    void everyPatternWritesAReadableTraceWithinItsOptions_data() {
        QTest::addColumn<QString>("pattern");
        for (const auto name : trafficPatternNames())
            QTest::newRow(name.data()) << QString::fromLatin1(name.data(), name.size());
    }
    void everyPatternWritesAReadableTraceWithinItsOptions() {
        QFETCH(QString, pattern);
        const auto result = runCli({"gen", "--pattern", pattern, "--rate", "30", "--duration",
                                    "700", "--keys", "5", "--visitors", "9", "--start", "1000"});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.startsWith("timestamp,key,visitor,count\n"));
        const auto trace = readTrace(result.out);
        QCOMPARE(trace.badRows, std::uint64_t{0});
        QVERIFY(!trace.events.empty());
        std::set<std::string> keys, visitors;
        Count hits = 0;
        for (const auto& event : trace.events) {
            QVERIFY(event.time >= 1000 && event.time < 1700);
            keys.insert(event.key);
            visitors.insert(event.visitor);
            hits += event.count;
        }
        QVERIFY(keys.size() <= 5);
        QVERIFY(visitors.size() <= 9);
        QVERIFY(keys.count("/page/1") == 1);
        // Every pattern's base rate is 30/s; spikes add to it, diurnal lowers it near phase 0.
        QVERIFY2(hits > 700 && hits < 30 * 700 * 6, qPrintable(QString::number(hits)));
    }

    void aSteadyTraceReplaysToItsExactRate() {
        const QString file = m_dir.filePath("steady.csv");
        QCOMPARE(runCli({"gen", "--pattern", "steady", "--rate", "5", "--duration", "600", "--keys",
                         "3", "--out", file})
                     .exitCode,
                 0);
        const auto result =
            runCli({"replay", file, "--policy", "all", "--at", "300,600,900", "--strict"});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.err.isEmpty());
        // Seconds 1..600 at exactly 5 hits each: 300 s windows hold 1500, (600, 900] none.
        for (const auto name : exactPolicyNames()) {
            const QByteArray policy(name.data(), qsizetype(name.size()));
            QVERIFY(result.out.contains("\n300," + policy + ",1500\n"));
            QVERIFY(result.out.contains("\n600," + policy + ",1500\n"));
            QVERIFY(result.out.contains("\n900," + policy + ",0\n"));
        }
    }

    void jitterMakesLateHitsThatReplayCounts() {
        const auto result = runCli({"gen", "--pattern", "poisson", "--rate", "50", "--duration",
                                    "100", "--start", "400", "--jitter", "350"});
        QCOMPARE(result.exitCode, 0);
        const auto trace = readTrace(result.out);
        Timestamp newest = 0;
        int late = 0;
        for (const auto& event : trace.events) {
            late += event.time < newest ? 1 : 0;
            newest = std::max(newest, event.time);
        }
        QVERIFY(late > 0);
        const auto replay = runCli({"replay", "-", "--json"}, result.out);
        QCOMPARE(replay.exitCode, 0);
        QVERIFY(replay.out.contains("\"dropped_late\": "));
        QVERIFY(!replay.out.contains("\"dropped_late\": 0,"));  // lateness 350 > window 300
    }

    void badArgumentsExitWith2AndWriteNothing_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        const QStringList base{"gen", "--pattern", "steady", "--rate", "1", "--duration", "10"};
        QTest::newRow("no pattern")
            << QStringList{"gen", "--rate", "1", "--duration", "5"} << "needs --pattern";
        QTest::newRow("no rate") << QStringList{"gen", "--pattern", "steady", "--duration", "5"}
                                 << "needs --rate";
        QTest::newRow("unknown pattern")
            << QStringList{"gen", "--pattern", "spiky", "--rate", "1", "--duration", "5"}
            << "unknown pattern 'spiky'";
        QTest::newRow("negative rate")
            << QStringList{"gen", "--pattern", "steady", "--rate", "-1", "--duration", "5"}
            << "--rate '-1'";
        QTest::newRow("text rate")
            << QStringList{"gen", "--pattern", "steady", "--rate", "fast", "--duration", "5"}
            << "--rate 'fast'";
        QTest::newRow("zero duration")
            << QStringList{"gen", "--pattern", "steady", "--rate", "1", "--duration", "0"}
            << "--duration '0'";
        QTest::newRow("zero keys") << base + QStringList{"--keys", "0"} << "--keys '0'";
        QTest::newRow("negative start") << base + QStringList{"--start", "-5"} << "--start '-5'";
        QTest::newRow("jitter before 0") << base + QStringList{"--jitter", "2"} << "--jitter '2'";
        QTest::newRow("unknown flag") << base + QStringList{"--loud"} << "loud";
        QTest::newRow("positional") << base + QStringList{"out.csv"} << "use --out";
        QTest::newRow("unwritable out")
            << base + QStringList{"--out", m_dir.filePath("missing/dir/t.csv")} << "cannot create";
        QTest::newRow("rate with spaces")
            << QStringList{"gen", "--pattern", "steady", "--rate", " 5", "--duration", "5"}
            << "--rate ' 5'";
        QTest::newRow("rate with plus")
            << QStringList{"gen", "--pattern", "steady", "--rate", "+5", "--duration", "5"}
            << "--rate '+5'";
        QTest::newRow("rate exponent")
            << QStringList{"gen", "--pattern", "steady", "--rate", "1e3", "--duration", "5"}
            << "--rate '1e3'";
        QTest::newRow("duration plus")
            << QStringList{"gen", "--pattern", "steady", "--rate", "1", "--duration", "+5"}
            << "--duration '+5'";
        QTest::newRow("max-bytes text")
            << base + QStringList{"--max-bytes", "lots"} << "--max-bytes 'lots'";
    }
    void badOutputPathsAreRefusedBeforeAnyWork_data();
    void badOutputPathsAreRefusedBeforeAnyWork();
    void aFifoIsWrittenThroughNotReplaced();
    void aSymbolicLinkIsFollowedAndKept();
    void aFullDeviceFailsWithExit1AndIsNotReplaced();
    void maxBytesStopsBeforeTheCapAndRemovesThePartialFile();
    void aStopSignalRemovesThePartialFile_data();
    void aStopSignalRemovesThePartialFile();

    void badArgumentsExitWith2AndWriteNothing() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        const auto result = runCli(arguments);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(QString::fromUtf8(result.err).contains(mentions), result.err.constData());
    }
};

namespace {
// Far more work than a test may take: only a check made before any work ends it fast.
const QStringList kEndless{"gen",        "--pattern", "poisson",     "--rate", "10000000",
                           "--duration", "100000000", "--max-bytes", "0"};
}  // namespace

void TestCliGen::badOutputPathsAreRefusedBeforeAnyWork_data() {
    QTest::addColumn<QString>("out");
    QTest::addColumn<QString>("reason");
    QTest::newRow("directory") << m_dir.path() << "is a directory";
    QTest::newRow("empty") << QString() << "empty";
    QTest::newRow("trailing slash") << m_dir.filePath("sub/") << "ends in '/'";
    QTest::newRow("missing directory") << m_dir.filePath("no/dir/x.csv") << "cannot create";
}

void TestCliGen::badOutputPathsAreRefusedBeforeAnyWork() {
    QFETCH(QString, out);
    QFETCH(QString, reason);
    QElapsedTimer timer;
    timer.start();
    const auto result = runCli(kEndless + QStringList{"--out", out}, {}, 10000);
    QVERIFY(result.finished);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains(reason.toUtf8()), result.err.constData());
    QVERIFY(timer.elapsed() < 5000);
    QVERIFY(!QFile::exists(m_dir.path() + ".partial"));
    QVERIFY(!QFile::exists(".partial"));
}

void TestCliGen::aFifoIsWrittenThroughNotReplaced() {
    const QString fifo = m_dir.filePath("gen.fifo");
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const int reader = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
    QVERIFY(reader >= 0);
    const QStringList small{"gen", "--pattern", "steady", "--rate", "2", "--duration", "5"};
    const auto result = runCli(small + QStringList{"--out", fifo});
    QCOMPARE(result.exitCode, 0);
    QByteArray received(1 << 16, '\0');
    const ssize_t n = ::read(reader, received.data(), size_t(received.size()));
    ::close(reader);
    QVERIFY(n > 0);
    received.resize(n);
    QCOMPARE(received, runCli(small).out);
    QVERIFY(std::filesystem::is_fifo(fifo.toStdString()));
    QVERIFY(!QFile::exists(fifo + ".partial"));
    // No reader: refused with the reason, not blocked, the FIFO kept.
    const auto alone = runCli(small + QStringList{"--out", fifo}, {}, 10000);
    QVERIFY(alone.finished);
    QCOMPARE(alone.exitCode, 2);
    QVERIFY2(alone.err.contains("no reader"), alone.err.constData());
    QVERIFY(std::filesystem::is_fifo(fifo.toStdString()));
}

void TestCliGen::aSymbolicLinkIsFollowedAndKept() {
    const QString target = m_dir.filePath("real.csv");
    const QString link = m_dir.filePath("latest.csv");
    {
        QFile old(target);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old\n");
    }
    QVERIFY(QFile::link(target, link));
    const QStringList small{"gen", "--pattern", "steady", "--rate", "2", "--duration", "5"};
    QCOMPARE(runCli(small + QStringList{"--out", link}).exitCode, 0);
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(readFile(target), runCli(small).out);
}

void TestCliGen::aFullDeviceFailsWithExit1AndIsNotReplaced() {
    const QStringList small{"gen", "--pattern", "steady", "--rate", "2", "--duration", "5"};
    const auto toFile = runCli(small + QStringList{"--out", "/dev/full"});
    QCOMPARE(toFile.exitCode, 1);
    QVERIFY2(toFile.err.contains("/dev/full: cannot write"), toFile.err.constData());
    QVERIFY(std::filesystem::is_character_file("/dev/full"));
    QVERIFY(!QFile::exists("/dev/full.partial"));
    const auto toStdout = runCli(small, {}, 30000, "/dev/full");
    QCOMPARE(toStdout.exitCode, 1);
    QVERIFY2(toStdout.err.contains("cannot write to stdout"), toStdout.err.constData());
    // /dev/null takes everything: written through, still a device.
    QCOMPARE(runCli(small + QStringList{"--out", "/dev/null"}).exitCode, 0);
    QVERIFY(std::filesystem::is_character_file("/dev/null"));
}

void TestCliGen::maxBytesStopsBeforeTheCapAndRemovesThePartialFile() {
    const QString file = m_dir.filePath("capped.csv");
    const QStringList big{"gen",    "--pattern", "steady",     "--rate", "50",
                          "--keys", "3",         "--duration", "100000"};
    const auto capped = runCli(big + QStringList{"--max-bytes", "20000", "--out", file});
    QCOMPARE(capped.exitCode, 2);
    QVERIFY2(capped.err.contains("would pass --max-bytes 20000 at second "),
             capped.err.constData());
    QVERIFY(!QFile::exists(file));
    QVERIFY(!QFile::exists(file + ".partial"));
    const auto toStdout = runCli(big + QStringList{"--max-bytes", "20000"});
    QCOMPARE(toStdout.exitCode, 2);
    QVERIFY(toStdout.out.size() <= 20000);
    // The default cap is 1 GiB, and it can be lifted explicitly.
    QVERIFY(runCli({"gen", "--help"}).out.contains("default 1073741824"));
    const QStringList small{"gen", "--pattern", "steady", "--rate", "2", "--duration", "5"};
    const auto exact = runCli(small);
    QCOMPARE(runCli(small + QStringList{"--max-bytes", QString::number(exact.out.size())}).out,
             exact.out);
    QCOMPARE(
        runCli(small + QStringList{"--max-bytes", QString::number(exact.out.size() - 1)}).exitCode,
        2);
}

void TestCliGen::aStopSignalRemovesThePartialFile_data() {
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGINT") << SIGINT;
    QTest::newRow("SIGTERM") << SIGTERM;
    QTest::newRow("SIGHUP") << SIGHUP;
    QTest::newRow("SIGQUIT") << SIGQUIT;
}

void TestCliGen::aStopSignalRemovesThePartialFile() {
    QFETCH(int, signal);
    const QString file = m_dir.filePath("interrupted.csv");
    QProcess process;
    process.start(HITCOUNTER_CLI, kEndless + QStringList{"--out", file});
    QVERIFY(process.waitForStarted());
    QElapsedTimer timer;
    timer.start();
    while (QFileInfo(file + ".partial").size() < 100000 && timer.elapsed() < 10000)
        QTest::qWait(20);
    QVERIFY(QFileInfo(file + ".partial").size() >= 100000);
    ::kill(pid_t(process.processId()), signal);
    QVERIFY(process.waitForFinished(10000));
    QCOMPARE(process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(process.exitCode(), 128 + signal);
    const QByteArray err = process.readAllStandardError();
    QVERIFY2(err.contains("interrupted by SIG"), err.constData());
    QVERIFY(!QFile::exists(file + ".partial"));
    QVERIFY(!QFile::exists(file));
}

HITCOUNTER_TEST_GUILESS_MAIN(TestCliGen)
#include "tst_cli_gen.moc"
