// hitcounter-cli replay, run as a process: CSV and JSON output over the shared example trace,
// the default query time, stdin, bad rows (skipped and counted, or --strict: exit 2 naming the
// line) and bad arguments.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include "cli_process.h"
#include "core/counters/counter_factory.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

// The rows after the header, as (time, policy) -> count.
QMap<QPair<qint64, QString>, quint64> parseCsv(const QByteArray& out) {
    QMap<QPair<qint64, QString>, quint64> rows;
    const QList<QByteArray> lines = out.trimmed().split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QList<QByteArray> fields = lines[i].split(',');
        if (fields.size() == 3)
            rows.insert({fields[0].toLongLong(), QString::fromUtf8(fields[1])},
                        fields[2].toULongLong());
    }
    return rows;
}

QString policyName(std::string_view name) {
    return QString::fromLatin1(name.data(), name.size());
}

}  // namespace

class TestCliReplay : public QObject {
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
    void sharedExampleIsAnsweredByEveryPolicyAtEachQuery() {
        const auto result = runCli(
            {"replay", testdataPath("example_trace.csv"), "--policy", "all", "--at", "301,4,300"});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY(result.out.startsWith("time,policy,count\n"));
        const auto rows = parseCsv(result.out);
        QCOMPARE(rows.size(), qsizetype(3 * policyNames().size()));
        // The trace is the problem's example: hits at 1, 2, 3 and 300.
        for (const auto name : exactPolicyNames()) {
            QCOMPARE(rows.value({4, policyName(name)}), 3u);
            QCOMPARE(rows.value({300, policyName(name)}), 4u);
            QCOMPARE(rows.value({301, policyName(name)}), 3u);
        }
        // Answers come in ascending time order.
        QVERIFY(result.out.indexOf("\n4,") < result.out.indexOf("\n300,"));
        QVERIFY(result.out.indexOf("\n300,") < result.out.indexOf("\n301,"));
    }

