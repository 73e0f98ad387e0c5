#include "app/cli/listen_metrics.h"

#include <chrono>

#include "app/cli/cli_options.h"
#include "core/base/saturating.h"
#include "core/fleet/redis_sink.h"
#include "core/metrics/key_families.h"
#include "core/metrics/metrics_endpoint.h"
#include "core/net/socket_util.h"
#include "core/net/udp_listener.h"

namespace hitcounter::cli {

namespace {

using metrics::Label;
using metrics::MetricFamily;
using metrics::MetricType;
using metrics::Sample;

Timestamp wallSecond() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

Count saturatingSub(Count a, Count b) {
    return a > b ? a - b : 0;
}

MetricFamily linesFamily(const MetricsSources& sources) {
    MetricFamily lines{.name = "hitcounter_lines",
                       .type = MetricType::Counter,
                       .help =
                           "Lines parsed per listener: counted (hits), bad (malformed), "
                           "ignored (other statsd types).",
                       .unit = {},
                       .samples = {}};
    const auto add = [&](const Source& source) {
        const SourceStats s = source.stats();
        const std::string listener = source.describe();
        const Count counted = saturatingSub(s.lines, saturatingAdd(s.badLines, s.ignoredLines));
        for (const auto& [result, value] :
             {std::pair{"counted", counted}, std::pair{"bad", Count{s.badLines}},
              std::pair{"ignored", Count{s.ignoredLines}}})
            lines.samples.push_back({{{"listener", listener}, {"result", result}}, value});
    };
    for (const auto& l : sources.listeners)
        add(*l);
    for (const auto& f : sources.followers)
        add(*f);
    return lines;
}

MetricFamily droppedFamily(const MetricsSources& sources) {
    Count kernel = 0;
    for (const auto& l : sources.listeners)
        if (const auto* udp = dynamic_cast<const UdpStatsdListener*>(l.get()))
            kernel = saturatingAdd(kernel, Count(std::max<std::int64_t>(udp->kernelDrops(), 0)));
    MetricFamily dropped{.name = "hitcounter_dropped_hits",
                         .type = MetricType::Counter,
                         .help =
                             "Hits lost: queue_full (UDP hits refused by the full queue to "
                             "the counting), kernel (UDP datagrams the kernel dropped), redis "
                             "(fleet mode: hits Redis never acknowledged), redis_refused "
                             "(fleet mode: hits of flushes Redis refused, never resent).",
                         .unit = {},
                         .samples = {}};
    dropped.samples.push_back({{{"reason", "queue_full"}}, sources.queue.droppedHits()});
    dropped.samples.push_back({{{"reason", "kernel"}}, kernel});
    if (sources.sink) {
        const fleet::RedisSinkStats s = sources.sink->stats();
        dropped.samples.push_back({{{"reason", "redis"}}, s.droppedHits});
        dropped.samples.push_back({{{"reason", "redis_refused"}}, s.refusedHits});
    }
    return dropped;
}

}  // namespace

std::optional<MetricsPlan> metricsPlanFrom(const QCommandLineParser& parser,
                                           const MetricsCliOptions& options) {
    MetricsPlan plan;
    const auto keys = wholeNumberFrom(parser, options.metricsKeys, 1, kMaxMetricsKeys);
    if (!keys)
        return std::nullopt;
    plan.keys = std::size_t(*keys);
    if (parser.isSet(options.metrics)) {
        plan.address = parser.value(options.metrics).toStdString();
        try {
            (void)parseEndpoint(plan.address);
        } catch (const SourceError& e) {
            printError(QStringLiteral("--metrics: %1").arg(QString::fromStdString(e.what())));
            return std::nullopt;
        }
    }
    return plan;
}

ListenMetrics::ListenMetrics(const MetricsPlan& plan, MetricsSources sources, std::string version)
    : m_sources(sources),
      m_version(std::move(version)),
      m_keys(metrics::HotKeyOptions{.maxKeys = plan.keys}) {
    UniqueFd socket = bindSocket(SOCK_STREAM, parseEndpoint(plan.address), "metrics http");
    m_url = "http://" + localAddress(socket.get()) + "/metrics";
    m_server = std::make_unique<http::HttpServer>(
        std::move(socket), [this](const http::HttpRequest& request) {
            const auto latest = m_latest.latest();
            const metrics::HttpReply reply = metrics::respond(
                {.method = request.method, .path = request.path, .accept = request.accept},
                latest.get(), std::chrono::steady_clock::now());
            return http::HttpResponse{.status = reply.status,
                                      .contentType = reply.contentType,
                                      .body = reply.body,
                                      .allow = reply.allow};
        });
}

ListenMetrics::~ListenMetrics() = default;

void ListenMetrics::count(const HitBatch& batch) {
    m_keys.add(batch, wallSecond());
}

void ListenMetrics::tick() {
    if (wallSecond() != m_published)
        publish();
}

void ListenMetrics::setMaxKeys(std::size_t keys) {
    m_keys.setMaxKeys(keys, wallSecond());
}

void ListenMetrics::publish() {
    const Timestamp now = wallSecond();
    m_keys.rebalance(now);
    auto snapshot = std::make_shared<metrics::MetricsSnapshot>();
    snapshot->families = families(now);
    snapshot->unhealthy = unhealthy();
    snapshot->published = std::chrono::steady_clock::now();
    m_latest.publish(std::move(snapshot));
    m_published = now;
}

std::vector<MetricFamily> ListenMetrics::families(Timestamp now) {
    const auto rows = m_keys.rows(now);
    std::vector<MetricFamily> all = metrics::keyFamilies(rows, m_keys.other(now), m_keys.windows(),
                                                         metrics::HotKeyOptions{}.uniquesWindow);
    all.push_back(linesFamily(m_sources));
    all.push_back(droppedFamily(m_sources));
    all.push_back({.name = "hitcounter_hits_outside_windows",
                   .type = MetricType::Counter,
                   .help = "Hits stamped an hour or more before the newest second: in "
                           "hitcounter_hits_total, in no window.",
                   .unit = {},
                   .samples = {{{}, m_keys.tooOldHits()}}});
    all.push_back({.name = "hitcounter_queue_bytes",
                   .type = MetricType::Gauge,
                   .help = "Bytes of hits received but not yet counted (bounded by "
                           "--queue-memory).",
                   .unit = "bytes",
                   .samples = {{{}, Count{m_sources.queue.queuedBytes()}}}});
    if (m_sources.sink)
        all.push_back({.name = "hitcounter_redis_lag_seconds",
                       .type = MetricType::Gauge,
                       .help = "Fleet mode: the last flush, from the arrival of its oldest hit "
                               "to Redis' acknowledgement.",
                       .unit = "seconds",
                       .samples = {{{}, m_sources.sink->stats().lagSeconds}}});
    all.push_back({.name = "hitcounter_build",
                   .type = MetricType::Info,
                   .help = "The running hitcounter's version.",
                   .unit = {},
                   .samples = {{{{"version", m_version}}, Count{1}}}});
    return all;
}

std::string ListenMetrics::unhealthy() const {
    for (const auto& l : m_sources.listeners)
        if (!l->running())
            return l->describe() + ": not running";
    for (const auto& f : m_sources.followers)
        if (!f->running())
            return f->describe() + ": not running";
    if (m_sources.sink) {
        const fleet::RedisSinkStats s = m_sources.sink->stats();
        if (!s.connected)
            return "redis: not connected" + (s.lastError.empty() ? "" : ": " + s.lastError);
    }
    return {};
}

}  // namespace hitcounter::cli
