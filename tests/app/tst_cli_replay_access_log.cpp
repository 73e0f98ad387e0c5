// hitcounter-cli replay over web server access logs, run as a process on real files: no
// options needed for a combined log or its gzip rotation, keys, a user's log_format, JSON
// lines, late lines, standard input, a gzip file cut short, and the errors a user sees.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTemporaryDir>
#include <QTest>
#include <vector>

#include <zlib.h>

#include "cli_process.h"
#include "tests/io/truncated_gzip.h"
#include "tests/test_main.h"

namespace {

constexpr qint64 kBase = 971211336;  // 10/Oct/2000:13:55:36 -0700

// A combined-format line `offset` seconds after kBase (written in the -0700 zone).
QByteArray combinedLine(int offset, const QByteArray& target, int status = 200,
                        const QByteArray& client = "10.0.0.1") {
    const int s = 13 * 3600 + 55 * 60 + 36 + offset;
    return client +
           QByteArray(" - - [10/Oct/2000:%1:%2:%3 -0700] \"GET ")
               .replace("%1", QByteArray::number(s / 3600).rightJustified(2, '0'))
               .replace("%2", QByteArray::number(s / 60 % 60).rightJustified(2, '0'))
               .replace("%3", QByteArray::number(s % 60).rightJustified(2, '0')) +
           target + " HTTP/1.1\" " + QByteArray::number(status) +
           " 512 \"https://example.com/\" \"Mozilla/5.0 (X11)\"\n";
}

// Three pages over 10 minutes: /a every second, /b every 2 s, /c?x=1 every 5 s (one 404 in 5).
QByteArray sampleLog() {
    QByteArray log;
    for (int t = 0; t < 600; ++t) {
        log += combinedLine(t, "/a");
        if (t % 2 == 0)
            log += combinedLine(t, "/b?page=" + QByteArray::number(t));
        if (t % 5 == 0)
            log += combinedLine(t, "/c?x=1", t % 25 == 0 ? 404 : 200);
    }
    return log;
}

QByteArray gzipped(const QByteArray& data) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(int(deflateBound(&z, uLong(data.size()))) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    z.avail_in = uInt(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(out.size() - int(z.avail_out));
    deflateEnd(&z);
    return out;
}

}  // namespace

class TestCliReplayAccessLog : public QObject {
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

    // At kBase + 599 the window (kBase + 299, kBase + 599] holds 300 /a, 150 /b, 60 /c hits.
    static QByteArray expectedTop() {
        const QByteArray t = QByteArray::number(kBase + 599);
        return "time,rank,key,count\n" + t + ",1,/a,300\n" + t + ",2,/b,150\n" + t + ",3,/c,60\n";
    }

private Q_SLOTS:
    void combinedLogNeedsNoOptions() {
        const auto log = write("access.log", sampleLog());
        const auto result =
            runCli({"replay", log, "--top", "10", "--at", QString::number(kBase + 599)});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, expectedTop());
        QVERIFY2(result.err.isEmpty(), result.err.constData());
    }

