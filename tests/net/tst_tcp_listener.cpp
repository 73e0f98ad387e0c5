// statsd and Graphite over TCP with real sockets on 127.0.0.1 (core/net/tcp_listener.h).
#include <QTest>

#include <map>
#include <random>
#include <thread>
#include <vector>

#include "core/net/tcp_listener.h"
#include "core/time/manual_clock.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

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

struct TcpRun {
    std::map<std::string, Count> perKey;
    SourceStats stats;
    std::vector<SourceStats> perReceiver;
    std::uint64_t problems = 0;
};

constexpr int kClients = 24;

// 24 connections of Graphite lines, some bad, all sent and closed, then counted by a listener
// with `receivers` threads (the kernel spreads the connections over their sockets).
TcpRun runClients(std::size_t receivers) {
    ListenerOptions o = ephemeral();
    o.receivers = receivers;
    BatchQueue queue;
    TcpListener listener(o, WireProtocol::Graphite);
    listener.start(queue);
    std::vector<UniqueFd> clients;
    for (int i = 0; i < kClients; ++i) {
        clients.push_back(tcpConnect(listener.port()));
    }
    for (int i = 0; i < kClients; ++i) {
        std::string lines;
        for (int j = 0; j < 300; ++j) {
            lines += "k" + std::to_string((i + j) % 13) + " " + std::to_string(1 + j % 4) + " " +
                     std::to_string(1700000000 + j % 7) + "\n";
        }
        lines += "not a line\n";
        sendAll(clients[static_cast<std::size_t>(i)].get(), lines);
    }
    clients.clear();
    const std::uint64_t allLines = kClients * 301;
    TcpRun run;
    run.perKey =
        collectUntil(
            queue, [&](const Collected&) { return listener.stats().lines >= allLines; }, 60s)
            .perKey;
    listener.stop();
    addDrained(queue, run.perKey);
    run.stats = listener.stats();
    run.perReceiver = listener.receiverStats();
    for (const ProblemCount& p : listener.problems()) {
        run.problems += p.count;
    }
    return run;
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
        ListenerOptions o = ephemeral();
        o.maxKeyBytes = kMaxLineBytes;
        TcpListener listener(o, WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd c = tcpConnect(listener.port());
        const std::string name(kMaxLineBytes - 4, 'k');
        QVERIFY(sendAll(c.get(), name + ":1|c\nz:1|c\n"));
        const Collected got = collectHits(queue, 2);
        QCOMPARE(got.perKey.at(name), Count{1});
        QCOMPARE(listener.stats().badLines, 0u);
    }

    void connectionsBeyondTheCapWaitWhileAllAreActiveAndLoseNothing() {
        ListenerOptions o = ephemeral();
        o.maxConnections = 2;
        o.evictIdleAfter = 1h;
        BatchQueue queue;
        TcpListener listener(o, WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd a = tcpConnect(listener.port());
        UniqueFd b = tcpConnect(listener.port());
        QVERIFY(sendAll(a.get(), "a:1|c\n"));
        QVERIFY(sendAll(b.get(), "b:1|c\n"));
        QCOMPARE(collectHits(queue, 2).total, Count{2});
        {
            // Like `nc -q0`: sends and closes at once. It must not be accepted and dropped.
            UniqueFd waiting = tcpConnect(listener.port());
            QVERIFY(sendAll(waiting.get(), "w:5|c\n"));
        }
        QVERIFY(waitUntil([&] { return listener.deferredConnections() == 1; }));
        QVERIFY(QString::fromStdString(listener.lastProblem()).contains("wait"));
        QCOMPARE(collectHits(queue, 1, 200ms).total, Count{0});
        QCOMPARE(listener.openConnections(), 2u);
        a = {};  // a slot frees: the waiting connection comes in and is read
        const Collected got = collectHits(queue, 5);
        QCOMPARE(got.perKey.at("w"), Count{5});
        QCOMPARE(listener.evictedConnections(), 0u);
    }

    void waitingConnectionsAreDrainedAtStop() {
        ListenerOptions o = ephemeral();
        o.maxConnections = 1;
        o.evictIdleAfter = 1h;
        BatchQueue queue;
        TcpListener listener(o, WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd a = tcpConnect(listener.port());
        QVERIFY(sendAll(a.get(), "a:1|c\n"));
        QCOMPARE(collectHits(queue, 1).total, Count{1});
        for (int i = 0; i < 5; ++i) {
            UniqueFd waiting = tcpConnect(listener.port());
            QVERIFY(sendAll(waiting.get(), "w:1|c\n"));
        }
        QVERIFY(waitUntil([&] { return listener.deferredConnections() == 1; }));
        listener.stop();
        QCOMPARE(listener.stats().hits, 6u);
    }

    void keyLongerThanTheCapIsABadLineAndTheConnectionGoesOn() {
        BatchQueue queue;
        TcpListener listener(ephemeral(), WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd c = tcpConnect(listener.port());
        QVERIFY(sendAll(c.get(), std::string(kMaxKeyBytes + 1, 'k') + ":1|c\n" +
                                     std::string(kMaxKeyBytes, 'k') + ":2|c\nafter:1|c\n"));
        const Collected got = collectHits(queue, 3);
        QCOMPARE(got.total, Count{3});
        QCOMPARE(got.perKey.at(std::string(kMaxKeyBytes, 'k')), Count{2});
        QVERIFY(waitUntil([&] { return listener.stats().badLines == 1; }));
        const auto problems = listener.problems();
        QCOMPARE(problems.size(), std::size_t{1});
        QCOMPARE(problems[0].kind, "key longer than " + std::to_string(kMaxKeyBytes) + " bytes");
    }

    void fullQueuePushesBackInsteadOfDropping() {
        BatchQueue queue(2);
        ListenerOptions o = ephemeral();
        o.maxBatch = 16;
        TcpListener listener(o, WireProtocol::Statsd);
        listener.start(queue);
        constexpr int kLines = 200000;
        std::string lines;
        for (int i = 0; i < kLines; ++i) {
            lines += "k:1|c\n";
        }
        std::jthread client([&] {
            UniqueFd c = tcpConnect(listener.port());
            sendAll(c.get(), lines);
        });
        // Nobody consumes yet: the queue fills, and the listener stops reading.
        QVERIFY(waitUntil([&] { return listener.stats().hits >= 32; }));
        QVERIFY(!waitUntil([&] { return listener.stats().dropped > 0; }, 300ms));
        QCOMPARE(collectHits(queue, kLines, 60s).total, Count{kLines});
        client.join();
        QCOMPARE(listener.stats().dropped, 0u);
        QCOMPARE(queue.droppedHits(), Count{0});
    }

    void connectionWithoutACompleteLineTimesOut() {
        ListenerOptions o = ephemeral();
        o.idleTimeout = 300ms;
        BatchQueue queue;
        TcpListener listener(o, WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd slow = tcpConnect(listener.port());
        UniqueFd busy = tcpConnect(listener.port());
        QVERIFY(sendAll(slow.get(), "a:1"));
        // `busy` completes a line every 50 ms and must outlive the timeout; `slow` must not.
        const auto start = std::chrono::steady_clock::now();
        int sent = 0;
        while (std::chrono::steady_clock::now() - start < 800ms) {
            QVERIFY(sendAll(busy.get(), "b:1|c\n"));
            ++sent;
            QVERIFY(!waitUntil([&] { return false; }, 50ms));
        }
        QVERIFY(peerClosed(slow.get(), 1s));
        QCOMPARE(listener.timedOutConnections(), 1u);
        QCOMPARE(collectHits(queue, sent).total, Count(sent));
        QCOMPARE(listener.openConnections(), 1u);
        QCOMPARE(listener.problems().front().kind, std::string("connection timed out"));
    }

    void slowClientsCannotHoldEverySlot() {
        ListenerOptions o = ephemeral();
        o.maxConnections = 4;
        o.evictIdleAfter = 100ms;
        BatchQueue queue;
        TcpListener listener(o, WireProtocol::Statsd);
        listener.start(queue);
        std::vector<UniqueFd> slow;
        for (int i = 0; i < 4; ++i) {
            slow.push_back(tcpConnect(listener.port()));
        }
        QVERIFY(waitUntil([&] { return listener.openConnections() == 4; }));
        // A byte at a time, never a whole line.
        const auto start = std::chrono::steady_clock::now();
        while (std::chrono::steady_clock::now() - start < 300ms) {
            for (UniqueFd& s : slow) {
                sendAll(s.get(), "x");
            }
            QVERIFY(!waitUntil([&] { return false; }, 20ms));
        }
        UniqueFd legit = tcpConnect(listener.port());
        QVERIFY(sendAll(legit.get(), "legit:1|c\n"));
        QCOMPARE(collectHits(queue, 1).perKey.count("legit"), std::size_t{1});
        QCOMPARE(listener.evictedConnections(), 1u);
        QCOMPARE(listener.deferredConnections(), 0u);
        QCOMPARE(listener.openConnections(), 4u);
        QCOMPARE(listener.problems().front().kind, std::string("connection evicted"));
    }

    void connectionsThatNeverCompletedALineAreEvictedFirst() {
        ListenerOptions o = ephemeral();
        o.maxConnections = 2;
        o.evictIdleAfter = 1h;
        BatchQueue queue;
        TcpListener listener(o, WireProtocol::Statsd);
        listener.start(queue);
        UniqueFd active = tcpConnect(listener.port());
        QVERIFY(sendAll(active.get(), "a:1|c\n"));
        QCOMPARE(collectHits(queue, 1).total, Count{1});
        UniqueFd slow = tcpConnect(listener.port());
        QVERIFY(sendAll(slow.get(), "s"));
        QVERIFY(waitUntil([&] { return listener.openConnections() == 2; }));
        // Younger than `active`, but it never completed a line: it goes first.
        UniqueFd next = tcpConnect(listener.port());
        QVERIFY(peerClosed(slow.get(), 5s));
        QVERIFY(sendAll(next.get(), "n:1|c\n"));
        QVERIFY(sendAll(active.get(), "a:1|c\n"));
        QCOMPARE(collectHits(queue, 2).total, Count{2});
        QCOMPARE(listener.evictedConnections(), 1u);
        // Both open connections completed a line within evictIdleAfter: a new one waits.
        UniqueFd waiting = tcpConnect(listener.port());
        QVERIFY(!peerClosed(waiting.get(), 200ms));
        QCOMPARE(listener.deferredConnections(), 1u);
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

    // The same connections counted by one receiver and by three: the same totals per key and
    // the same line counts, equal to a count made here.
    void severalReceiversCountExactlyWhatOneCounts() {
        const TcpRun one = runClients(1);
        const TcpRun three = runClients(3);
        std::map<std::string, Count> expected;
        for (int i = 0; i < kClients; ++i) {
            for (int j = 0; j < 300; ++j) {
                expected["k" + std::to_string((i + j) % 13)] += Count(1 + j % 4);
            }
        }
        QCOMPARE(one.perKey, expected);
        QCOMPARE(three.perKey, expected);
        for (const TcpRun* run : {&one, &three}) {
            QCOMPARE(run->stats.lines, std::uint64_t{kClients * 301});
            QCOMPARE(run->stats.badLines, std::uint64_t{kClients});
            QCOMPARE(run->problems, std::uint64_t{kClients});
            QCOMPARE(run->stats.dropped, 0u);
        }
        QCOMPARE(three.stats.hits, one.stats.hits);
        QCOMPARE(three.perReceiver.size(), std::size_t{3});
        int busy = 0;
        for (const SourceStats& r : three.perReceiver) {
            busy += r.lines > 0 ? 1 : 0;
        }
        QVERIFY2(busy >= 2, std::to_string(busy).c_str());
    }

    // The cap holds over all receivers together: with 2 slots and 3 receivers, a third client
    // waits (whichever receiver the kernel gives it to) until one of the first two closes.
    void theConnectionCapIsSharedByTheReceivers() {
        ListenerOptions o = ephemeral();
        o.receivers = 3;
        o.maxConnections = 2;
        o.evictIdleAfter = std::chrono::hours(1);  // the first two are never evicted here
        BatchQueue queue;
        TcpListener listener(o, WireProtocol::Statsd);
        listener.start(queue);
        std::vector<UniqueFd> clients;
        for (int i = 0; i < 2; ++i) {
            clients.push_back(tcpConnect(listener.port()));
            QVERIFY(sendAll(clients.back().get(), "a:1|c\n"));
        }
        QVERIFY(waitUntil([&] { return listener.stats().lines == 2; }, 30s));
        QCOMPARE(listener.openConnections(), 2u);
        UniqueFd third = tcpConnect(listener.port());  // completes in the kernel's backlog
        QVERIFY(sendAll(third.get(), "b:1|c\n"));
        QVERIFY(waitUntil([&] { return listener.deferredConnections() > 0; }, 30s));
        QCOMPARE(listener.openConnections(), 2u);
        QCOMPARE(listener.stats().lines, 2u);
        clients.front().reset();  // frees a slot: the third is accepted and read
        QVERIFY(waitUntil([&] { return listener.stats().lines == 3; }, 30s));
        QCOMPARE(collectHits(queue, 3, 30s).total, Count{3});
        QVERIFY(listener.openConnections() <= 2u);
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

HITCOUNTER_TEST_APPLESS_MAIN(TcpListenerTest)
#include "tst_tcp_listener.moc"
