// listen --metrics over real sockets: the endpoint's numbers against the listener's own
// report, hostile keys and a million distinct keys keep the exposition valid (promtool) and
// bounded, and scrapes during a flood (and a scraper that never reads) cost no hit.
#include <QDateTime>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

#include "tests/app/listen_process.h"
#include "tests/fleet/redis_server.h"
#include "tests/http/http_client.h"
#include "tests/metrics/promtool.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::testing;

namespace {

// The value of the sample `series` (name and labels exactly as rendered) in an exposition.
std::optional<double> sampleValue(const std::string& text, const std::string& series) {
    const auto at = text.find("\n" + series + " ");
    if (at == std::string::npos)
        return std::nullopt;
    return std::stod(text.substr(at + series.size() + 2));
}

// Sum of every hitcounter_hits_total sample.
double sumOfTotals(const std::string& text) {
    double sum = 0;
    std::size_t at = 0;
    while ((at = text.find("\nhitcounter_hits_total{", at)) != std::string::npos) {
        const auto end = text.find('\n', at + 1);
        sum += std::stod(text.substr(text.rfind(' ', end) + 1, end));
        at = end;
    }
    return sum;
}

QJsonObject reportOf(const CliResult& result) {
    return QJsonDocument::fromJson(result.out).object();
}

}  // namespace

