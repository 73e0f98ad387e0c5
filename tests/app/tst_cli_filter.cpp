// hitcounter-cli --filter (docs/filters.md), run as a process and checked against counts the
// test makes itself: on a real Combined log no one here wrote (logstalgia's example, 3,260
// lines of a 2009 Apache server), each line split by hand; breakdowns (--top with --filter);
// vhost in a user's log_format; listen over real UDP on 127.0.0.1 filtering statsd names and
// tags; and the errors a user sees (exit code 2, the column named).
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <functional>
#include <vector>

#include "core/net/socket_util.h"
#include "tests/app/listen_process.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::testing;

namespace {

const QString kRealLog = QStringLiteral("/usr/share/logstalgia/example.log");
constexpr qint64 kRealLogEnd = 1240383411;  // its last line: 22/Apr/2009:18:56:51 +1200

// One line of a Combined log, split the plain way: `host - - [time] "METHOD target PROTO"
// status bytes "referer" "agent"`.
struct LogLine {
    QByteArray client, method, path, status;
};

std::vector<LogLine> splitLog(const QByteArray& text) {
    std::vector<LogLine> lines;
    for (const QByteArray& line : text.split('\n')) {
        if (line.isEmpty())
            continue;
        const QList<QByteArray> quoted = line.split('"');
        const QList<QByteArray> request = quoted.value(1).split(' ');
        const QByteArray target = request.value(1);
        lines.push_back({line.left(line.indexOf(' ')), request.value(0),
                         target.left(target.indexOf('?') < 0 ? target.size() : target.indexOf('?')),
                         quoted.value(2).trimmed().split(' ').value(0)});
    }
    return lines;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QJsonObject jsonOf(const CliResult& result) {
    return QJsonDocument::fromJson(result.out).object();
}

// `replay --top K` output for one query time from independent per-key counts: count
// descending, ties by key in byte order.
QByteArray topTable(const QMap<QByteArray, int>& counts, int k, qint64 at) {
    std::vector<std::pair<QByteArray, int>> rows(counts.keyValueBegin(), counts.keyValueEnd());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    QByteArray table = "time,rank,key,count\n";
    for (int i = 0; i < std::min<int>(k, int(rows.size())); ++i)
        table += QByteArray::number(at) + ',' + QByteArray::number(i + 1) + ',' + rows[i].first +
                 ',' + QByteArray::number(rows[i].second) + '\n';
    return table;
}

}  // namespace

class TestCliFilter : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::vector<LogLine> m_real;

private Q_SLOTS:
    void initTestCase() {
        const QByteArray text = readAll(kRealLog);
        if (text.isEmpty())
            QFAIL("no /usr/share/logstalgia/example.log: run scripts/install-deps.sh");
        m_real = splitLog(text);
        QCOMPARE(m_real.size(), std::size_t{3260});
    }

    // Every hit of the 4-minute log is in a one-hour window at its last second: the count is
    // the number of lines the filter accepts.
    void filteredCountsEqualAnIndependentCount() {
        const std::vector<std::pair<QString, std::function<bool(const LogLine&)>>> cases = {
            {"status=404", [](const LogLine& l) { return l.status == "404"; }},
            {"status=3xx", [](const LogLine& l) { return l.status.startsWith('3'); }},
            {"status!=200", [](const LogLine& l) { return l.status != "200"; }},
            {"path~'^/images/' and not status=200",
             [](const LogLine& l) { return l.path.startsWith("/images/") && l.status != "200"; }},
            {"method=GET or status=404",
             [](const LogLine& l) { return l.method == "GET" || l.status == "404"; }},
            {"client~'\\.nz$' and (status=304 or path~'\\.gif$')",
             [](const LogLine& l) {
                 return l.client.endsWith(".nz") && (l.status == "304" || l.path.endsWith(".gif"));
             }},
            {"path=/robots.txt", [](const LogLine& l) { return l.path == "/robots.txt"; }},
            {"not path~'\\.(jpe?g|gif|png|css|js)$'",
             [](const LogLine& l) {
                 for (const char* e : {".jpg", ".jpeg", ".gif", ".png", ".css", ".js"})
                     if (l.path.endsWith(e))
                         return false;
                 return true;
             }},
        };
        for (const auto& [filter, accepts] : cases) {
            const auto expected = std::count_if(m_real.begin(), m_real.end(), accepts);
            QVERIFY2(expected > 0 && expected < 3260, qPrintable(filter));
            const CliResult result =
                runCli({"replay", kRealLog, "--filter", filter, "--window", "3600", "--at",
                        QString::number(kRealLogEnd), "--json"});
            QVERIFY2(result.exitCode == 0, result.err.constData());
            const QJsonObject report = jsonOf(result);
            const qint64 counted = report["answers"][0]["counts"]["ring"].toInteger();
            QVERIFY2(counted == expected, qPrintable(QStringLiteral("%1: counted %2, expected %3")
                                                         .arg(filter)
                                                         .arg(counted)
                                                         .arg(expected)));
            QCOMPARE(report["rows"].toInteger(), qint64(expected));
            QCOMPARE(report["filtered_rows"].toInteger(), qint64(3260 - expected));
            QCOMPARE(report["filter"].toString(), filter);
            QCOMPARE(report["bad_rows"].toInteger(), 0);
        }
    }

