// hitcounter-cli replay --bytes and --latency, run as a process on real-format logs: bytes in
// each window per key and for all against an independent count of the log's lines (late lines,
// "-" bytes, a bad line), response-time quantiles of an nginx log_format with $request_time
// within the sketch's bound of exact quantiles computed here, an Apache log with %D, the JSON
// output, and the errors a user sees.
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <random>
#include <vector>

#include "cli_process.h"
#include "tests/test_main.h"

namespace {

constexpr qint64 kBase = 1700000000;  // 14/Nov/2023:22:13:20 +0000
constexpr qint64 kWindow = 300;
constexpr double kAlpha = 0.01;
// The CLI prints quantiles to six significant digits.
constexpr double kPrinted = 5e-6;

// CLF time in UTC, as nginx's $time_local writes it on a server set to UTC.
QByteArray clfTime(qint64 t) {
    static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const QDateTime when = QDateTime::fromSecsSinceEpoch(t, QTimeZone::utc());
    return QByteArray::number(when.date().day()).rightJustified(2, '0') + '/' +
           kMonths[when.date().month() - 1] + '/' + QByteArray::number(when.date().year()) + ':' +
           when.time().toString(QStringLiteral("hh:mm:ss")).toLatin1() + " +0000";
}

// One request as the log has it, and what the test expects of it.
struct Line {
    qint64 time = 0;
    QByteArray path;
    QByteArray bytes;    // as written: digits or "-"
    QByteArray seconds;  // as written ("0.123"); empty: the format has none
};

// Requests over 15 minutes on five paths, logged when they end: about one in six is written
// after later ones (up to 20 s late), one in twenty sent no body ("-").
std::vector<Line> requests(std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::lognormal_distribution<double> fast(std::log(0.02), 0.8);
    std::normal_distribution<double> slow(1.5, 0.4);
    std::uniform_int_distribution<int> size(0, 250'000);
    std::vector<Line> lines;
    for (qint64 t = kBase; t < kBase + 900; ++t) {
        const int n = int(random() % 4);
        for (int i = 0; i < n; ++i) {
            Line line;
            line.time = random() % 6 == 0 ? t - qint64(random() % 20) : t;
            line.path = "/p" + QByteArray::number(int(random() % 5));
            line.bytes = random() % 20 == 0 ? QByteArray("-") : QByteArray::number(size(random));
            const double seconds = random() % 10 == 0 ? std::abs(slow(random)) : fast(random);
            line.seconds = QByteArray::number(seconds, 'f', 3);
            lines.push_back(line);
        }
    }
    return lines;
}

QByteArray combinedLog(const std::vector<Line>& lines) {
    QByteArray log;
    for (const Line& l : lines) {
        log += "10.1.2.3 - - [" + clfTime(l.time) + "] \"GET " + l.path + " HTTP/1.1\" 200 " +
               l.bytes + " \"-\" \"Mozilla/5.0\"\n";
    }
    return log;
}

constexpr const char* kNginxFormat =
    R"($remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent )"
    R"("$http_referer" "$http_user_agent" $request_time)";

QByteArray nginxLog(const std::vector<Line>& lines) {
    QByteArray log;
    for (const Line& l : lines) {
        log += "10.1.2.3 - - [" + clfTime(l.time) + "] \"GET " + l.path + " HTTP/1.1\" 200 " +
               l.bytes + " \"-\" \"curl/8.0\" " + l.seconds + "\n";
    }
    return log;
}

// The lines a query at T sees, in file order: those before the first line later than T (the
// replay answers T when it reaches that line), with times in (T - W, T].
std::vector<Line> inWindow(const std::vector<Line>& lines, qint64 at) {
    std::vector<Line> seen;
    for (const Line& l : lines) {
        if (l.time > at)
            break;
        if (l.time > at - kWindow)
            seen.push_back(l);
    }
    return seen;
}

// time,key,... rows of the CLI's output, by time and key.
std::map<std::pair<qint64, QByteArray>, QList<QByteArray>> rowsOf(const QByteArray& csv) {
    std::map<std::pair<qint64, QByteArray>, QList<QByteArray>> rows;
    const QList<QByteArray> lines = csv.trimmed().split('\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QList<QByteArray> fields = lines[i].split(',');
        const qint64 time = fields.takeFirst().toLongLong();
        const QByteArray key = fields.takeFirst();
        rows[{time, key}] = fields;
    }
    return rows;
}

// The nearest-rank quantile (docs/measures.md) of the sorted times: rank ceil(q n), 1-based,
// q = percent / 100, in integers.
double exactQuantile(const std::vector<double>& sorted, std::uint64_t percent) {
    const std::uint64_t rank = std::max<std::uint64_t>(1, (percent * sorted.size() + 99) / 100);
    return sorted[rank - 1];
}

bool withinBound(double answer, double exact) {
    return std::abs(answer - exact) <= (kAlpha + kPrinted) * exact;
}

const QList<qint64> kQueries = {kBase + 120, kBase + 301, kBase + 450, kBase + 899};

QString queryList() {
    QStringList times;
    for (const qint64 t : kQueries)
        times << QString::number(t);
    return times.join(QLatin1Char(','));
}

}  // namespace

class TestCliReplayMeasures : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& bytes) {
        QFile file(m_dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(bytes);
        return file.fileName();
    }

private Q_SLOTS:
    // Every row of --bytes at every query time equals the sum of the bytes of the lines the
    // window holds, counted here from the lines written ("-" is 0); a bad line is skipped.
    void bytesEqualAnIndependentCountOfTheLog() {
        const std::vector<Line> lines = requests(1);
        QByteArray log = combinedLog(lines);
        log.insert(log.indexOf('\n') + 1, "10.1.2.3 - - [" + clfTime(kBase) +
                                              "] \"GET /p0 HTTP/1.1\" 200 12k \"-\" \"x\"\n");
        const auto result =
            runCli({"replay", write("access.log", log), "--bytes", "--at", queryList()});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.contains("access.log:2: bytes '12k' is not a whole number"),
                 result.err.constData());
        QVERIFY(result.out.startsWith("time,key,bytes\n"));
        const auto rows = rowsOf(result.out);
        std::size_t expectedRows = 0;
        for (const qint64 at : kQueries) {
            std::map<QByteArray, quint64> bytes;
            for (const Line& l : inWindow(lines, at)) {
                const quint64 sent = l.bytes == "-" ? 0 : l.bytes.toULongLong();
                bytes[l.path] += sent;
                bytes["*"] += sent;
            }
            QVERIFY(bytes.size() > 2);
            expectedRows += bytes.size();
            for (const auto& [key, sum] : bytes) {
                const auto row = rows.find({at, key});
                QVERIFY2(row != rows.end(), key.constData());
                QCOMPARE(row->second.value(0).toULongLong(), sum);
            }
        }
        QCOMPARE(rows.size(), expectedRows);

