// The HTTP server (core/http/http_server.h) on real sockets on 127.0.0.1: replies, keep-alive,
// HEAD, bodies discarded, and a client that never reads a large reply does not stop the
// server from answering others.
#include <QTest>

#include <atomic>
#include <string>

#include "core/http/http_server.h"
#include "core/net/socket_util.h"
#include "core/sources/source.h"
#include "tests/http/http_client.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::http;

namespace {

using testing::readReply;
using testing::sendAll;
using testing::tcpConnect;

struct Server {
    explicit Server(HttpServer::Handler handler, HttpServerOptions options = {}) {
        UniqueFd socket = bindSocket(SOCK_STREAM, parseEndpoint("127.0.0.1:0"), "test http");
        port = localPort(socket.get());
        server = std::make_unique<HttpServer>(std::move(socket), std::move(handler), options);
    }
    std::uint16_t port = 0;
    std::unique_ptr<HttpServer> server;
};

HttpResponse echo(const HttpRequest& request) {
    return {.status = request.path == "/missing" ? 404 : 200,
            .contentType = "text/plain; charset=utf-8",
            .body = request.method + " " + request.path + " accept=" + request.accept,
            .allow = request.method == "POST" ? "GET, HEAD" : ""};
}

}  // namespace

class HttpServerTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void answersWithTheHandlersReplyAndHeaders() {
        Server s(echo);
        UniqueFd c = tcpConnect(s.port);
        QVERIFY(c);
        QVERIFY(sendAll(c.get(), "GET /metrics?x=1 HTTP/1.1\r\nHost: x\r\nAccept: a/b\r\n\r\n"));
        const std::string reply = readReply(c.get());
        QVERIFY2(reply.starts_with("HTTP/1.1 200 OK\r\n"), reply.c_str());
        QVERIFY2(reply.find("Content-Type: text/plain; charset=utf-8\r\n") != std::string::npos,
                 reply.c_str());
        QVERIFY2(reply.ends_with("GET /metrics accept=a/b"), reply.c_str());
    }

    void keepsTheConnectionForTheNextRequest() {
        Server s(echo);
        UniqueFd c = tcpConnect(s.port);
        QVERIFY(sendAll(c.get(), "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"));
        QVERIFY(readReply(c.get()).ends_with("GET /a accept="));
        QVERIFY(sendAll(c.get(), "GET /missing HTTP/1.1\r\nHost: x\r\n\r\n"));
        QVERIFY(readReply(c.get()).starts_with("HTTP/1.1 404"));
    }

    void headGetsNoBodyAndABodyIsDiscarded() {
        Server s(echo);
        UniqueFd c = tcpConnect(s.port);
        QVERIFY(sendAll(c.get(), "HEAD /m HTTP/1.1\r\nHost: x\r\n\r\n"));
        const std::string head = readReply(c.get(), true);
        QVERIFY2(head.starts_with("HTTP/1.1 200") && head.ends_with("\r\n\r\n"), head.c_str());
        UniqueFd p = tcpConnect(s.port);
        QVERIFY(sendAll(p.get(), "POST /m HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"));
        const std::string post = readReply(p.get());
        QVERIFY2(post.find("Allow: GET, HEAD\r\n") != std::string::npos, post.c_str());
        QVERIFY2(post.ends_with("POST /m accept="), post.c_str());
    }

    void aClientThatNeverReadsDoesNotBlockOthers() {
        const std::string big(32 << 20, 'x');  // far more than socket buffers hold
        std::atomic<int> served{0};
        Server s([&](const HttpRequest& r) {
            ++served;
            return HttpResponse{.status = 200,
                                .contentType = "text/plain",
                                .body = r.path == "/big" ? big : "small",
                                .allow = {}};
        });
        UniqueFd stuck = tcpConnect(s.port);
        QVERIFY(sendAll(stuck.get(), "GET /big HTTP/1.1\r\nHost: x\r\n\r\n"));
        QTRY_VERIFY_WITH_TIMEOUT(served.load() >= 1, 10000);
        for (int i = 0; i < 20; ++i) {
            UniqueFd c = tcpConnect(s.port);
            QVERIFY(sendAll(c.get(), "GET /small HTTP/1.1\r\nHost: x\r\n\r\n"));
            QVERIFY(readReply(c.get()).ends_with("\r\n\r\nsmall"));
        }
    }

    void takenPortIsRefusedAtBind() {
        Server s(echo);
        QVERIFY_THROWS_EXCEPTION(
            SourceError,
            bindSocket(SOCK_STREAM, parseEndpoint("127.0.0.1:" + std::to_string(s.port)), "x"));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(HttpServerTest)
#include "tst_http_server.moc"