    // --top K of one field within a filter: the top missing paths, the top clients of images,
    // the statuses of GIFs.
    void breakdownsEqualAnIndependentTopK() {
        struct Case {
            QString key, filter;
            int k;
            std::function<bool(const LogLine&)> accepts;
            std::function<QByteArray(const LogLine&)> keyOf;
        };
        const std::vector<Case> cases = {
            {"path", "status=404", 10, [](const LogLine& l) { return l.status == "404"; },
             [](const LogLine& l) { return l.path; }},
            {"client", "path~'^/images/'", 5,
             [](const LogLine& l) { return l.path.startsWith("/images/"); },
             [](const LogLine& l) { return l.client; }},
            {"status", "path~'\\.gif$'", 3,
             [](const LogLine& l) { return l.path.endsWith(".gif"); },
             [](const LogLine& l) { return l.status; }},
        };
        for (const Case& c : cases) {
            QMap<QByteArray, int> counts;
            for (const LogLine& l : m_real)
                if (c.accepts(l))
                    ++counts[c.keyOf(l)];
            QVERIFY2(counts.size() > 1, qPrintable(c.filter));
            const CliResult result = runCli({"replay", kRealLog, "--key", c.key, "--top",
                                             QString::number(c.k), "--filter", c.filter, "--window",
                                             "3600", "--at", QString::number(kRealLogEnd)});
            QVERIFY2(result.exitCode == 0, result.err.constData());
            QCOMPARE(result.out, topTable(counts, c.k, kRealLogEnd));
        }
    }

    // limit counts the requests of the lines the filter accepts, and nothing else.
    void limitCountsOnlyFilteredRequests() {
        const auto expected = std::count_if(m_real.begin(), m_real.end(),
                                            [](const LogLine& l) { return l.status == "302"; });
        const CliResult result =
            runCli({"limit", kRealLog, "--filter", "status=302", "--limit", "1000000", "--per",
                    "60", "--algorithm", "fixed", "--json"});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        const QJsonObject report = jsonOf(result);
        QCOMPARE(report["requests"].toInteger(), qint64(expected));
        QCOMPARE(report["algorithms"]["fixed"]["accepted"].toInteger(), qint64(expected));
    }

    // vhost exists only in a log_format that logs it; the filter sees it there.
    void vhostInAUsersLogFormat() {
        QFile log(m_dir.filePath("vhosts.log"));
        QVERIFY(log.open(QIODevice::WriteOnly));
        int expected = 0;
        for (int i = 0; i < 50; ++i) {
            const QByteArray host = i % 3 == 0 ? "api.example.org" : "www.example.org";
            expected += host.startsWith("api.") && i % 2 == 0;
            log.write("10.0.0." + QByteArray::number(i % 7) + ' ' + host +
                      " [10/Oct/2000:13:55:" + QByteArray::number(10 + i % 40) + " -0700] \"" +
                      (i % 2 == 0 ? "GET" : "POST") + " /x HTTP/1.1\" 200\n");
        }
        log.close();
        const QStringList format{"--log-format",
                                 "$remote_addr $host [$time_local] \"$request\" $status"};
        const CliResult result = runCli(QStringList{"replay", log.fileName(), "--filter",
                                                    "vhost~'^api\\.' and method=GET", "--json"} +
                                        format);
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(jsonOf(result)["rows"].toInteger(), qint64(expected));
        // A format without a host has no vhost to filter on.
        const CliResult combined = runCli({"replay", kRealLog, "--filter", "vhost=a"});
        QCOMPARE(combined.exitCode, 2);
        QVERIFY2(combined.err.contains("filter 'vhost=a': column 1: field 'vhost' is not in this "
                                       "log's lines (they have status, method, path and client)"),
                 combined.err.constData());
    }

