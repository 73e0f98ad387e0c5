// statsd and Graphite over TCP with real sockets on 127.0.0.1 (core/net/tcp_listener.h).
#include <QTest>

#include <random>

#include "core/net/tcp_listener.h"
#include "core/time/manual_clock.h"
#include "tests/net/net_test_support.h"

using namespace hitcounter;
using namespace hitcounter::testing;
using namespace std::chrono_literals;

namespace {
ListenerOptions ephemeral() {
    ListenerOptions o;
    o.address = "127.0.0.1:0";
    o.clock = std::make_shared<ManualClock>(std::chrono::seconds(1700000000));
    return o;
}
}  // namespace

class TcpListenerTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void linesSplitAcrossWritesAreJoined() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd c = tcpConnect(listener.port());
        QVERIFY(c);
        // Each piece is delivered before the next is sent, so the listener's reads split there.
        for (std::string_view piece : {"ho", "me:1|", "c\nabout:", "2|c\r\nhome:3|c\n"}) {
            QVERIFY(sendAll(c.get(), piece));
            QVERIFY(waitUntil([&] { return listener.stats().packets > 0; }));
        }
        const Collected got = collectHits(queue, 6);
        QCOMPARE(got.perKey.at("home"), Count{4});
        QCOMPARE(got.perKey.at("about"), Count{2});
        QCOMPARE(listener.stats().badLines, 0u);
    }

    void lastLineWithoutNewlineCountsAtClose() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Statsd);
        listener.start(queue);
        {
            UniqueFd c = tcpConnect(listener.port());
            QVERIFY(sendAll(c.get(), "a:1|c\nlast:5|c"));
            QVERIFY(waitUntil([&] { return listener.stats().lines == 1; }));
            QCOMPARE(listener.stats().hits, 1u);
        }
        const Collected got = collectHits(queue, 6);
        QCOMPARE(got.perKey.at("last"), Count{5});
        QVERIFY(waitUntil([&] { return listener.stats().lines == 2; }));
    }

    void tooLongLineIsBadAndClosesTheConnection() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd c = tcpConnect(listener.port());
        QVERIFY(sendAll(c.get(), "ok:1|c\n" + std::string(kMaxLineBytes + 1, 'x')));
        QVERIFY(peerClosed(c.get(), 5s));
        QVERIFY(waitUntil([&] { return listener.stats().badLines == 1; }));
        QCOMPARE(listener.stats().hits, 1u);
        QVERIFY(QString::fromStdString(listener.lastProblem()).contains("line longer than 65536"));
        // Other connections keep working.
        UniqueFd d = tcpConnect(listener.port());
        QVERIFY(sendAll(d.get(), "after:1|c\n"));
        QCOMPARE(collectHits(queue, 2).perKey.count("after"), std::size_t{1});
    }

    void lineOfExactly64KiBIsAccepted() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd c = tcpConnect(listener.port());
        const std::string name(kMaxLineBytes - 4, 'k');
        QVERIFY(sendAll(c.get(), name + ":1|c\nz:1|c\n"));
        const Collected got = collectHits(queue, 2);
        QCOMPARE(got.perKey.at(name), Count{1});
        QCOMPARE(listener.stats().badLines, 0u);
    }

    void connectionsBeyondTheCapAreRefused() {
        ListenerOptions o = ephemeral();
        o.maxConnections = 2;
        BatchQueue queue;
        TcpListener listener(o, WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd a = tcpConnect(listener.port());
        UniqueFd b = tcpConnect(listener.port());
        QVERIFY(waitUntil([&] { return listener.openConnections() == 2; }));
        UniqueFd extra = tcpConnect(listener.port());
        QVERIFY(peerClosed(extra.get(), 5s));
        QCOMPARE(listener.refusedConnections(), 1u);
        QVERIFY(QString::fromStdString(listener.lastProblem()).contains("refused"));
        QVERIFY(sendAll(a.get(), "a:1|c\n"));
        QVERIFY(sendAll(b.get(), "b:1|c\n"));
        QCOMPARE(collectHits(queue, 2).total, Count{2});
        a = {};
        QVERIFY(waitUntil([&] { return listener.openConnections() == 1; }));
        UniqueFd again = tcpConnect(listener.port());
        QVERIFY(sendAll(again.get(), "c:1|c\n"));
        QCOMPARE(collectHits(queue, 1).total, Count{1});
    }

    void graphiteLinesArrive() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Graphite);
        listener.start(queue);
        QCOMPARE(QString::fromStdString(listener.describe()),
                 QString("graphite tcp 127.0.0.1:%1").arg(listener.port()));
        UniqueFd c = tcpConnect(listener.port());
        QVERIFY(sendAll(c.get(), "pages.home 3 1600000000\npages.home 2 -1\nbad line\n"));
        const Collected got = collectHits(queue, 5);
        QCOMPARE(got.perKey.at("pages.home"), Count{5});
        QCOMPARE(got.events.front().time, Timestamp{1600000000});
        QCOMPARE(got.events.back().time, Timestamp{1700000000});
        QVERIFY(waitUntil([&] { return listener.stats().badLines == 1; }));
    }

    void manyClientsAllArriveExactly() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Statsd);
        listener.start(queue);
        constexpr int kClients = 20;
        constexpr int kLines = 500;
        std::vector<UniqueFd> clients;
        for (int i = 0; i < kClients; ++i) {
            clients.push_back(tcpConnect(listener.port()));
        }
        std::string lines;
        for (int j = 0; j < kLines; ++j) {
            lines += "k:1|c\n";
        }
        for (UniqueFd& c : clients) {
            QVERIFY(sendAll(c.get(), lines));
        }
        clients.clear();
        QCOMPARE(collectHits(queue, kClients * kLines).total, Count{kClients * kLines});
    }

    void dataSentBeforeStopIsCounted() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Statsd);
        listener.start(queue);
        std::string lines;
        for (int j = 0; j < 20000; ++j) {
            lines += "k:1|c\n";
        }
        {
            UniqueFd c = tcpConnect(listener.port());
            QVERIFY(sendAll(c.get(), lines + "tail:1|c"));
        }
        listener.stop();
        QCOMPARE(listener.stats().hits, 20001u);
    }

    void binaryGarbageNeverCrashes() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Statsd);
        listener.start(queue);
        std::mt19937 random(7);
        for (int i = 0; i < 20; ++i) {
            UniqueFd c = tcpConnect(listener.port());
            std::string junk(1 + random() % 100000, '\0');
            for (char& ch : junk) {
                ch = static_cast<char>(random());
            }
            sendAll(c.get(), junk);
        }
        UniqueFd c = tcpConnect(listener.port());
        QVERIFY(sendAll(c.get(), "\nafter:1|c\n"));
        const Collected got =
            collectUntil(queue, [](const Collected& x) { return x.perKey.count("after") != 0; });
        QCOMPARE(got.perKey.count("after"), std::size_t{1});
        QVERIFY(listener.running());
    }

    void ipv6LoopbackCanBeChosen() {
        ListenerOptions o = ephemeral();
        o.address = "[::1]:0";
        BatchQueue queue;
        TcpListener listener(o, WireProtocol::Statsd);
        try {
            listener.start(queue);
        } catch (const SourceError& e) {
            QSKIP(e.what());  // a host without IPv6
        }
        QCOMPARE(QString::fromStdString(listener.describe()),
                 QString("statsd tcp [::1]:%1").arg(listener.port()));
        UniqueFd c(::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0));
        sockaddr_in6 to{};
        to.sin6_family = AF_INET6;
        to.sin6_port = htons(listener.port());
        to.sin6_addr = in6addr_loopback;
        QCOMPARE(::connect(c.get(), reinterpret_cast<const sockaddr*>(&to), sizeof to), 0);
        QVERIFY(sendAll(c.get(), "v6:4|c\n"));
        QCOMPARE(collectHits(queue, 4).perKey.at("v6"), Count{4});
    }

    void takenPortFailsAtStartNamingAddress() {
        BatchQueue queue;
        TcpListener first(ephemeral(), WireProtocol::Statsd);
        first.start(queue);
        ListenerOptions same = ephemeral();
        same.address = "127.0.0.1:" + std::to_string(first.port());
        TcpListener second(same, WireProtocol::Graphite);
        try {
            second.start(queue);
            QFAIL("started on a taken port");
        } catch (const SourceError& e) {
            const QString message = e.what();
            QVERIFY2(message.startsWith("graphite tcp " + QString::fromStdString(same.address)),
                     e.what());
            QVERIFY2(message.contains("in use"), e.what());
        }
    }

    void stopIsPromptWithIdleConnectionsOpen() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd c = tcpConnect(listener.port());
        QVERIFY(sendAll(c.get(), "half:1"));
        QVERIFY(waitUntil([&] { return listener.openConnections() == 1; }));
        const auto before = std::chrono::steady_clock::now();
        listener.stop();
        QVERIFY(std::chrono::steady_clock::now() - before < 500ms);
        QVERIFY(!listener.running());
        QVERIFY(peerClosed(c.get(), 1s));
        QCOMPARE(listener.stats().lines, 0u);
    }
};

QTEST_APPLESS_MAIN(TcpListenerTest)
#include "tst_tcp_listener.moc"
