// hitcounter-cli gen, run as a process: determinism for a seed, every pattern readable by
// TraceReader, gen -> replay round trip, atomic --out, and bad arguments.
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <set>

#include "cli_process.h"
#include "core/counters/counter_factory.h"
#include "core/io/trace_reader.h"
#include "core/sim/traffic_pattern.h"

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
    }
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

QTEST_GUILESS_MAIN(TestCliGen)
#include "tst_cli_gen.moc"
