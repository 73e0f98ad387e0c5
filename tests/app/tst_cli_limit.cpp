// hitcounter-cli limit, run as a process: the boundary example of the issue (CSV and JSON),
// every decision of a random multi-key trace with counts against the core limiters run in
// this process, --algorithm, stdin, bad rows and bad arguments (exit code 2).
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <random>
#include <string>
#include <vector>

#include "cli_process.h"
#include "core/base/hit_event.h"
#include "core/limiters/limit_lab.h"
#include "core/limiters/limiter_factory.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

const QByteArray kBoundaryTrace = "timestamp,key\n58,a\n59,a\n60,a\n61,a\n";

QList<QByteArray> csvRows(const QByteArray& out) {
    QList<QByteArray> lines = out.split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

}  // namespace

class TestCliLimit : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writeTrace(const QString& name, const QByteArray& text) {
        QFile file(m_dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(text);
        return file.fileName();
    }

private Q_SLOTS:
    // An access log (here combined, gzip-free) reads as the trace of the same requests: the
    // boundary example written as nginx would log it gives the same decisions, key = path.
    void anAccessLogGivesTheDecisionsOfItsTrace() {
        QByteArray log;
        for (const char* second : {"58", "59", "00", "01"}) {
            const QByteArray minute = QByteArray(second).startsWith('5') ? "00" : "01";
            log += "10.0.0.1 - - [01/Jan/1970:00:" + minute + ":" + second +
                   " +0000] \"GET /a?x=1 HTTP/1.1\" 200 5 \"-\" \"curl\"\n";
        }
        const QString logFile = writeTrace("boundary.log", log);
        const QString trace =
            writeTrace("boundary-path.csv", "timestamp,key\n58,/a\n59,/a\n60,/a\n61,/a\n");
        const QStringList limits{"--limit", "2", "--per", "60", "--algorithm", "all"};
        const auto fromLog = runCli(QStringList{"limit", logFile} + limits);
        const auto fromTrace = runCli(QStringList{"limit", trace} + limits);
        QVERIFY(fromLog.finished);
        QCOMPARE(fromLog.exitCode, 0);
        QCOMPARE(fromTrace.exitCode, 0);
        QVERIFY(fromLog.out.contains("61,/a,fixed,accept"));
        QVERIFY(fromLog.out.contains("61,/a,log,reject"));
        QCOMPARE(fromLog.out, fromTrace.out);
    }

    void boundaryExamplePrintsEveryDecision() {
        const QString trace = writeTrace("boundary.csv", kBoundaryTrace);
        const auto result =
            runCli({"limit", trace, "--limit", "2", "--per", "60", "--algorithm", "all"});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        const QList<QByteArray> expected{"time,key,algorithm,decision",
                                         "58,a,fixed,accept",
                                         "58,a,log,accept",
                                         "58,a,counter,accept",
                                         "58,a,bucket,accept",
                                         "59,a,fixed,accept",
                                         "59,a,log,accept",
                                         "59,a,counter,accept",
                                         "59,a,bucket,accept",
                                         "60,a,fixed,accept",
                                         "60,a,log,reject",
                                         "60,a,counter,reject",
                                         "60,a,bucket,reject",
                                         "61,a,fixed,accept",
                                         "61,a,log,reject",
                                         "61,a,counter,accept",
                                         "61,a,bucket,reject"};
        QCOMPARE(csvRows(result.out), expected);
    }

    void jsonShowsTheBoundaryBurst() {
        const QString trace = writeTrace("boundary.csv", kBoundaryTrace);
        const auto result = runCli({"limit", trace, "--limit", "2", "--per", "60", "--json"});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(result.out).object();
        const QJsonObject algorithms = root.value("algorithms").toObject();
        QCOMPARE(algorithms.size(), qsizetype(4));
        const QJsonObject fixed = algorithms.value("fixed").toObject();
        const QJsonObject log = algorithms.value("log").toObject();
        QCOMPARE(fixed.value("max_in_any_window").toInteger(), 4);  // above L = 2
        QCOMPARE(fixed.value("accepted").toInteger(), 4);
        QCOMPARE(log.value("max_in_any_window").toInteger(), 2);  // at L
        QCOMPARE(log.value("accepted").toInteger(), 2);
        QCOMPARE(log.value("rejected").toInteger(), 2);
        for (const auto& value : algorithms)
            QVERIFY(value.toObject().value("memory_bytes").toInteger() > 0);
        QCOMPARE(root.value("requests").toInteger(), 4);
    }

    // Keys are CSV fields (RFC 4180, control and bad bytes as \xHH); in JSON the peak's key
    // that is not UTF-8 is escaped and also given as hex bytes (before: raw, and U+FFFD).
    void keysAreEscapedInCsvAndDistinctInJson() {
        const QByteArray trace = "timestamp,key\n1,\xff\n1,\xff\n1,a\"b\n";
        const auto csv =
            runCli({"limit", "-", "--limit", "5", "--per", "60", "--algorithm", "fixed"}, trace);
        QCOMPARE(csv.exitCode, 0);
        QCOMPARE(csv.out, QByteArray("time,key,algorithm,decision\n1,\\xff,fixed,accept\n"
                                     "1,\\xff,fixed,accept\n1,\"a\"\"b\",fixed,accept\n"));
        const auto json = runCli(
            {"limit", "-", "--limit", "5", "--per", "60", "--algorithm", "fixed", "--json"}, trace);
        QCOMPARE(json.exitCode, 0);
        const QJsonObject fixed =
            QJsonDocument::fromJson(json.out).object()["algorithms"].toObject()["fixed"].toObject();
        QCOMPARE(fixed["max_in_any_window"].toInteger(), 2);
        QCOMPARE(fixed["max_window_key"].toString(), QString("\\xff"));
        QCOMPARE(fixed["max_window_key_hex"].toString(), QString("ff"));
    }

