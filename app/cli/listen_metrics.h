// listen's metrics endpoint: --metrics HOST:PORT serves GET /metrics (Prometheus text 0.0.4,
// or OpenMetrics 1.0 when asked) and /healthz; --metrics-keys K bounds the keys with a series
// of their own (the rest are summed under key="__other__"). docs/metrics.md lists the
// families.
//
// Threading: ListenMetrics belongs to listen's counting loop (the main thread): count() and
// tick() run there and build, once a second, an immutable snapshot that the HTTP thread (the
// server's own, core/http) serves. Counting never waits for a scrape; a scrape reads only the
// latest snapshot (core/metrics/metrics_snapshot.h).
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/hit_event.h"
#include "core/http/http_server.h"
#include "core/metrics/hot_key_windows.h"
#include "core/metrics/metrics_snapshot.h"
#include "core/net/socket_listener.h"
#include "core/sources/batch_queue.h"
#include "core/sources/follow_source.h"

namespace hitcounter::fleet {
class RedisSink;
}

namespace hitcounter::cli {

inline constexpr long long kMaxMetricsKeys = 10000;

struct MetricsCliOptions {
    QCommandLineOption metrics{
        QStringLiteral("metrics"),
        QStringLiteral("Serve Prometheus metrics on http://HOST:PORT/metrics and /healthz "
                       "(HOST defaults to 127.0.0.1; docs/metrics.md)."),
        QStringLiteral("HOST:PORT")};
    QCommandLineOption metricsKeys{
        QStringLiteral("metrics-keys"),
        QStringLiteral("--metrics: the K hottest keys get their own series, the rest are "
                       "summed under key=\"__other__\" (1 to 10000, default 100)."),
        QStringLiteral("K"), QStringLiteral("100")};

    QList<QCommandLineOption> all() const { return {metrics, metricsKeys}; }
};

struct MetricsPlan {
    std::string address;  // empty: no endpoint
    std::size_t keys = 100;
};

// The plan from the options, or std::nullopt after naming a bad value (a malformed address is
// checked here; binding happens in ListenMetrics).
std::optional<MetricsPlan> metricsPlanFrom(const QCommandLineParser& parser,
                                           const MetricsCliOptions& options);

// What the snapshot reads besides the keys; owned by listen, they outlive ListenMetrics.
struct MetricsSources {
    const std::vector<std::unique_ptr<SocketListener>>& listeners;
    const std::vector<std::unique_ptr<FollowSource>>& followers;
    const BatchQueue& queue;
    const fleet::RedisSink* sink = nullptr;  // null outside fleet mode
};

class ListenMetrics {
public:
    // Binds plan.address and starts serving; throws SourceError naming the address and the
    // reason ("metrics http 127.0.0.1:9102: cannot bind: Address already in use").
    ListenMetrics(const MetricsPlan& plan, MetricsSources sources, std::string version);
    ~ListenMetrics();

    // "http://127.0.0.1:9102/metrics", with the port bound.
    const std::string& url() const { return m_url; }

    void count(const HitBatch& batch);
    // Publishes a new snapshot if the wall clock's second changed since the last one.
    void tick();
    // Publishes one now (at the stop, so that the last scrapes see the final counts).
    void publish();
    // A new K (--metrics-keys on reload).
    void setMaxKeys(std::size_t keys);

private:
    std::vector<metrics::MetricFamily> families(Timestamp now);
    std::string unhealthy() const;

    MetricsSources m_sources;
    std::string m_version;
    metrics::HotKeyWindows m_keys;
    Timestamp m_published = 0;  // the second of the last snapshot
    metrics::LatestSnapshot m_latest;
    std::string m_url;
    std::unique_ptr<http::HttpServer> m_server;  // declared last: stops before m_latest goes
};

}  // namespace hitcounter::cli