class TestCliListenMetrics : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theEndpointShowsWhatTheReportCounts() {
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--json"}, 1));
        const quint16 port = cli.metricsPort();
        QVERIFY(port != 0);
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), "k:5|c\nk:2|c|@0.5\nbad\nload:1|g\nz:1|c\n"));
        }
        const QString listener =
            QStringLiteral("statsd tcp 127.0.0.1:%1").arg(cli.port("statsd tcp"));
        std::string text;
        const auto lines = [&](const char* result) {
            return sampleValue(
                text, QStringLiteral("hitcounter_lines_total{listener=\"%1\",result=\"%2\"}")
                          .arg(listener, QLatin1String(result))
                          .toStdString());
        };
        // The hits and the listener's line counts are published apart (a scrape may see one
        // before the other): wait for both.
        QVERIFY(waitUntil(
            [&] {
                text = httpGet(port, "/metrics").body;
                return sampleValue(text, "hitcounter_hits_total{key=\"k\"}") == 9.0 &&
                       lines("counted") == 3.0 && lines("bad") == 1.0 && lines("ignored") == 1.0;
            },
            std::chrono::seconds(30)));
        QCOMPARE(sampleValue(text, "hitcounter_window_hits{key=\"k\",window=\"60\"}"), 9.0);
        QCOMPARE(sampleValue(text, "hitcounter_window_hits{key=\"k\",window=\"300\"}"), 9.0);
        QCOMPARE(sampleValue(text, "hitcounter_window_hits{key=\"k\",window=\"3600\"}"), 9.0);
        QCOMPARE(sampleValue(text, "hitcounter_hits_total{key=\"__other__\"}"), 0.0);
        QCOMPARE(sampleValue(text, "hitcounter_dropped_hits_total{reason=\"queue_full\"}"), 0.0);
        QVERIFY(text.find("hitcounter_build_info{version=\"") != std::string::npos);
        const auto [code, output] = promtoolCheck(text);
        QVERIFY2(code == 0, output.constData());

        const HttpResult om =
            httpGet(port, "/metrics", "application/openmetrics-text;version=1.0.0");
        QVERIFY(om.headers.find("Content-Type: application/openmetrics-text; version=1.0.0") !=
                std::string::npos);
        QVERIFY(om.body.ends_with("# EOF\n"));
        const HttpResult health = httpGet(port, "/healthz");
        QCOMPARE(health.status, 200);
        QCOMPARE(health.body, std::string("ok\n"));

        const QJsonObject report = reportOf(cli.stop(SIGTERM));
        QCOMPARE(report.value("keys").toObject().value("k").toInt(), 9);
        QCOMPARE(report.value("hits").toInt(), 10);
    }

    void hostileKeysKeepTheExpositionValidAndBounded() {
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--json",
                           "--max-key-length", "65536", "--key-memory", "512"},
                          1));
        const quint16 port = cli.metricsPort();
        std::string hostile =
            "quo\"te:1|c\nback\\slash:1|c\n\xff\xfe:1|c\n__other__:1|c\n"
            "\x1b]0;title\x07:1|c\ncr\rin:1|c\n";
        for (int i = 0; i < 20; ++i)
            hostile += std::string(10000, char('a' + i % 26)) + std::to_string(i) + ":1|c\n";
        Count sent = 26;
        std::string many;
        for (int i = 0; i < 1'000'000; ++i)
            many += "key-" + std::to_string(i) + ":1|c\n";
        sent += 1'000'000;
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), hostile));
            QVERIFY(sendAll(tcp.get(), many));
        }
        std::string text;
        QVERIFY(waitUntil(
            [&] {
                text = httpGet(port, "/metrics").body;
                return sumOfTotals(text) == double(sent);
            },
            std::chrono::seconds(120)));
        // Bounded: 100 keys and __other__ per family, labels of at most 1 KiB.
        QVERIFY2(text.size() < 1'000'000, qPrintable(QString::number(text.size())));
        std::size_t series = 0;
        for (std::size_t at = 0;
             (at = text.find("\nhitcounter_hits_total{", at)) != std::string::npos; ++at)
            ++series;
        QCOMPARE(series, std::size_t{101});
        QVERIFY(text.find("hitcounter_hits_total{key=\"quo\\\"te\"} 1\n") != std::string::npos);
        QVERIFY(text.find("hitcounter_hits_total{key=\"back\\\\slash\"} 1\n") != std::string::npos);
        QVERIFY(text.find("hitcounter_hits_total{key=\"\\\\xff\\\\xfe\"} 1\n") !=
                std::string::npos);
        const auto [code, output] = promtoolCheck(text);
        QVERIFY2(code == 0, output.constData());
        const std::string om = httpGet(port, "/metrics", "application/openmetrics-text").body;
        QVERIFY(om.size() < 1'000'000);
        // A million keys under a sanitizer on a busy machine: allow the stop a minute.
        const CliResult stopped = cli.stop(SIGTERM, 60000);
        QVERIFY2(stopped.finished, stopped.err.right(2000).constData());
        QCOMPARE(reportOf(stopped).value("hits").toDouble(), double(sent));
    }

    void scrapesDuringAFloodCostNoHit() {
        ListeningCli cli;
        QVERIFY(cli.start(
            {"--tcp", "127.0.0.1:0", "--udp", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--json"},
            2));
        const quint16 port = cli.metricsPort();
        std::atomic<bool> flooding{true};
        std::atomic<int> scrapes{0};
        std::atomic<int> failedScrapes{0};
        // A scraper that asks for /metrics and never reads the reply, and one that sends
        // half a request and stalls: neither may hold up counting or the other scrapes.
        UniqueFd neverReads = tcpConnect(port);
        QVERIFY(sendAll(neverReads.get(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"));
        UniqueFd halfRequest = tcpConnect(port);
        QVERIFY(sendAll(halfRequest.get(), "GET /metr"));
        std::thread scraper([&] {
            while (flooding.load()) {
                const HttpResult r = httpGet(port, "/metrics");
                ++(r.status == 200 ? scrapes : failedScrapes);
            }
        });
        constexpr int kSenders = 2;
        constexpr int kLinesEach = 500'000;
        std::vector<std::thread> senders;
        for (int s = 0; s < kSenders; ++s)
            senders.emplace_back([&, s] {
                UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
                std::string chunk;
                for (int i = 0; i < kLinesEach; ++i) {
                    chunk += "flood" + std::to_string(s) + ":1|c\n";
                    if (chunk.size() > 60000) {
                        sendAll(tcp.get(), chunk);
                        chunk.clear();
                    }
                }
                sendAll(tcp.get(), chunk);
            });
        for (auto& t : senders)
            t.join();
        std::string text;
        const bool counted = waitUntil(
            [&] {
                text = httpGet(port, "/metrics").body;
                return sumOfTotals(text) == double(kSenders) * kLinesEach;
            },
            std::chrono::seconds(120));
        flooding = false;
        scraper.join();
        QVERIFY(counted);
        QVERIFY2(scrapes.load() >= 3, qPrintable(QString::number(scrapes.load())));
        QCOMPARE(failedScrapes.load(), 0);
        QCOMPARE(sampleValue(text, "hitcounter_dropped_hits_total{reason=\"queue_full\"}"), 0.0);
        const QJsonObject report = reportOf(cli.stop(SIGTERM));
        QCOMPARE(report.value("hits").toInt(), kSenders * kLinesEach);
        QCOMPARE(report.value("dropped").toInt(), 0);
    }

    void followedAccessLogsGiveDistinctVisitorsPerKey() {
        QTemporaryDir dir;
        const QString log = dir.filePath("access.log");
        // Three clients on /a (one twice), one on /b, stamped now (in every window).
        const QByteArray now = QDateTime::currentDateTimeUtc()
                                   .toString(QStringLiteral("dd/MMM/yyyy:HH:mm:ss"))
                                   .toLatin1();
        QByteArray lines;
        for (const char* client : {"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.1"})
            lines += QByteArray(client) + " - - [" + now + " +0000] \"GET /a HTTP/1.1\" 200 5\n";
        lines += "10.0.0.9 - - [" + now + " +0000] \"GET /b HTTP/1.1\" 200 5\n";
        QFile file(log);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(lines);
        file.close();
        ListeningCli cli;
        QVERIFY(cli.start({"--follow", log, "--from-start", "--metrics", "127.0.0.1:0"}, 0));
        const quint16 port = cli.metricsPort();
        std::string text;
        QVERIFY(waitUntil(
            [&] {
                text = httpGet(port, "/metrics").body;
                return sampleValue(text, "hitcounter_window_hits{key=\"/a\",window=\"300\"}") ==
                       4.0;
            },
            std::chrono::seconds(30)));
        QCOMPARE(sampleValue(text, "hitcounter_window_uniques{key=\"/a\",window=\"300\"}"), 3.0);
        QCOMPARE(sampleValue(text, "hitcounter_window_uniques{key=\"/b\",window=\"300\"}"), 1.0);
        QCOMPARE(cli.stop(SIGTERM).exitCode, 0);
    }

    void healthIs503WhileRedisIsDownAndOkAgainAfter() {
        RedisServer redis;
        QVERIFY2(redis.start(), redis.output().c_str());
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--redis",
                           QString::fromStdString(redis.url()), "--flush-interval", "0.1"},
                          1));
        const quint16 port = cli.metricsPort();
        {
            UniqueFd tcp = tcpConnect(cli.port("statsd tcp"));
            QVERIFY(sendAll(tcp.get(), "k:1|c\n"));
        }
        QVERIFY(waitUntil([&] { return httpGet(port, "/healthz").status == 200; },
                          std::chrono::seconds(30)));
        const std::string text = httpGet(port, "/metrics").body;
        QVERIFY(sampleValue(text, "hitcounter_redis_lag_seconds").has_value());
        QCOMPARE(sampleValue(text, "hitcounter_dropped_hits_total{reason=\"redis\"}"), 0.0);
        redis.kill();
        HttpResult down;
        QVERIFY(waitUntil(
            [&] {
                down = httpGet(port, "/healthz");
                return down.status == 503;
            },
            std::chrono::seconds(30)));
        QVERIFY2(down.body.starts_with("redis: not connected"), down.body.c_str());
        QVERIFY2(redis.start(), redis.output().c_str());
        QVERIFY(waitUntil([&] { return httpGet(port, "/healthz").status == 200; },
                          std::chrono::seconds(60)));
        QCOMPARE(cli.stop(SIGTERM).exitCode, 0);
    }

    void badOrTakenMetricsAddressesAreErrors() {
        const CliResult bad = runCli({"listen", "--metrics", "127.0.0.1:http", "--duration", "1"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--metrics: "), bad.err.constData());
        const CliResult keys = runCli({"listen", "--metrics", "0", "--metrics-keys", "0"});
        QCOMPARE(keys.exitCode, 2);
        QVERIFY2(keys.err.contains("--metrics-keys"), keys.err.constData());
        ListeningCli first;
        QVERIFY(first.start({"--tcp", "127.0.0.1:0", "--metrics", "127.0.0.1:0"}, 1));
        const quint16 port = first.metricsPort();
        const CliResult taken = runCli({"listen", "--tcp", "127.0.0.1:0", "--metrics",
                                        QStringLiteral("127.0.0.1:%1").arg(port)});
        QCOMPARE(taken.exitCode, 1);
        QVERIFY2(taken.err.contains("metrics http 127.0.0.1:"), taken.err.constData());
        QVERIFY2(taken.err.contains("cannot bind"), taken.err.constData());
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliListenMetrics)
#include "tst_cli_listen_metrics.moc"