    // Counts above 2^63 are exact integers in JSON, and the sum of requests saturates.
    void jsonCountsAreExactAndSaturate() {
        const auto result =
            runCli({"limit", "-", "--limit", "5", "--per", "60", "--algorithm", "fixed", "--json"},
                   "timestamp,key,count\n1,a,18446744073709551615\n2,b,5\n");
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("\"requests\": 18446744073709551615"), result.out.constData());
        QVERIFY2(result.out.contains("\"rejected\": 18446744073709551610"), result.out.constData());
    }

    // Decisions of a trace with keys, counts and late rows equal the core limiters' in order;
    // a row with count n gives n requests, each with one row per algorithm.
    void randomTraceMatchesTheCoreLimiters() {
        std::mt19937_64 random(11);
        QByteArray text = "timestamp,count,key\n";
        std::vector<HitEvent> events;
        Timestamp t = 1000;
        for (int i = 0; i < 300; ++i) {
            t += static_cast<Timestamp>(random() % 4);
            const Timestamp at = random() % 10 == 0 ? t - 2 : t;
            const Count n = random() % 6 == 0 ? 1 + random() % 4 : 1;
            const std::string key = "k" + std::to_string(random() % 4);
            events.push_back({at, key, "", n});
            text += QByteArray::number(at) + ',' + QByteArray::number(n) + ',' +
                    QByteArray::fromStdString(key) + '\n';
        }
        const QString trace = writeTrace("random.csv", text);
        const auto result = runCli({"limit", trace, "--limit", "3", "--per", "10"});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);

        const std::vector<std::string> names(limiterNames().begin(), limiterNames().end());
        LimitLab lab(names, {3, 10s});
        QList<QByteArray> expected{"time,key,algorithm,decision"};
        for (const auto& event : events) {
            const auto accepted = lab.admit(event.key, event.time, event.count);
            for (Count j = 0; j < event.count; ++j)
                for (std::size_t i = 0; i < names.size(); ++i)
                    expected << QByteArray::number(event.time) + ',' +
                                    QByteArray::fromStdString(event.key) + ',' +
                                    QByteArray::fromStdString(names[i]) +
                                    (j < accepted[i] ? ",accept" : ",reject");
        }
        QCOMPARE(csvRows(result.out), expected);
        QVERIFY(result.out.contains(",reject\n"));
    }

    void oneAlgorithmFromStdin() {
        const auto result =
            runCli({"limit", "-", "--limit", "1", "--per", "5", "--algorithm", "bucket"},
                   "timestamp,count\n10,3\n");
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        // No key column: every request has the empty key.
        QCOMPARE(csvRows(result.out),
                 (QList<QByteArray>{"time,key,algorithm,decision", "10,,bucket,accept",
                                    "10,,bucket,reject", "10,,bucket,reject"}));
    }

    void badRowsAreSkippedOrStopTheRunWithStrict() {
        const QString trace = writeTrace("bad.csv", "timestamp,key\n5,a\nx,a\n6,a\n");
        auto result = runCli({"limit", trace, "--limit", "5", "--per", "5", "--json"});
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.err.contains(":3:"));
        const QJsonObject root = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(root.value("bad_rows").toInteger(), 1);
        QCOMPARE(root.value("requests").toInteger(), 2);
        result = runCli({"limit", trace, "--limit", "5", "--per", "5", "--strict"});
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.err.contains("bad.csv:3:"));
    }

    void badArgumentsExitWithTwo_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString trace = writeTrace("boundary.csv", kBoundaryTrace);
        QTest::newRow("L = 0") << QStringList{"limit", trace, "--limit", "0", "--per", "60"}
                               << "--limit '0'";
        QTest::newRow("L < 0") << QStringList{"limit", trace, "--limit", "-3", "--per", "60"}
                               << "--limit '-3'";
        QTest::newRow("W = 0") << QStringList{"limit", trace, "--limit", "2", "--per", "0"}
                               << "--per '0'";
        QTest::newRow("W not a number")
            << QStringList{"limit", trace, "--limit", "2", "--per", "1m"} << "--per '1m'";
        QTest::newRow("no --limit")
            << QStringList{"limit", trace, "--per", "60"} << "needs both --limit L and --per W";
        QTest::newRow("no --per") << QStringList{"limit", trace, "--limit", "2"}
                                  << "needs both --limit L and --per W";
        QTest::newRow("unknown algorithm")
            << QStringList{"limit", trace, "--limit", "2", "--per", "60", "--algorithm", "leaky"}
            << "unknown algorithm 'leaky'";
        QTest::newRow("no file") << QStringList{"limit", "--limit", "2", "--per", "60"}
                                 << "limit expects FILE...";
        QTest::newRow("missing file")
            << QStringList{"limit", m_dir.filePath("none.csv"), "--limit", "2", "--per", "60"}
            << "cannot open trace";
    }
    void badArgumentsExitWithTwo() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const auto result = runCli(arguments);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(message.toUtf8()), result.err.constData());
        QVERIFY(result.out.isEmpty());
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliLimit)
#include "tst_cli_limit.moc"