    void withoutAtItAnswersAtTheNewestTimestamp() {
        const auto result = runCli({"replay", testdataPath("example_trace.csv")});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("time,policy,count\n300,ring,4\n"));
    }

    void aQueryBetweenHitsSeesOnlyTheHitsBeforeIt() {
        const QString trace = writeTrace("order.csv", "timestamp,count\n10,1\n20,2\n15,4\n");
        const auto result = runCli({"replay", trace, "--policy", "deque", "--at", "12,25,9999"});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out,
                 QByteArray("time,policy,count\n12,deque,1\n25,deque,7\n9999,deque,0\n"));
    }

    void repeatedAtOptionsAddUp() {
        const auto result =
            runCli({"replay", testdataPath("example_trace.csv"), "--at", "301", "--at", "4,300"});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("time,policy,count\n4,ring,3\n300,ring,4\n301,ring,3\n"));
    }

    void readsTheTraceFromStdinWithDash() {
        const auto result = runCli({"replay", "-", "--window", "5"}, "timestamp\n1\n3\n7\n");
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("time,policy,count\n7,ring,2\n"));
    }

    void jsonSummaryDescribesEveryPolicy() {
        const QString trace = writeTrace("late.csv", "timestamp\n1000\n1001\n1001\n5\n");
        const auto result = runCli({"replay", trace, "--policy", "all", "--json", "--at", "1001"});
        QCOMPARE(result.exitCode, 0);
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(result.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(root["rows"].toInteger(), 4);
        QCOMPARE(root["bad_rows"].toInteger(), 0);
        QCOMPARE(root["window"].toInteger(), 300);
        QCOMPARE(root["final_time"].toInteger(), 1001);
        const QJsonArray policies = root["policies"].toArray();
        QCOMPARE(policies.size(), qsizetype(policyNames().size()));
        int exact = 0;
        for (const auto& value : policies) {
            const QJsonObject policy = value.toObject();
            const auto counter = makeCounter(policy["policy"].toString().toStdString());
            QVERIFY(counter);
            QCOMPARE(policy["exact"].toBool(), counter->isExact());
            QVERIFY(policy["memory_bytes"].toInteger() > 0);
            QVERIFY(policy["ns_per_hit"].toDouble() > 0);
            if (counter->isExact()) {
                QCOMPARE(policy["final_count"].toInteger(), 3);
                QCOMPARE(policy["dropped_late"].toInteger(), 1);  // the hit at 5
                ++exact;
            }
        }
        QVERIFY(exact >= 2);
        QCOMPARE(root["answers"].toArray().size(), 1);
        QCOMPARE(root["answers"][0]["counts"]["ring"].toInteger(), 3);
    }

    void badRowsAreSkippedCountedAndNamedOnStderr() {
        const QString trace = writeTrace("bad.csv", "timestamp,key\n1,a\nnope,b\n2\n-4,c\n3,d\n");
        const auto result = runCli({"replay", trace, "--at", "10"});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("time,policy,count\n10,ring,2\n"));
        const QString err = QString::fromUtf8(result.err);
        QVERIFY2(err.contains(trace + ":3: timestamp 'nope' is not a number"), qPrintable(err));
        QVERIFY2(err.contains(trace + ":4: short row"), qPrintable(err));
        QVERIFY2(err.contains(trace + ":5: timestamp '-4' is negative"), qPrintable(err));
        QVERIFY2(err.contains("skipped 3 bad row(s) of 5"), qPrintable(err));
    }

    void strictStopsAtTheFirstBadRowWithExit2() {
        const QString trace = writeTrace("strict.csv", "timestamp,key\n1,a\n2,b\n\n3\n4,d\n");
        const auto result = runCli({"replay", trace, "--strict"});
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(result.err.contains(":5: short row"), result.err.constData());
        QCOMPARE(result.err.count('\n'), 1);
    }

    void aCutOffLastRowIsSkippedAndCountedNotReadAsASmallerCount() {
        // After a full disk: "12345" cut to "12" and no line break.
        const QString trace =
            writeTrace("cut.csv", "timestamp,key,count\n1796102325,kk,3\n1796102326,kk,12");
        const auto result = runCli({"replay", trace, "--json"});
        QCOMPARE(result.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(root["rows"].toInteger(), 1);
        QCOMPARE(root["bad_rows"].toInteger(), 1);
        QCOMPARE(root["policies"].toArray()[0].toObject()["final_count"].toInteger(), 3);
        QVERIFY2(result.err.contains(":3: last row '1796102326,kk,12' has no line break"),
                 result.err.constData());
        const auto strict = runCli({"replay", trace, "--strict"});
        QCOMPARE(strict.exitCode, 2);
        QVERIFY(strict.out.isEmpty());
        QVERIFY2(strict.err.contains("cut.csv:3: "), strict.err.constData());
    }

    void aCrOnlyTraceIsAnErrorNotAnEmptyTrace() {
        const QString trace = writeTrace("mac.csv", "timestamp,key\r1,a\r2,b\r");
        const auto result = runCli({"replay", trace});
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(result.err.contains("mac.csv:1: ") && result.err.contains("CR-only"),
                 result.err.constData());
    }

    void aFullStdoutExitsWith1() {
        const auto result = runCli({"replay", testdataPath("example_trace.csv"), "--policy", "all"},
                                   {}, 30000, "/dev/full");
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("cannot write to stdout"), result.err.constData());
    }

    void controlBytesInMessagesAreEscaped() {
        const char text[] = "timestamp,key\nx\0\x1b[2J,a\n";
        const QString trace = writeTrace("nul.csv", QByteArray(text, sizeof text - 1));
        const auto result = runCli({"replay", trace});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.contains("'x\\0\\x1b[2J'"), result.err.constData());
        QVERIFY(!result.err.contains('\0'));
        QVERIFY(!result.err.contains('\x1b'));
    }

    // A 100 KB value echoed in a message is cut to 1,024 characters with the count of the cut
    // ones, keeping the message's start and its "expected ..." end (before: all 100 KB).
    void aHugeEchoedValueIsCut() {
        const QString huge = QString(100'000, QLatin1Char('9')) + QStringLiteral("\x1b]0;t\a");
        const auto result = runCli({"replay", "-", "--at", huge}, "timestamp\n1\n");
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.size() < 1200, QByteArray::number(result.err.size()).constData());
        QVERIFY2(result.err.startsWith("hitcounter-cli: --at '999"), result.err.constData());
        QVERIFY2(result.err.contains(" characters cut) "), result.err.constData());
        QVERIFY2(result.err.contains("\\x1b]0;t\\x07' is not a time"), result.err.constData());
        QVERIFY2(result.err.trimmed().endsWith("such as 300,600"), result.err.constData());
        QVERIFY(!result.err.contains('\x1b'));
    }

    void anEmptyTracePrintsOnlyTheHeader() {
        const QString trace = writeTrace("empty.csv", "");
        const auto result = runCli({"replay", trace, "--policy", "all"});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("time,policy,count\n"));
        const auto fromStdin = runCli({"replay", "-"});
        QCOMPARE(fromStdin.exitCode, 0);
        QCOMPARE(fromStdin.out, QByteArray("time,policy,count\n"));
    }

    void badArgumentsOrHeaderExitWith2_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("mentions");
        const QString example = testdataPath("example_trace.csv");
        QTest::newRow("no file") << QStringList{"replay"} << "replay expects FILE...";
        QTest::newRow("one file twice")
            << QStringList{"replay", example, example} << "example_trace.csv is named twice";
        QTest::newRow("missing file")
            << QStringList{"replay", m_dir.filePath("none.csv")} << "cannot open trace";
        QTest::newRow("directory") << QStringList{"replay", m_dir.path()} << "it is a directory";
        // Issue 30 item 9: a FIFO blocked in open() (no writer) and /dev/zero ran forever.
        const QString fifo = m_dir.filePath("pipe");
        QVERIFY(QFile::exists(fifo) || ::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QTest::newRow("fifo") << QStringList{"replay", fifo} << fifo + "': it is a FIFO";
        QTest::newRow("character device")
            << QStringList{"replay", "/dev/zero"} << "'/dev/zero': it is a character device";
        QTest::newRow("fifo, limit")
            << QStringList{"limit", fifo, "--limit", "5", "--per", "60"} << "it is a FIFO";
        QTest::newRow("unknown flag") << QStringList{"replay", example, "--fast"} << "fast";
        QTest::newRow("unknown policy")
            << QStringList{"replay", example, "--policy", "best"} << "unknown policy 'best'";
        QTest::newRow("window 0") << QStringList{"replay", example, "--window", "0"} << "--window";
        QTest::newRow("window too large")
            << QStringList{"replay", example, "--window", "99999999999"} << "--window";
        QTest::newRow("at text") << QStringList{"replay", example, "--at", "300,soon"}
                                 << "--at 'soon'";
        QTest::newRow("at negative") << QStringList{"replay", example, "--at", "-1"} << "--at '-1'";
        QTest::newRow("at empty item")
            << QStringList{"replay", example, "--at", "1,,2"} << "--at ''";
        QTest::newRow("top zero") << QStringList{"replay", example, "--top", "0"} << "--top '0'";
        QTest::newRow("top text") << QStringList{"replay", example, "--top", "ten"}
                                  << "--top 'ten'";
        QTest::newRow("top and uniques")
            << QStringList{"replay", example, "--top", "3", "--uniques"} << "give one";
        QTest::newRow("uniques with json")
            << QStringList{"replay", example, "--uniques", "--json"} << "--json";
        QTest::newRow("at with a space")
            << QStringList{"replay", example, "--at", "300, 600"} << "--at ' 600'";
        QTest::newRow("at with plus")
            << QStringList{"replay", example, "--at", "+300"} << "--at '+300'";
        QTest::newRow("window with a space")
            << QStringList{"replay", example, "--window", " 5"} << "--window ' 5'";
        QTest::newRow("window with plus")
            << QStringList{"replay", example, "--window", "+5"} << "--window '+5'";
        QTest::newRow("top exponent")
            << QStringList{"replay", example, "--top", "1e1"} << "--top '1e1'";
    }
    void badArgumentsOrHeaderExitWith2() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, mentions);
        const auto result = runCli(arguments);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(QString::fromUtf8(result.err).contains(mentions), result.err.constData());
    }

    void topPrintsTheRankedKeysOfEachWindow() {
        const auto result = runCli(
            {"replay", testdataPath("example_trace.csv"), "--top", "5", "--at", "301,4,300"});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, QByteArray("time,rank,key,count\n"
                                        "4,1,home,2\n4,2,about,1\n"
                                        "300,1,home,3\n300,2,about,1\n"
                                        "301,1,home,2\n301,2,about,1\n"));
    }

    void uniquesPrintsEveryKeyOfTheWindowThenAllKeys() {
        const auto result =
            runCli({"replay", testdataPath("example_trace.csv"), "--uniques", "--at", "4,301"});
        QCOMPARE(result.exitCode, 0);
        // (1, 301] holds home u2 and u3, about u1: three visitors in all.
        QCOMPARE(result.out, QByteArray("time,key,uniques\n4,about,1\n4,home,2\n4,*,2\n"
                                        "301,about,1\n301,home,2\n301,*,3\n"));
    }

    // Ties go to the key first in byte order ("B" < "a"); a query at 12 misses the late row
    // that arrives after the row at 20; --window 10 makes (2, 12] and (15, 25].
    void keyedTablesKeepTheStreamingOrderTiesAndWindow() {
        const QByteArray trace =
            "timestamp,key,visitor\n"
            "1,a,x\n5,a,x\n6,B,y\n7,B,z\n20,c,x\n11,a,w\n16,B,y\n";
        const auto top =
            runCli({"replay", "-", "--top", "2", "--window", "10", "--at", "12,25"}, trace);
        QCOMPARE(top.exitCode, 0);
        QCOMPARE(top.out, QByteArray("time,rank,key,count\n12,1,B,2\n12,2,a,1\n"
                                     "25,1,B,1\n25,2,c,1\n"));
        const auto uniques =
            runCli({"replay", "-", "--uniques", "--window", "10", "--at", "12,25"}, trace);
        QCOMPARE(uniques.exitCode, 0);
        QCOMPARE(uniques.out, QByteArray("time,key,uniques\n12,B,2\n12,a,1\n12,*,3\n"
                                         "25,B,1\n25,c,1\n25,*,2\n"));
    }

    void aHeaderWithoutTimestampExitsWith2EvenWithoutStrict() {
        const QString trace = writeTrace("noheader.csv", "# no header\n1,a,b\n2,a,b\n");
        const auto result = runCli({"replay", trace});
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(":2: header '1,a,b' has no 'timestamp' column"),
                 result.err.constData());
    }
    // A JSON log's key with a line feed, ESC and BEL cannot forge a row or set the terminal's
    // title, and a key with ',' or '"' stays one field (RFC 4180). Before: printed raw.
    void keyedTablesQuoteAndEscapeKeys() {
        const QString log =
            writeTrace("hostile.jsonl",
                       "{\"time\": 1000, \"path\": \"/a\\n1000,1,forged,99\\u001b]0;pwn\\u0007\"}\n"
                       "{\"time\": 1000, \"path\": \"/a\\n1000,1,forged,99\\u001b]0;pwn\\u0007\"}\n"
                       "{\"time\": 1000, \"path\": \"/b,\\\"c\\\"\"}\n");
        const auto top = runCli({"replay", log, "--top", "5"});
        QCOMPARE(top.exitCode, 0);
        QCOMPARE(top.out, QByteArray("time,rank,key,count\n"
                                     "1000,1,\"/a\\x0a1000,1,forged,99\\x1b]0;pwn\\x07\",2\n"
                                     "1000,2,\"/b,\"\"c\"\"\",1\n"));
        const auto uniques = runCli({"replay", log, "--uniques"});
        QCOMPARE(uniques.exitCode, 0);
        QCOMPARE(uniques.out, QByteArray("time,key,uniques\n"
                                         "1000,\"/a\\x0a1000,1,forged,99\\x1b]0;pwn\\x07\",0\n"
                                         "1000,\"/b,\"\"c\"\"\",0\n1000,*,0\n"));
    }

    // Keys 0xff, 0xfe and the text \xff print apart (before: U+FFFD for both bad bytes).
    void keysThatAreNotUtf8PrintEscapedAndDistinct() {
        const auto result = runCli({"replay", "-", "--top", "5"},
                                   "timestamp,key\n1,\xff\n1,\xff\n1,\xff\n1,\xfe\n1,\xfe\n"
                                   "1,\\xff\n");
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out,
                 QByteArray("time,rank,key,count\n1,1,\\xff,3\n1,2,\\xfe,2\n1,3,\\\\xff,1\n"));
    }

    // 2^63 + 1 and 2^64 - 1 hits as exact integers (before: 9.2233720368547758e+18 through a
    // double).
    void jsonCountsAboveTwoToThe63AreExact() {
        const auto result = runCli({"replay", "-", "--json", "--policy", "ring", "--at", "2,3"},
                                   "timestamp,count\n2,9223372036854775809\n"
                                   "3,18446744073709551615\n");
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains("\"ring\": 9223372036854775809"), result.out.constData());
        QVERIFY2(result.out.contains("\"final_count\": 18446744073709551615"),
                 result.out.constData());
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(result.out, &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(root["rows"].toInteger(), 2);
        QCOMPARE(root["answers"].toArray().size(), 2);
        QCOMPARE(root["policies"][0]["policy"].toString(), QString("ring"));
    }

    // One line dated 2099 among lines of 1000 s: a bad row named by its line; the lines after it
    // still count (before: all dropped as late, nothing printed for --at 1003, exit 0).
    void aLineDatedFarAheadIsABadRowNotTheNewHead() {
        const QString trace =
            writeTrace("jump.csv", "timestamp,key\n1000,a\n1001,a\n4102444800,a\n1002,a\n1003,b\n");
        const auto top = runCli({"replay", trace, "--top", "5", "--at", "1003"});
        QCOMPARE(top.exitCode, 0);
        QCOMPARE(top.out, QByteArray("time,rank,key,count\n1003,1,a,3\n1003,2,b,1\n"));
        QVERIFY2(top.err.contains("jump.csv:4: time 4102444800 is "), top.err.constData());
        QVERIFY2(top.err.contains("skipped 1 bad row(s) of 5"), top.err.constData());
        const auto json = runCli({"replay", trace, "--json", "--policy", "ring"});
        const QJsonObject root = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(root["rows"].toInteger(), 4);
        QCOMPARE(root["bad_rows"].toInteger(), 1);
        QCOMPARE(root["final_time"].toInteger(), 1003);
        QCOMPARE(root["policies"][0]["dropped_late"].toInteger(), 0);
        QCOMPARE(root["answers"][0]["counts"]["ring"].toInteger(), 4);
        const auto strict = runCli({"replay", trace, "--strict"});
        QCOMPARE(strict.exitCode, 2);
        // --max-time-jump 0: the old behaviour, on request.
        const auto unchecked = runCli({"replay", trace, "--json", "--max-time-jump", "0"});
        QCOMPARE(QJsonDocument::fromJson(unchecked.out).object()["bad_rows"].toInteger(), 0);
        const auto bad = runCli({"replay", trace, "--max-time-jump", "-1"});
        QCOMPARE(bad.exitCode, 2);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliReplay)
#include "tst_cli_replay.moc"
