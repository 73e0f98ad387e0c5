#include "core/metrics/metrics_endpoint.h"

namespace hitcounter::metrics {

namespace {

HttpReply text(int status, std::string body) {
    HttpReply reply;
    reply.status = status;
    reply.body = std::move(body);
    return reply;
}

HttpReply health(const MetricsSnapshot* latest, std::chrono::steady_clock::time_point now,
                 std::chrono::seconds staleAfter) {
    if (!latest) {
        return text(503, "starting: no snapshot yet\n");
    }
    const auto age = std::chrono::duration_cast<std::chrono::seconds>(now - latest->published);
    if (age > staleAfter) {
        return text(503,
                    "counting stalled: no snapshot for " + std::to_string(age.count()) + " s\n");
    }
    if (!latest->unhealthy.empty()) {
        return text(503, latest->unhealthy + "\n");
    }
    return text(200, "ok\n");
}

}  // namespace

HttpReply respond(const EndpointRequest& request, const MetricsSnapshot* latest,
                  std::chrono::steady_clock::time_point now, std::chrono::seconds staleAfter) {
    if (request.method != "GET" && request.method != "HEAD") {
        HttpReply reply = text(405, "only GET and HEAD\n");
        reply.allow = "GET, HEAD";
        return reply;
    }
    const std::string_view path = request.path.substr(0, request.path.find('?'));
    if (path == "/metrics") {
        if (!latest) {
            return text(503, "no metrics yet\n");
        }
        const ExpositionFormat format = negotiateFormat(request.accept);
        HttpReply reply;
        reply.contentType = std::string(contentType(format));
        reply.body = render(latest->families, format);
        return reply;
    }
    if (path == "/healthz") {
        return health(latest, now, staleAfter);
    }
    if (path == "/") {
        return text(200,
                    "hitcounter-cli listen\n/metrics  Prometheus metrics (text 0.0.4 or "
                    "OpenMetrics 1.0)\n/healthz  200 while healthy, 503 with the reason\n");
    }
    return text(404, "not found: try /metrics or /healthz\n");
}

}  // namespace hitcounter::metrics
