// The capabilities each source offers (core/sources/source_capabilities.h), asked of the
// source as its owner holds it (a Source&), and that a call through a capability reaches the
// source: a replay pauses, seeks, loops and changes speed; a simulator changes speed only;
// listeners, a followed log and a recording offer nothing.
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <memory>

#include "core/net/tcp_listener.h"
#include "core/net/udp_listener.h"
#include "core/sources/follow_source.h"
#include "core/sources/recording_source.h"
#include "core/sources/replay_source.h"
#include "core/sources/simulator_source.h"
#include "core/sources/source_capabilities.h"
#include "core/time/manual_clock.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

struct Offered {
    bool pausable;
    bool seekable;
    bool speed;
};

Offered offered(Source& source) {
    return {source.pausable() != nullptr, source.seekable() != nullptr,
            source.speedControl() != nullptr};
}

}  // namespace

class TestSourceCapabilities : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        QVERIFY(m_dir.isValid());
        m_trace = m_dir.filePath(QStringLiteral("t.csv")).toStdString();
        std::ofstream(m_trace) << "timestamp,key\n1,a\n2,b\n";
    }

    void aReplayOffersEveryCapabilityAndObeysThem() {
        ReplaySource replay(m_clock, m_trace);
        Source& source = replay;
        const Offered o = offered(source);
        QVERIFY(o.pausable && o.seekable && o.speed);

        source.speedControl()->setSpeed(10.0);
        QCOMPARE(replay.speed(), 10.0);
        QCOMPARE(source.speedControl()->speed(), 10.0);
        source.pausable()->pause();
        QVERIFY(replay.paused());
        QVERIFY(source.pausable()->paused());
        source.pausable()->play();
        QVERIFY(!replay.paused());
        source.seekable()->setLoop(true);
        QVERIFY(replay.loop());
        QVERIFY(source.seekable()->loop());
        source.seekable()->seek(2);
        QCOMPARE(source.seekable()->epoch(), replay.epoch());
        QVERIFY(replay.epoch() > 0);
        QCOMPARE(source.seekable()->now(), replay.now());
        QCOMPARE(source.seekable()->progress().state, replay.progress().state);
    }

    void aSimulatorOffersItsSpeedOnly() {
        SimulatorSource simulator(m_clock, SimulatorOptions{});
        Source& source = simulator;
        const Offered o = offered(source);
        QVERIFY(!o.pausable);  // live traffic: the window holds its views instead
        QVERIFY(!o.seekable);
        QVERIFY(o.speed);
        source.speedControl()->setSpeed(4.0);
        QCOMPARE(simulator.speed(), 4.0);
    }

    void liveSourcesOfferNothing() {
        FollowOptions follow;
        follow.file = m_trace;
        ListenerOptions listen;
        listen.address = "127.0.0.1:0";
        std::vector<std::unique_ptr<Source>> sources;
        sources.push_back(std::make_unique<FollowSource>(follow));
        sources.push_back(std::make_unique<UdpStatsdListener>(listen));
        sources.push_back(std::make_unique<TcpListener>(listen, WireProtocol::Statsd));
        sources.push_back(std::make_unique<TcpListener>(listen, WireProtocol::Graphite));
        // A recording offers nothing of its inner source (controlled through inner()).
        sources.push_back(std::make_unique<RecordingSource>(
            std::make_unique<ReplaySource>(m_clock, m_trace),
            m_dir.filePath(QStringLiteral("r.csv")).toStdString(), m_clock));
        for (const auto& source : sources) {
            const Offered o = offered(*source);
            QVERIFY2(!o.pausable && !o.seekable && !o.speed, source->describe().c_str());
        }
    }

private:
    QTemporaryDir m_dir;
    std::string m_trace;
    ManualClock m_clock{std::chrono::seconds(1000)};
};

HITCOUNTER_TEST_MAIN(TestSourceCapabilities)
#include "tst_source_capabilities.moc"
