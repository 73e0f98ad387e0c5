// HttpServer: a small HTTP/1.1 server for the metrics endpoint, built on libmicrohttpd (its
// own polling thread, keep-alive, request parsing and limits), answering every request with a
// handler's reply. The HTTP protocol is the library's; this class only adapts it.
//
// Threading: construct and destroy on the owner thread. The handler runs on the server's one
// polling thread (never two at once), so it must only read what is safe from another thread
// (metrics_snapshot.h's LatestSnapshot). The thread is started by the constructor, so it
// inherits the owner's signal mask (listen blocks its stop signals first).
//
// Contract:
//  - The constructor takes a bound, listening TCP socket (core/net/socket_util.h bindSocket;
//    so a taken port fails there with the usual message) and owns it from then on: the
//    destructor stops the thread (open connections are closed) and then the socket. Throws
//    Error if libmicrohttpd cannot start.
//  - Limits against slow or hostile clients: at most `maxConnections` open connections (more
//    are refused at accept), each closed after `idleTimeout` without progress, request headers
//    held in at most `requestMemory` bytes (a larger request gets 431/413 from the library),
//    request bodies read and discarded. A slow reader of a large reply holds one connection,
//    not the thread: the thread serves the others meanwhile.
//  - HEAD gets the headers of GET without the body (the library drops it).
// Example:
//     UniqueFd socket = bindSocket(SOCK_STREAM, parseEndpoint("127.0.0.1:0"), "metrics");
//     const auto port = localPort(socket.get());
//     HttpServer server(std::move(socket), [](const HttpRequest&) {
//         return HttpResponse{.status = 200, .contentType = "text/plain", .body = "hi"};
//     });  // GET http://127.0.0.1:<port>/ now answers "hi"
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "core/net/socket_util.h"

struct MHD_Daemon;

namespace hitcounter::http {

struct HttpRequest {
    std::string method;
    std::string path;    // as sent, without the query string
    std::string accept;  // the Accept header; empty if none
};

struct HttpResponse {
    int status = 200;
    std::string contentType;
    std::string body;
    std::string allow;  // an Allow header when not empty (405 replies)
};

struct HttpServerOptions {
    unsigned maxConnections = 32;
    std::chrono::seconds idleTimeout{10};
    std::size_t requestMemory = 32 * 1024;
};

class HttpServer {
public:
    using Handler = std::function<HttpResponse(const HttpRequest&)>;

    HttpServer(UniqueFd listening, Handler handler, HttpServerOptions options = {});
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

private:
    UniqueFd m_socket;
    Handler m_handler;  // called by the polling thread (the daemon's callback argument)
    MHD_Daemon* m_daemon = nullptr;
};

}  // namespace hitcounter::http