        // --json says the same.
        const auto json =
            runCli({"replay", write("access.log", log), "--bytes", "--json", "--at", queryList()});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(doc.value("measure").toString(), QStringLiteral("bytes"));
        QCOMPARE(doc.value("bad_rows").toInteger(), 1);
        QCOMPARE(doc.value("window").toInteger(), kWindow);
        std::size_t jsonRows = 0;
        for (const QJsonValue answer : doc.value("answers").toArray()) {
            const qint64 at = answer.toObject().value("time").toInteger();
            for (const QJsonValue key : answer.toObject().value("keys").toArray()) {
                const QByteArray name = key.toObject().value("key").toString().toUtf8();
                QCOMPARE(QByteArray::number(key.toObject().value("bytes").toInteger()),
                         rows.at({at, name}).value(0));
                ++jsonRows;
            }
        }
        QCOMPARE(jsonRows, expectedRows);
    }

    // With --filter the bytes are those of the accepted lines alone: "*" is the one path the
    // filter keeps, counted here; --json names the filter and the lines it refused.
    void bytesOfAFilteredReplayCountTheAcceptedLinesOnly() {
        const std::vector<Line> lines = requests(5);
        const QString log = write("filtered.log", combinedLog(lines));
        const auto result = runCli(
            {"replay", log, "--bytes", "--filter", "path=/p1", "--json", "--at", queryList()});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(doc.value("filter").toString(), QStringLiteral("path=/p1"));
        const auto refused = std::count_if(lines.begin(), lines.end(),
                                           [](const Line& l) { return l.path != "/p1"; });
        QCOMPARE(doc.value("filtered_rows").toInteger(), qint64(refused));
        QCOMPARE(doc.value("rows").toInteger(), qint64(lines.size()) - refused);
        // The replay answers T at the first accepted line later than T: the window of the
        // accepted lines alone.
        std::vector<Line> accepted;
        std::copy_if(lines.begin(), lines.end(), std::back_inserter(accepted),
                     [](const Line& l) { return l.path == "/p1"; });
        const QJsonArray answers = doc.value("answers").toArray();
        QCOMPARE(answers.size(), kQueries.size());
        for (const QJsonValue answer : answers) {
            const qint64 at = answer.toObject().value("time").toInteger();
            quint64 expected = 0;
            for (const Line& l : inWindow(accepted, at))
                expected += l.bytes != "-" ? l.bytes.toULongLong() : 0;
            const QJsonArray keys = answer.toObject().value("keys").toArray();
            QCOMPARE(keys.size(), 2);  // /p1 and *
            QCOMPARE(keys[0].toObject().value("key").toString(), QStringLiteral("/p1"));
            QCOMPARE(quint64(keys[1].toObject().value("bytes").toInteger()), expected);
        }
    }

    // --latency of an nginx log with $request_time: every quantile within 1 % of the exact
    // nearest-rank quantile of the times the window's lines wrote, the max exactly the largest.
    void latencyQuantilesAreWithinTheBoundOfExactOnes() {
        const std::vector<Line> lines = requests(2);
        const auto result = runCli({"replay", write("nginx.log", nginxLog(lines)), "--log-format",
                                    kNginxFormat, "--latency", "--at", queryList()});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.isEmpty(), result.err.constData());
        QVERIFY(result.out.startsWith("time,key,p50,p90,p99,max\n"));
        const auto rows = rowsOf(result.out);
        std::size_t checked = 0;
        for (const qint64 at : kQueries) {
            std::map<QByteArray, std::vector<double>> times;
            for (const Line& l : inWindow(lines, at)) {
                times[l.path].push_back(l.seconds.toDouble());
                times["*"].push_back(l.seconds.toDouble());
            }
            for (auto& [key, values] : times) {
                std::sort(values.begin(), values.end());
                const auto row = rows.find({at, key});
                QVERIFY2(row != rows.end(), key.constData());
                const QList<QByteArray>& f = row->second;
                QCOMPARE(f.size(), 4);
                QVERIFY2(withinBound(f[0].toDouble(), exactQuantile(values, 50)), f[0].constData());
                QVERIFY2(withinBound(f[1].toDouble(), exactQuantile(values, 90)), f[1].constData());
                QVERIFY2(withinBound(f[2].toDouble(), exactQuantile(values, 99)), f[2].constData());
                QCOMPARE(f[3].toFloat(), float(values.back()));
                ++checked;
            }
        }
        QCOMPARE(rows.size(), checked);

        const auto json = runCli({"replay", write("nginx.log", nginxLog(lines)), "--log-format",
                                  kNginxFormat, "--latency", "--json", "--at", queryList()});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(doc.value("measure").toString(), QStringLiteral("latency"));
        const QJsonArray answers = doc.value("answers").toArray();
        QCOMPARE(answers.size(), kQueries.size());
        const QJsonObject all = answers.last().toObject().value("keys").toArray().last().toObject();
        QCOMPARE(all.value("key").toString(), QStringLiteral("*"));
        const auto& star = rows.at({kQueries.last(), "*"});
        for (const auto& [name, i] : {std::pair{"p50", 0}, {"p90", 1}, {"p99", 2}, {"max", 3}})
            QCOMPARE(all.value(name).toDouble(), star[i].toDouble());
        QCOMPARE(all.value("timed").toInteger(), qint64(inWindow(lines, kQueries.last()).size()));
    }

    // Apache's LogFormat with %b and %D (microseconds).
    void apacheLogWithMicroseconds() {
        QByteArray log;
        for (int i = 0; i < 10; ++i) {
            log += "10.0.0.9 - - [" + clfTime(kBase + i) + "] \"GET /api HTTP/1.1\" 200 " +
                   (i == 0 ? QByteArray("-") : QByteArray::number(100 * i)) + " " +
                   QByteArray::number(1000 * (i + 1)) + "\n";
        }
        const QString format = QStringLiteral(R"(%h %l %u %t "%r" %>s %b %D)");
        auto result =
            runCli({"replay", write("apache.log", log), "--log-format", format, "--latency"});
        QCOMPARE(result.exitCode, 0);
        const auto rows = rowsOf(result.out);
        const QList<QByteArray>& api = rows.at({kBase + 9, "/api"});
        QVERIFY(withinBound(api[0].toDouble(), 0.005));  // rank 5 of 1..10 ms
        QVERIFY(withinBound(api[1].toDouble(), 0.009));
        QVERIFY(withinBound(api[2].toDouble(), 0.010));
        QCOMPARE(api[3], QByteArray("0.01"));
        result = runCli({"replay", write("apache.log", log), "--log-format", format, "--bytes"});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "time,key,bytes\n" + QByteArray::number(kBase + 9) + ",/api,4500\n" +
                                 QByteArray::number(kBase + 9) + ",*,4500\n");
    }

    // Keys whose lines name no time get empty cells (null in --json); an empty window's "*" has
    // 0 bytes but no quantiles.
    void keysWithoutTheMeasureGetEmptyCells() {
        const QByteArray log = R"({"time":1700000000,"uri":"/timed","request_time":0.5,"bytes":10})"
                               "\n"
                               R"({"time":1700000001,"uri":"/untimed"})"
                               "\n";
        auto result = runCli(
            {"replay", write("mixed.json", log), "--latency", "--at", "1700000001,1700000400"});
        QCOMPARE(result.exitCode, 0);
        const QList<QByteArray> lines = result.out.split('\n');
        QCOMPARE(lines.size(), 6);  // the header, four rows and the final line break
        QCOMPARE(lines[0], QByteArray("time,key,p50,p90,p99,max"));
        QVERIFY(lines[1].startsWith("1700000001,/timed,"));
        QVERIFY(lines[1].endsWith(",0.5"));
        QVERIFY(withinBound(lines[1].split(',')[2].toDouble(), 0.5));
        QCOMPARE(lines[2], QByteArray("1700000001,/untimed,,,,"));
        QCOMPARE(lines[3], "1700000001,*," + lines[1].mid(lines[1].indexOf(",/timed,") + 8));
        QCOMPARE(lines[4], QByteArray("1700000400,*,,,,"));
        result = runCli(
            {"replay", write("mixed.json", log), "--bytes", "--at", "1700000001,1700000400"});
        QCOMPARE(result.out, QByteArray("time,key,bytes\n"
                                        "1700000001,/timed,10\n"
                                        "1700000001,/untimed,\n"
                                        "1700000001,*,10\n"
                                        "1700000400,*,0\n"));
        result = runCli(
            {"replay", write("mixed.json", log), "--latency", "--json", "--at", "1700000001"});
        const QJsonArray keys = QJsonDocument::fromJson(result.out)
                                    .object()
                                    .value("answers")
                                    .toArray()
                                    .first()
                                    .toObject()
                                    .value("keys")
                                    .toArray();
        QCOMPARE(keys.size(), 3);
        QVERIFY(keys[1].toObject().value("p50").isNull());
        QCOMPARE(keys[1].toObject().value("timed").toInteger(), 0);
    }

    void aLogWithoutTheMeasureIsRefused_data() {
        QTest::addColumn<QByteArray>("log");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QByteArray>("mentions");
        const QByteArray combined = combinedLog(requests(3));
        QTest::newRow("combined has no times")
            << combined << "--latency" << QByteArray("no line names its response time");
        QTest::newRow("trace CSV has no bytes")
            << QByteArray("timestamp,key\n1,a\n2,b\n") << "--bytes"
            << QByteArray("no line names the bytes it sent");
    }
    void aLogWithoutTheMeasureIsRefused() {
        QFETCH(QByteArray, log);
        QFETCH(QString, option);
        QFETCH(QByteArray, mentions);
        const auto result = runCli({"replay", write("plain.log", log), option});
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(result.err.contains(mentions), result.err.constData());
        QVERIFY2(result.err.contains("docs/measures.md"), result.err.constData());
    }

    void clashingOptionsAreRefused_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QByteArray>("mentions");
        QTest::newRow("both") << QStringList{"--bytes", "--latency"}
                              << QByteArray("--bytes and --latency print different tables");
        QTest::newRow("with --top")
            << QStringList{"--latency", "--top", "3"} << QByteArray("does not combine with --top");
        QTest::newRow("with --uniques") << QStringList{"--bytes", "--uniques"}
                                        << QByteArray("does not combine with --top or --uniques");
    }
    void clashingOptionsAreRefused() {
        QFETCH(QStringList, options);
        QFETCH(QByteArray, mentions);
        const auto result =
            runCli(QStringList{"replay", write("any.log", combinedLog(requests(4)))} + options);
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(result.err.contains(mentions), result.err.constData());
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliReplayMeasures)
#include "tst_cli_replay_measures.moc"
