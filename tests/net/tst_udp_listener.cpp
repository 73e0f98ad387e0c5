// statsd over UDP with real sockets on 127.0.0.1 (core/net/udp_listener.h).
#include <QTest>

#include <future>
#include <map>
#include <random>
#include <vector>

#include "core/net/udp_listener.h"
#include "core/time/manual_clock.h"
#include "tests/net/net_test_support.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::testing;
using namespace std::chrono_literals;
using namespace std::string_view_literals;

namespace {
ListenerOptions ephemeral() {
    ListenerOptions o;
    o.address = "127.0.0.1:0";
    o.clock = std::make_shared<ManualClock>(std::chrono::seconds(1700000000));
    return o;
}

// A clock whose first reading blocks until the test releases it.
class GateClock final : public Clock {
public:
    std::chrono::nanoseconds time() const override {
        entered = true;
        m_released.wait();
        return std::chrono::seconds(1);
    }
    bool sleepUntil(std::chrono::nanoseconds, std::stop_token) override { return true; }

    mutable std::atomic<bool> entered{false};
    std::promise<void> release;

private:
    std::shared_future<void> m_released = release.get_future().share();
};

// One run of a fixed fixture through a listener with `receivers` threads: 800 datagrams from
// 16 sender sockets (so the kernel spreads them over the receivers' sockets), good, bad,
// ignored and sampled lines. What arrived, once every datagram has been counted.
struct FixtureRun {
    std::map<std::string, Count> perKey;
    SourceStats stats;
    std::vector<ProblemCount> problems;
    std::vector<SourceStats> perReceiver;
};

constexpr int kFixtureDatagrams = 800;

std::string fixtureDatagram(int i) {
    std::string d = "k" + std::to_string(i % 37) + ":1|c\nk" + std::to_string(i % 5) + ":3|c\n";
    d += "s" + std::to_string(i % 3) + ":2|c|@0.5\n";
    if (i % 9 == 0) {
        d += "bad" + std::to_string(i) + ":1|zz\n";
    }
    if (i % 11 == 0) {
        d += "g:1|g\n";
    }
    return d;
}

FixtureRun runFixture(std::size_t receivers, bool coalesce) {
    ListenerOptions o = ephemeral();
    o.receivers = receivers;
    o.coalesce = coalesce;
    BatchQueue queue;
    UdpStatsdListener listener(o);
    listener.start(queue);
    std::vector<UniqueFd> senders;
    for (int i = 0; i < 16; ++i) {
        senders.push_back(udpSender(listener.port()));
    }
    for (int i = 0; i < kFixtureDatagrams; ++i) {
        sendAll(senders[static_cast<std::size_t>(i) % senders.size()].get(), fixtureDatagram(i));
    }
    FixtureRun run;
    const Collected got = collectUntil(
        queue,
        [&](const Collected&) {
            const SourceStats s = listener.stats();
            return s.packets + s.dropped >= kFixtureDatagrams;
        },
        60s);
    run.perKey = got.perKey;
    listener.stop();
    addDrained(queue, run.perKey);
    run.stats = listener.stats();
    run.problems = listener.problems();
    run.perReceiver = listener.receiverStats();
    return run;
}
}  // namespace

class UdpListenerTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void severalLinesPerDatagramAllArrive() {
        BatchQueue queue;
        UdpStatsdListener listener(ephemeral());
        listener.start(queue);
        UniqueFd out = udpSender(listener.port());
        QVERIFY(sendAll(out.get(), "home:1|c\nabout:2|c\r\n\nhome:3|c|@0.5|T42\nload:1|g"));
        const Collected got = collectHits(queue, 9);
        QCOMPARE(got.total, Count{9});
        QCOMPARE(got.perKey.at("home"), Count{7});
        QCOMPARE(got.perKey.at("about"), Count{2});
        QCOMPARE(got.events.front().time, Timestamp{1700000000});
        QCOMPARE(got.events.back().time, Timestamp{42});
        listener.stop();
        const SourceStats s = listener.stats();
        QCOMPARE(s.packets, 1u);
        QCOMPARE(s.lines, 4u);
        QCOMPARE(s.hits, 9u);
        QCOMPARE(s.ignoredLines, 1u);
        QCOMPARE(s.badLines, 0u);
    }

    // The same datagrams counted by one receiver making one event per line and by four
    // coalescing receivers (each with its own SO_REUSEPORT socket and key table): every
    // per-key total, line count and problem count is the same, and equals a count made here
    // from the fixture.
    void severalReceiversCountExactlyWhatOneCounts() {
        const FixtureRun one = runFixture(1, false);
        const FixtureRun four = runFixture(4, true);
        QCOMPARE(one.perReceiver.size(), std::size_t{1});
        QCOMPARE(four.perReceiver.size(), std::size_t{4});
        for (const FixtureRun* run : {&one, &four}) {
            QCOMPARE(run->stats.dropped, 0u);
            QCOMPARE(run->stats.packets, std::uint64_t{kFixtureDatagrams});
        }
        std::map<std::string, Count> expected;
        std::uint64_t lines = 0, bad = 0, ignored = 0;
        for (int i = 0; i < kFixtureDatagrams; ++i) {
            expected["k" + std::to_string(i % 37)] += 1;
            expected["k" + std::to_string(i % 5)] += 3;
            expected["s" + std::to_string(i % 3)] += 4;  // 2 sampled at 0.5
            lines += 3 + (i % 9 == 0) + (i % 11 == 0);
            bad += i % 9 == 0;
            ignored += i % 11 == 0;
        }
        QCOMPARE(one.perKey, expected);
        QCOMPARE(four.perKey, expected);
        QCOMPARE(four.stats.lines, lines);
        QCOMPARE(four.stats.badLines, bad);
        QCOMPARE(four.stats.ignoredLines, ignored);
        QCOMPARE(four.stats.hits, one.stats.hits);
        QCOMPARE(four.stats.lines, one.stats.lines);
        QCOMPARE(four.stats.badLines, one.stats.badLines);
        QCOMPARE(four.stats.ignoredLines, one.stats.ignoredLines);
        QCOMPARE(four.problems.size(), std::size_t{1});
        QCOMPARE(four.problems.front().kind, one.problems.front().kind);
        QCOMPARE(four.problems.front().count, bad);
        QCOMPARE(one.problems.front().count, bad);
        // The kernel did spread the 16 senders: more than one receiver read datagrams.
        int busy = 0;
        std::uint64_t packets = 0;
        for (const SourceStats& r : four.perReceiver) {
            busy += r.packets > 0 ? 1 : 0;
            packets += r.packets;
        }
        QVERIFY2(busy >= 2, std::to_string(busy).c_str());
        QCOMPARE(packets, std::uint64_t{kFixtureDatagrams});
    }

    void severalReceiversShareOnePortThatNoOtherListenerMayJoin() {
        BatchQueue queue;
        ListenerOptions o = ephemeral();
        o.receivers = 3;
        UdpStatsdListener first(o);
        first.start(queue);
        QCOMPARE(first.receivers(), std::size_t{3});
        QCOMPARE(QString::fromStdString(first.describe()),
                 QString("statsd udp 127.0.0.1:%1").arg(first.port()));
        ListenerOptions same = o;
        same.address = "127.0.0.1:" + std::to_string(first.port());
        UdpStatsdListener second(same);  // would join the SO_REUSEPORT group if it could
        try {
            second.start(queue);
            QFAIL("a second listener joined the first one's port");
        } catch (const SourceError& e) {
            QVERIFY2(QString(e.what()).contains("in use"), e.what());
        }
        first.stop();
        QVERIFY(!first.running());
    }

    void manyDatagramsAreReadInBatchesAndNoneIsLost() {
        BatchQueue queue;
        UdpStatsdListener listener(ephemeral());
        listener.start(queue);
        UniqueFd out = udpSender(listener.port());
        constexpr int kDatagrams = 2000;
        for (int i = 0; i < kDatagrams; ++i) {
            QVERIFY(sendAll(out.get(), "k" + std::to_string(i % 10) + ":1|c\nx:2|c"));
        }
        const Collected got = collectHits(queue, 3 * kDatagrams);
        QCOMPARE(got.total, Count{3 * kDatagrams});
        QCOMPARE(got.perKey.at("k3"), Count{kDatagrams / 10});
        listener.stop();
        QCOMPARE(listener.stats().packets, std::uint64_t{kDatagrams});
        QCOMPARE(listener.kernelDrops(), std::int64_t{0});
    }

    void receiveBufferIsEnlargedAndGrantedSizeReported() {
        ListenerOptions small = ephemeral();
        small.receiveBufferBytes = 64 * 1024;
        ListenerOptions large = ephemeral();
        large.receiveBufferBytes = 4 * 1024 * 1024;
        BatchQueue queue;
        UdpStatsdListener a(small), b(large);
        a.start(queue);
        b.start(queue);
        QVERIFY(a.receiveBufferBytes() >= 64 * 1024);
        QVERIFY(b.receiveBufferBytes() > a.receiveBufferBytes());
    }

    void kernelDropsAreCountedWhenTheBufferOverflows() {
        // The worker is held inside now() while datagrams pile up in a tiny receive buffer;
        // every datagram then is either received or reported dropped by the kernel.
        auto gate = std::make_shared<GateClock>();
        ListenerOptions o = ephemeral();
        o.receiveBufferBytes = 1;  // the kernel rounds it up to its minimum
        o.clock = gate;
        BatchQueue queue;
        UdpStatsdListener listener(o);
        listener.start(queue);
        QCOMPARE(listener.kernelDrops(), std::int64_t{0});
        UniqueFd out = udpSender(listener.port());
        QVERIFY(sendAll(out.get(), "a:1|c"));
        QVERIFY(waitUntil([&] { return gate->entered.load(); }));
        constexpr int kMore = 500;
        for (int i = 0; i < kMore; ++i) {
            sendAll(out.get(), std::string(200, 'x') + "\na:1|c");
        }
        gate->release.set_value();
        QVERIFY(waitUntil([&] {
            const SourceStats s = listener.stats();
            return s.packets + s.dropped == kMore + 1;
        }));
        listener.stop();
        const SourceStats s = listener.stats();
        QVERIFY(listener.kernelDrops() > 0);
        QCOMPARE(std::uint64_t(listener.kernelDrops()), s.dropped);
        QCOMPARE(s.packets + s.dropped, std::uint64_t{kMore + 1});
        QCOMPARE(s.hits, s.packets);
    }

    void binaryGarbageIsCountedBadAndNeverCrashes() {
        BatchQueue queue;
        UdpStatsdListener listener(ephemeral());
        listener.start(queue);
        UniqueFd out = udpSender(listener.port());
        std::mt19937 random(4);
        for (int i = 0; i < 300; ++i) {
            std::string junk(1 + random() % 1500, '\0');
            for (char& c : junk) {
                c = static_cast<char>(random());
            }
            sendAll(out.get(), junk);
        }
        QVERIFY(sendAll(out.get(), "\xff\xfe\x00:1|c\nafter:1|c"sv));
        const Collected got =
            collectUntil(queue, [](const Collected& c) { return c.perKey.count("after") != 0; });
        QCOMPARE(got.perKey.count("after"), std::size_t{1});
        listener.stop();
        QVERIFY(listener.stats().badLines > 0);
        QVERIFY(!listener.lastProblem().empty());
    }

    void badLineProblemNamesListenerPeerAndLine() {
        BatchQueue queue;
        UdpStatsdListener listener(ephemeral());
        listener.start(queue);
        UniqueFd out = udpSender(listener.port());
        QVERIFY(sendAll(out.get(), "home:1|zz"));
        QVERIFY(waitUntil([&] { return listener.stats().badLines == 1; }));
        const QString problem = QString::fromStdString(listener.lastProblem());
        QVERIFY2(problem.startsWith(
                     QString("statsd udp 127.0.0.1:%1 from 127.0.0.1:").arg(listener.port())),
                 qPrintable(problem));
        QVERIFY2(problem.endsWith("unknown type: \"home:1|zz\""), qPrintable(problem));
    }

    void takenPortFailsAtStartNamingAddress() {
        BatchQueue queue;
        UdpStatsdListener first(ephemeral());
        first.start(queue);
        ListenerOptions same = ephemeral();
        same.address = "127.0.0.1:" + std::to_string(first.port());
        UdpStatsdListener second(same);
        try {
            second.start(queue);
            QFAIL("started on a taken port");
        } catch (const SourceError& e) {
            QVERIFY2(QString(e.what()).contains(QString::fromStdString(same.address)), e.what());
            QVERIFY2(QString(e.what()).contains("in use"), e.what());
        }
        QVERIFY(!second.running());
    }

    void describeNamesTheBoundPort() {
        BatchQueue queue;
        UdpStatsdListener listener(ephemeral());
        QCOMPARE(listener.port(), std::uint16_t{0});
        listener.start(queue);
        QVERIFY(listener.port() != 0);
        QCOMPARE(QString::fromStdString(listener.describe()),
                 QString("statsd udp 127.0.0.1:%1").arg(listener.port()));
    }

    void stopIsPromptAndIdempotent() {
        BatchQueue queue;
        UdpStatsdListener listener(ephemeral());
        listener.stop();
        listener.start(queue);
        QVERIFY(listener.running());
        const auto before = std::chrono::steady_clock::now();
        listener.stop();
        QVERIFY(std::chrono::steady_clock::now() - before < 500ms);
        QVERIFY(!listener.running());
        listener.stop();
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(UdpListenerTest)
#include "tst_udp_listener.moc"