    // statsd over real UDP on 127.0.0.1: only the lines whose name and tags pass count; the
    // rest are ignored lines.
    void listenFiltersStatsdNamesAndTags() {
        ListeningCli cli;
        QVERIFY(cli.start(
            {"--udp", "127.0.0.1:0", "--json", "--filter", "name~'^pages\\.' and tag=env:prod"},
            1));
        const std::vector<std::pair<QByteArray, int>> sent = {
            {"pages.home:1|c|#env:prod", 1},
            {"pages.home:2|c|#env:dev", 0},
            {"pages.about:3|c|#region:eu,env:prod", 3},
            {"api.users:4|c|#env:prod", 0},
            {"pages.home:5|c", 0},
            {"pages.home:6|c|#env:prod,canary|@0.5", 12},
        };
        QByteArray datagram;
        qint64 expectedHits = 0;
        for (const auto& [line, hits] : sent) {
            datagram += line + '\n';
            expectedHits += hits;
        }
        UniqueFd udp = udpSender(cli.port("statsd udp"));
        QVERIFY(sendAll(udp.get(), datagram.toStdString()));
        const CliResult result = cli.stop(SIGTERM);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 0);
        const QJsonObject report = jsonOf(result);
        QCOMPARE(report["lines"].toInteger(), 6);
        QCOMPARE(report["hits"].toInteger(), expectedHits);
        QCOMPARE(report["ignored"].toInteger(), 3);
        QCOMPARE(report["keys"]["pages.home"].toInteger(), 1 + 12);
        QCOMPARE(report["keys"]["pages.about"].toInteger(), 3);
        QVERIFY(!report["keys"].toObject().contains("api.users"));
    }

    void badFiltersExitWith2NamingTheColumn_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("expression ends early")
            << QStringList{"replay", kRealLog, "--filter", "status=5xx and"}
            << "hitcounter-cli: --filter 'status=5xx and': column 15: expected a field name "
               "(status, method, path, vhost, client, name or tag), found the end\n";
        QTest::newRow("unknown field in limit")
            << QStringList{"limit", kRealLog, "--limit", "1", "--per", "1", "--filter", "code=1"}
            << "hitcounter-cli: --filter 'code=1': column 1: unknown field 'code'; expected "
               "status, method, path, vhost, client, name or tag\n";
        QTest::newRow("bad regular expression")
            << QStringList{"replay", kRealLog, "--filter", "path~'[a'"}
            << "hitcounter-cli: --filter 'path~'[a'': column 6: expected a regular expression "
               "(RE2 syntax), found '[a': missing ]: [a\n";
        QTest::newRow("statsd has no status")
            << QStringList{"listen", "--udp", "127.0.0.1:0", "--filter", "name=a or status=5xx"}
            << "hitcounter-cli: filter 'name=a or status=5xx': column 11: field 'status' is not "
               "in statsd lines (they have name and tag)\n";
        QTest::newRow("graphite has no tags")
            << QStringList{"listen", "--graphite", "127.0.0.1:0", "--filter", "tag=a"}
            << "hitcounter-cli: filter 'tag=a': column 1: field 'tag' is not in graphite lines "
               "(they have name)\n";
        QTest::newRow("an access log has no name")
            << QStringList{"replay", kRealLog, "--filter", "name=a"}
            << "hitcounter-cli: " + kRealLog +
                   ": filter 'name=a': column 1: field 'name' is not in this log's lines (they "
                   "have status, method, path and client)\n";
    }
    void badFiltersExitWith2NamingTheColumn() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const CliResult result = runCli(arguments);
        QVERIFY(result.finished);
        QCOMPARE(result.exitCode, 2);
        QCOMPARE(QString::fromUtf8(result.err), message);
    }

    void aTraceCsvHasNoFieldsToFilter() {
        QFile trace(m_dir.filePath("trace.csv"));
        QVERIFY(trace.open(QIODevice::WriteOnly));
        trace.write("timestamp,key\n1,a\n");
        trace.close();
        const CliResult result = runCli({"replay", trace.fileName(), "--filter", "path=a"});
        QCOMPARE(result.exitCode, 2);
        QCOMPARE(QString::fromUtf8(result.err),
                 "hitcounter-cli: " + trace.fileName() +
                     ": filter 'path=a': column 1: field 'path' is not in trace CSV rows (they "
                     "have no fields to filter on)\n");
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliFilter)
#include "tst_cli_filter.moc"
