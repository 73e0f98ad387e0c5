// The bar of issue 26 against the real thing: Debian's Prometheus 2.42 (started by the test on
// a free 127.0.0.1 port, with its own storage, scraping every second) scrapes
// `hitcounter-cli listen --metrics`, and its HTTP API gives back exactly the listener's counts.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "tests/app/listen_process.h"
#include "tests/app/prometheus_server.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::testing;

namespace {

// The raw samples of an instant range vector query: (unix seconds, value) pairs.
std::vector<std::pair<double, double>> samples(const PrometheusServer& prometheus,
                                               const QString& rangeQuery) {
    std::vector<std::pair<double, double>> points;
    const QJsonArray result = prometheus.query(rangeQuery);
    if (result.size() != 1)
        return points;
    for (const auto& v : result[0].toObject().value(QStringLiteral("values")).toArray())
        points.emplace_back(v.toArray()[0].toDouble(), v.toArray()[1].toString().toDouble());
    return points;
}

}  // namespace

class TestCliListenPrometheus : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void prometheusReadsTheListenersExactCounts() {
        ListeningCli cli;
        QVERIFY(cli.start({"--tcp", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--json"}, 1));
        const quint16 metrics = cli.metricsPort();
        QVERIFY(metrics != 0);
        PrometheusServer prometheus;
        QVERIFY2(prometheus.start(metrics), qPrintable(prometheus.error()));
        const quint16 tcp = cli.port("statsd tcp");
        const auto send = [&](const std::string& lines) {
            UniqueFd connection = tcpConnect(tcp);
            return sendAll(connection.get(), lines);
        };
        const auto waitFor = [&](const QString& promql, double value) {
            return waitUntil([&] { return prometheus.scalar(promql) == value; },
                             std::chrono::seconds(90));
        };
        const QString total = QStringLiteral("hitcounter_hits_total{key=\"k\"}");
        const QString window = QStringLiteral("hitcounter_window_hits{key=\"k\",window=\"300\"}");

        // One hit first, so that the counter's series exists before the counts under test.
        QVERIFY(send("k:1|c\n"));
        QVERIFY2(waitFor(total, 1), "Prometheus never saw the first hit");
        // Then 999 more: two big lines and 99 single ones (TCP: none can be lost).
        std::string lines = "k:500|c\nk:400|c\n";
        for (int i = 0; i < 99; ++i)
            lines += "k:1|c\n";
        QVERIFY(send(lines + "other:3|c\n"));
        QVERIFY2(waitFor(window, 1000), "the window count never reached 1000");
        QVERIFY(waitFor(QStringLiteral("hitcounter_window_hits{key=\"k\",window=\"60\"}"), 1000));
        QCOMPARE(prometheus.scalar(QStringLiteral("up{job=\"hitcounter\"}")), 1.0);

        // Two scrapes after the last hit: the newest two samples both show the final count.
        const QString range = total + QStringLiteral("[1m]");
        QVERIFY(waitUntil(
            [&] {
                const auto s = samples(prometheus, range);
                return s.size() >= 3 && s[s.size() - 1].second == 1000 &&
                       s[s.size() - 2].second == 1000;
            },
            std::chrono::seconds(90)));
        const auto points = samples(prometheus, range);
        const double first = points.front().second;
        const double last = points.back().second;
        QCOMPARE(last, 1000.0);
        // increase() over the minute, evaluated at the last sample: the counter went from
        // `first` to 1000 in it. Prometheus extrapolates towards the range's start, but never
        // below the counter's zero, so the answer lies in [last - first, last].
        const auto increase = prometheus.scalar(
            QStringLiteral("increase(hitcounter_hits_total{key=\"k\"}[1m])"), points.back().first);
        QVERIFY(increase.has_value());
        QVERIFY2(*increase >= last - first - 1e-6 && *increase <= last + 1e-6,
                 qPrintable(QStringLiteral("increase %1, samples from %2 to %3")
                                .arg(*increase)
                                .arg(first)
                                .arg(last)));
        // Every hit is in some series: the keys' totals add up to what was sent.
        QCOMPARE(prometheus.scalar(QStringLiteral("sum(hitcounter_hits_total)")), 1003.0);

        // The listener's own report agrees with what Prometheus holds.
        const CliResult result = cli.stop(SIGTERM);
        QCOMPARE(result.exitCode, 0);
        const QJsonObject report = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(report.value(QStringLiteral("keys")).toObject().value(QStringLiteral("k")).toInt(),
                 1000);
        QCOMPARE(report.value(QStringLiteral("hits")).toInt(), 1003);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestCliListenPrometheus)
#include "tst_cli_listen_prometheus.moc"