    void gzipRotationGivesTheSameAnswer() {
        const auto log = write("access.log.3.gz", gzipped(sampleLog()));
        const auto result =
            runCli({"replay", log, "--top", "10", "--at", QString::number(kBase + 599)});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, expectedTop());
    }

    void gzipOnStandardInput() {
        const auto result =
            runCli({"replay", "-", "--at", QString::number(kBase + 599)}, gzipped(sampleLog()));
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out,
                 "time,policy,count\n" + QByteArray::number(kBase + 599) + ",ring,510\n");
    }

    void keyChoices_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QByteArray>("firstRow");
        const QByteArray t = QByteArray::number(kBase + 599);
        QTest::newRow("status") << "status" << t + ",1,200,498";
        QTest::newRow("path+query") << "path+query" << t + ",1,/a,300";
        QTest::newRow("method") << "method" << t + ",1,GET,510";
        QTest::newRow("client") << "client" << t + ",1,10.0.0.1,510";
    }
    void keyChoices() {
        QFETCH(QString, key);
        QFETCH(QByteArray, firstRow);
        const auto log = write("keys.log", sampleLog());
        const auto result = runCli(
            {"replay", log, "--key", key, "--top", "1", "--at", QString::number(kBase + 599)});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out.split('\n').value(1), firstRow);
    }

    void lateLinesInsideTheWindowAreCounted() {
        // Requests are logged when they end: a slow one appears after later ones.
        const QByteArray log = combinedLine(10, "/x") + combinedLine(12, "/x") +
                               combinedLine(5, "/slow") + combinedLine(13, "/x");
        const auto result = runCli({"replay", write("late.log", log), "--at",
                                    QString::number(kBase + 13), "--policy", "all"});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.contains(QByteArray::number(kBase + 13) + ",ring,4\n"),
                 result.out.constData());
        QVERIFY2(result.out.contains(QByteArray::number(kBase + 13) + ",deque,4\n"),
                 result.out.constData());
    }

    void usersLogFormatAndJsonLines() {
        const auto custom = write("custom.log",
                                  "971211336.5 GET /u 200 ::1\n"
                                  "971211337.1 POST /u 201 ::2\n");
        auto result = runCli({"replay", custom, "--log-format",
                              "$msec $request_method $uri $status $remote_addr", "--uniques"});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "time,key,uniques\n971211337,/u,2\n971211337,*,2\n");

        const auto json =
            write("json.log", R"({"time":"2000-10-10T20:55:36Z","uri":"/j","remote_addr":"a"})"
                              "\n"
                              R"({"time":"2000-10-10T20:55:37Z","uri":"/j","remote_addr":"b"})"
                              "\n");
        result = runCli({"replay", json, "--top", "1"});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "time,rank,key,count\n971211337,1,/j,2\n");
    }

    void badLinesAreSkippedOrStopStrictRuns() {
        const auto log = write("bad.log", combinedLine(0, "/a") + "this is not a log line\n" +
                                              combinedLine(1, "/a") + combinedLine(2, "/a"));
        auto result = runCli({"replay", log});
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.contains("bad.log:2: "), result.err.constData());
        QVERIFY2(result.err.contains("skipped 1 bad row(s) of 4"), result.err.constData());
        QCOMPARE(result.out, "time,policy,count\n" + QByteArray::number(kBase + 2) + ",ring,3\n");
        result = runCli({"replay", log, "--strict"});
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(result.err.contains("bad.log:2: "), result.err.constData());
    }

    // A gzip rotation cut mid-copy (issue 23 item 6): what is readable is replayed and counted,
    // stderr says where it was cut, --json says "truncated": true, --strict exits 2. The
    // readable lines are counted by inflating the cut file with zlib alone. (Before: exit 2 and
    // no count.)
    void aTruncatedGzipIsReplayedUpToTheCut() {
        const QByteArray whole = gzipped(sampleLog());
        const QByteArray cut = whole.left(whole.size() * 2 / 3);
        const std::string readable = hitcounter::testing::inflateWhatIsThere(
            std::string_view(cut.constData(), std::size_t(cut.size())));
        const auto lines = qint64(hitcounter::testing::wholeLines(readable));
        QVERIFY(lines > 100 && lines < 1320);  // 600 + 300 + 120 lines in the whole log
        const auto log = write("access.log.2.gz", cut);
        const QByteArray where = "truncated at line " + QByteArray::number(lines + 1) + ": " +
                                 QLocale(QLocale::English).toString(lines).toUtf8() +
                                 " lines replayed";
        auto result = runCli({"replay", log, "--json"});
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.contains(where), result.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(json.value("truncated").toBool(), true);
        QCOMPARE(json.value("rows").toInteger(), lines);
        QCOMPARE(json.value("bad_rows").toInteger(), 0);
        // the count at the last readable line's second: every readable line in its window
        qint64 expected = 0;
        qint64 last = 0;
        std::vector<qint64> times;
        QList<QByteArray> readLines = QByteArray::fromStdString(readable).split('\n');
        readLines.removeLast();  // after the last line break: the line the cut went through
        for (const QByteArray& line : readLines) {
            const qsizetype at = line.indexOf(':', line.indexOf('['));  // [10/Oct/2000:hh:mm:ss
            const QList<QByteArray> hms = line.mid(at + 1, 8).split(':');
            times.push_back(kBase - (13 * 3600 + 55 * 60 + 36) + hms[0].toInt() * 3600 +
                            hms[1].toInt() * 60 + hms[2].toInt());
            last = std::max(last, times.back());
        }
        QCOMPARE(qint64(times.size()), lines);
        for (const qint64 t : times)
            expected += t > last - 300 ? 1 : 0;
        const QJsonArray policies = json.value("policies").toArray();
        QCOMPARE(policies.first().toObject().value("final_count").toInteger(), expected);
        QCOMPARE(json.value("final_time").toInteger(), last);
        result = runCli({"replay", log, "--strict"});
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(result.err.contains(where), result.err.constData());
        // an intact file says nothing of the kind
        result = runCli({"replay", write("whole.log.gz", whole), "--json"});
        QCOMPARE(result.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(result.out).object().value("truncated").toBool(), false);
        QVERIFY(!result.err.contains("truncated"));
    }

    void badOptionsAndUnknownFilesExitWith2_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("mentions");
        const QByteArray log = combinedLine(0, "/a");
        QTest::newRow("unknown format")
            << QStringList{"--format", "apache"} << log << "--format 'apache'";
        QTest::newRow("unknown key") << QStringList{"--key", "url"} << log << "--key 'url'";
        QTest::newRow("vhost without host field")
            << QStringList{"--key", "vhost"} << log << "$host";
        QTest::newRow("log format without time")
            << QStringList{"--log-format", "$remote_addr"} << log << "no time variable";
        QTest::newRow("format and log format")
            << QStringList{"--format", "common", "--log-format", "$msec"} << log << "give one";
        QTest::newRow("negative inflation ratio")
            << QStringList{"--max-inflation-ratio", "-1"} << log << "--max-inflation-ratio '-1'";
        QTest::newRow("inflation ratio not a number")
            << QStringList{"--max-inflation-ratio", "lots"} << log << "0 for no limit";
        QTest::newRow("unrecognised file")
            << QStringList{} << QByteArray("hello there\n") << "cannot recognise the format";
    }
    void badOptionsAndUnknownFilesExitWith2() {
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, content);
        QFETCH(QString, mentions);
        const auto result = runCli(QStringList{"replay", write("opt.log", content)} + extra);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QVERIFY(result.out.isEmpty());
        QVERIFY2(QString::fromUtf8(result.err).contains(mentions), result.err.constData());
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliReplayAccessLog)
#include "tst_cli_replay_access_log.moc"
