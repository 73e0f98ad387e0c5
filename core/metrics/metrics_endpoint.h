// The answers of the metrics HTTP endpoint, as a pure function of the request and the latest
// snapshot, so that what a scraper sees is tested without a socket (the server itself is
// core/http/http_server.h).
//
// Threading: called on the HTTP thread; reads only the snapshot it is given.
//
// Routes (GET and HEAD; any other method is 405 with "Allow: GET, HEAD"):
//  - /metrics: 200, the snapshot's families in the format negotiateFormat(accept) picks, with
//    its Content-Type; 503 "no metrics yet" before the first snapshot.
//  - /healthz: 200 "ok\n" while the snapshot says healthy and is at most `staleAfter` old;
//    503 with the reason on one line otherwise ("counting stalled: no snapshot for 12 s",
//    or the snapshot's own reason such as "redis: not connected: ...").
//  - /: 200, a short text naming the two routes. Anything else: 404.
// A query string ("/metrics?x=1") is ignored.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "core/metrics/metrics_snapshot.h"

namespace hitcounter::metrics {

struct HttpReply {
    int status = 200;
    std::string contentType = "text/plain; charset=utf-8";
    std::string body;
    std::string allow;  // the Allow header of a 405
};

struct EndpointRequest {
    std::string_view method;
    std::string_view path;
    std::string_view accept;
};

HttpReply respond(const EndpointRequest& request, const MetricsSnapshot* latest,
                  std::chrono::steady_clock::time_point now,
                  std::chrono::seconds staleAfter = std::chrono::seconds{10});

}  // namespace hitcounter::metrics
