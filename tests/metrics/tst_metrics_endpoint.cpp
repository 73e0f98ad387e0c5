// The endpoint's replies (core/metrics/metrics_endpoint.h): routes, formats, health.
#include <QTest>

#include "core/metrics/metrics_endpoint.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::metrics;
using namespace std::chrono_literals;

namespace {

MetricsSnapshot snapshotAt(std::chrono::steady_clock::time_point at, std::string unhealthy = {}) {
    MetricsSnapshot s;
    s.families = {{"hitcounter_hits", MetricType::Counter, "h", "", {{{{"key", "k"}}, Count{4}}}}};
    s.unhealthy = std::move(unhealthy);
    s.published = at;
    return s;
}

const char* kPrometheusAccept =
    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"
    "q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

}  // namespace

class MetricsEndpointTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void metricsAreServedInTheNegotiatedFormat() {
        const auto now = std::chrono::steady_clock::now();
        const MetricsSnapshot s = snapshotAt(now);
        const HttpReply text = respond({"GET", "/metrics", ""}, &s, now);
        QCOMPARE(text.status, 200);
        QCOMPARE(text.contentType, std::string("text/plain; version=0.0.4; charset=utf-8"));
        QVERIFY(text.body.find("hitcounter_hits_total{key=\"k\"} 4\n") != std::string::npos);
        QVERIFY(!text.body.ends_with("# EOF\n"));
        const HttpReply om = respond({"GET", "/metrics?x=1", kPrometheusAccept}, &s, now);
        QCOMPARE(om.status, 200);
        QVERIFY(om.contentType.starts_with("application/openmetrics-text; version=1.0.0"));
        QVERIFY(om.body.ends_with("# EOF\n"));
        QCOMPARE(respond({"HEAD", "/metrics", ""}, &s, now).status, 200);
    }

    void beforeTheFirstSnapshotMetricsAndHealthAre503() {
        const auto now = std::chrono::steady_clock::now();
        QCOMPARE(respond({"GET", "/metrics", ""}, nullptr, now).status, 503);
        QCOMPARE(respond({"GET", "/healthz", ""}, nullptr, now).status, 503);
    }

    void healthSaysOkOrWhyNot() {
        const auto now = std::chrono::steady_clock::now();
        const MetricsSnapshot fresh = snapshotAt(now - 2s);
        const HttpReply ok = respond({"GET", "/healthz", ""}, &fresh, now);
        QCOMPARE(ok.status, 200);
        QCOMPARE(ok.body, std::string("ok\n"));

        const MetricsSnapshot stale = snapshotAt(now - 12s);
        const HttpReply stalled = respond({"GET", "/healthz", ""}, &stale, now);
        QCOMPARE(stalled.status, 503);
        QCOMPARE(stalled.body, std::string("counting stalled: no snapshot for 12 s\n"));

        const MetricsSnapshot redis = snapshotAt(now, "redis: not connected: refused");
        const HttpReply down = respond({"GET", "/healthz", ""}, &redis, now);
        QCOMPARE(down.status, 503);
        QCOMPARE(down.body, std::string("redis: not connected: refused\n"));
    }

    void otherMethodsAndPathsAreRefused() {
        const auto now = std::chrono::steady_clock::now();
        const MetricsSnapshot s = snapshotAt(now);
        const HttpReply post = respond({"POST", "/metrics", ""}, &s, now);
        QCOMPARE(post.status, 405);
        QCOMPARE(post.allow, std::string("GET, HEAD"));
        QCOMPARE(respond({"GET", "/metricsx", ""}, &s, now).status, 404);
        QCOMPARE(respond({"GET", "/", ""}, &s, now).status, 200);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(MetricsEndpointTest)
#include "tst_metrics_endpoint.moc"
