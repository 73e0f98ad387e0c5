// SourceSession without a window: a real EngineWorker counting a real trace file (a frozen
// ManualClock keeps the replay where a seek puts it), a real UDP socket on 127.0.0.1 for a
// taken port. Start, stop and restart; seeks landing on exact counts in every epoch; the
// recording tap changing no count; failed starts leaving no source and zeroed counters; the
// simulator's warm-up; a bad trace reported once.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <thread>

#include "core/engine/engine_worker.h"
#include "core/sources/batch_queue.h"
#include "core/sources/replay_source.h"
#include "core/sources/simulator_source.h"
#include "core/sources/source_capabilities.h"
#include "core/time/manual_clock.h"
#include "tests/test_main.h"
#include "tests/ui/known_inputs.h"
#include "tests/ui/running_as.h"
#include "ui/sources/source_session.h"

using namespace hitcounter;
using namespace hitcounter::ui;
using hitcounter::testing::runningAs;
using hitcounter::testing::writeKnownTrace;

namespace {

Count sum(const std::vector<Count>& perSecond, Timestamp from, Timestamp to) {
    Count total = 0;
    for (Timestamp t = std::max<Timestamp>(from, 1); t <= to; ++t) {
        total += perSecond[std::size_t(t)];
    }
    return total;
}

// The queue, the counting thread and the session, as MainWindow holds them (in this order, so
// the session stops its source before the worker goes).
struct Pipeline {
    explicit Pipeline(std::shared_ptr<Clock> clock) : session(queue, worker, std::move(clock)) {
        worker.start();
    }
    // Ticks the session and takes frames until an idle frame satisfies `done` (about 10 s).
    template <typename Done>
    std::shared_ptr<const EngineFrame> idleFrame(Done done) {
        for (int i = 0; i < 5000; ++i) {
            session.tick();
            if (auto frame = worker.takeFrame(); frame && frame->idle && done(*frame)) {
                return frame;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return nullptr;
    }
    // Seeks the replay to `target` and returns the idle frame that shows it.
    std::shared_ptr<const EngineFrame> seekAndWait(Timestamp target) {
        const auto applied = session.seekable()->progress().seeksApplied;
        session.seek(target);
        return idleFrame([&](const EngineFrame& f) {
            return session.seekable()->progress().seeksApplied > applied &&
                   f.snapshot.head == target;
        });
    }
    bool startReplay(const QString& path) {
        ReplaySpec spec;
        spec.file = path;
        if (!session.startSpec(spec)) {
            return false;
        }
        return idleFrame([&](const EngineFrame&) {
                   return session.seekable()->progress().state == ReplayState::Playing;
               }) != nullptr;
    }

    BatchQueue queue{4096};
    EngineWorker worker{queue};
    SourceSession session;
};

std::shared_ptr<ManualClock> frozenClock() {
    return std::make_shared<ManualClock>(std::chrono::seconds(1'000'000));
}

// A UDP socket bound to a free port of 127.0.0.1; the port is taken until the socket closes.
struct TakenPort {
    TakenPort() {
        fd = ::socket(AF_INET, SOCK_DGRAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            return;
        }
        socklen_t len = sizeof addr;
        if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
            port = ntohs(addr.sin_port);
        }
    }
    ~TakenPort() { release(); }
    void release() {
        if (fd >= 0) {
            ::close(fd);
            fd = -1;
        }
    }
    int fd = -1;
    int port = 0;
};

}  // namespace

class TestSourceSession : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void startStopAndRestartAReplay() {
        QTemporaryDir dir;
        std::vector<Count> perSecond;
        const QString path = writeKnownTrace(dir, perSecond);
        Pipeline p(frozenClock());
        QSignalSpy reset(&p.session, &SourceSession::viewsReset);
        QSignalSpy started(&p.session, &SourceSession::started);
        QSignalSpy stopped(&p.session, &SourceSession::stopped);
        QSignalSpy shown(&p.session, &SourceSession::specShown);

        QVERIFY(p.startReplay(path));
        QCOMPARE(reset.count(), 1);
        QCOMPARE(reset.at(0).at(0).value<TimeAxisMode>(), TimeAxisMode::Trace);
        QCOMPARE(started.count(), 1);
        QVERIFY(started.at(0).at(0).toString().contains(QStringLiteral("trace.csv")));
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.at(0).at(1).toBool(), true);
        QVERIFY(p.session.seekable() != nullptr);
        QCOMPARE(sourceFile(p.session.spec()), path);
        QVERIFY(p.seekAndWait(600) != nullptr);

        p.session.stop();
        QVERIFY(p.session.source() == nullptr);
        QVERIFY(p.session.seekable() == nullptr);
        QVERIFY(stopped.count() >= 1);
        QCOMPARE(sourceFile(p.session.spec()), path);  // remembered for the next start

        // Restarted: the counters start over, and the new replay seeks as exactly.
        QVERIFY(p.session.startSpec(p.session.spec()));
        QCOMPARE(reset.count(), 2);
        QVERIFY(p.idleFrame([&](const EngineFrame& f) {
            return p.session.seekable()->progress().state == ReplayState::Playing &&
                   f.snapshot.totalHits < sum(perSecond, 1, 600);
        }));
        const auto frame = p.seekAndWait(420);
        QVERIFY(frame != nullptr);
        QCOMPARE(frame->snapshot.windowCount, sum(perSecond, 121, 420));
        QCOMPARE(frame->snapshot.totalHits, sum(perSecond, 1, 420));
    }

    void seeksRebuildExactCountsInEveryEpoch() {
        QTemporaryDir dir;
        std::vector<Count> perSecond;
        const QString path = writeKnownTrace(dir, perSecond);
        Pipeline p(frozenClock());
        QVERIFY(p.startReplay(path));
        QSignalSpy messages(&p.session, &SourceSession::statusMessage);
        std::uint64_t epoch = p.session.seekable()->epoch();
        for (Timestamp target :
             {Timestamp{700}, Timestamp{420}, Timestamp{1}, Timestamp{1000}, Timestamp{299}}) {
            const auto frame = p.seekAndWait(target);
            QVERIFY2(frame != nullptr, qPrintable(QString::number(target)));
            QVERIFY(p.session.seekable()->epoch() > epoch);
            epoch = p.session.seekable()->epoch();
            QCOMPARE(frame->streamEpoch, epoch);
            QCOMPARE(frame->snapshot.windowCount, sum(perSecond, target - 299, target));
            QCOMPARE(frame->snapshot.totalHits, sum(perSecond, 1, target));
            int exact = 0;
            for (const PolicyState& policy : frame->snapshot.policies) {
                if (policy.exact) {
                    QCOMPARE(policy.count, frame->snapshot.windowCount);
                    ++exact;
                }
            }
            QVERIFY(exact >= 2);  // at least the ring and the deque were compared
        }
        QVERIFY(messages.count() >= 5);  // one "Seeking to" per seek
        QVERIFY(messages.at(0).at(0).toString().contains(QStringLiteral("700")));
    }

    void seekWithoutAReplayDoesNothing() {
        Pipeline p(frozenClock());
        QSignalSpy messages(&p.session, &SourceSession::statusMessage);
        p.session.seek(100);
        QCOMPARE(messages.count(), 0);
        QVERIFY(!p.session.rerunReplay().has_value());
        // restartCounters() without a replay is a Reset marker: the counters read 0
        HitBatch batch;
        batch.push_back(HitEvent{5, "a", "u"});
        batch.push_back(HitEvent{6, "b", "u"});
        p.queue.pushWait(std::move(batch), {});
        QVERIFY(p.idleFrame([](const EngineFrame& f) { return f.snapshot.totalHits == 2; }));
        p.session.restartCounters();
        QVERIFY(p.idleFrame([](const EngineFrame& f) { return f.snapshot.totalHits == 0; }));
    }

    void recordingTogglesChangeNoCount() {
        QTemporaryDir dir;
        std::vector<Count> perSecond;
        const QString path = writeKnownTrace(dir, perSecond);
        Pipeline p(frozenClock());
        QVERIFY(p.startReplay(path));
        const auto before = p.seekAndWait(700);
        QVERIFY(before != nullptr);
        const Source* source = p.session.source();
        const std::uint64_t epoch = p.session.seekable()->epoch();
        QSignalSpy reset(&p.session, &SourceSession::viewsReset);
        QSignalSpy shown(&p.session, &SourceSession::recordingShown);
        QSignalSpy errors(&p.session, &SourceSession::errorOccurred);

        const QString file = dir.filePath(QStringLiteral("recording.csv"));
        QVERIFY(p.session.setRecording(file));
        QCOMPARE(p.session.recordingPath(), file);
        QVERIFY(QFile::exists(file + QStringLiteral(".partial")));  // renamed when finished
        const auto during = p.idleFrame([](const EngineFrame&) { return true; });
        QVERIFY(during != nullptr);
        QVERIFY(shown.count() >= 1);  // each tick shows the recording's count
        QVERIFY(shown.last().at(0).toString().contains(file));

        // A file that cannot be created: an error, and the running recording goes on.
        QVERIFY(!p.session.setRecording(dir.filePath(QStringLiteral("no/such/dir/r.csv"))));
        QCOMPARE(errors.count(), 1);
        QCOMPARE(p.session.recordingPath(), file);

        QVERIFY(p.session.setRecording(QString()));
        QVERIFY(p.session.recordingPath().isEmpty());
        QVERIFY(shown.last().at(0).toString().startsWith(QStringLiteral("Recorded")));
        QVERIFY(QFile::exists(file));
        QVERIFY(!QFile::exists(file + QStringLiteral(".partial")));
        const auto after = p.idleFrame([](const EngineFrame&) { return true; });
        QVERIFY(after != nullptr);

        QCOMPARE(reset.count(), 0);
        QVERIFY(p.session.source() == source);  // never restarted
        QCOMPARE(p.session.seekable()->epoch(), epoch);
        for (const auto& frame : {during, after}) {
            QCOMPARE(frame->streamEpoch, before->streamEpoch);
            QCOMPARE(frame->snapshot.windowCount, before->snapshot.windowCount);
            QCOMPARE(frame->snapshot.totalHits, before->snapshot.totalHits);
            QCOMPARE(frame->top.size(), before->top.size());
        }
        QCOMPARE(before->snapshot.windowCount, sum(perSecond, 401, 700));
    }

    void aTakenPortLeavesNoSourceAndZeroedCounters() {
        QTemporaryDir dir;
        std::vector<Count> perSecond;
        const QString path = writeKnownTrace(dir, perSecond);
        Pipeline p(frozenClock());
        QVERIFY(p.startReplay(path));
        QVERIFY(p.seekAndWait(700) != nullptr);

        TakenPort taken;
        QVERIFY(taken.port > 0);
        QSignalSpy errors(&p.session, &SourceSession::errorOccurred);
        QSignalSpy started(&p.session, &SourceSession::started);
        QSignalSpy shown(&p.session, &SourceSession::specShown);
        ListenerSpec spec;
        spec.protocol = ListenerSpec::Protocol::StatsdUdp;
        spec.address = QStringLiteral("127.0.0.1:%1").arg(taken.port);
        QVERIFY(!p.session.startSpec(spec));
        QCOMPARE(errors.count(), 1);
        QVERIFY2(errors.at(0).at(0).toString().contains(QString::number(taken.port)),
                 qPrintable(errors.at(0).at(0).toString()));
        QCOMPARE(started.count(), 0);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.at(0).at(1).toBool(), false);
        QVERIFY(p.session.source() == nullptr);
        QVERIFY(p.session.seekable() == nullptr);
        QCOMPARE(p.session.spec(), SourceSpec(spec));  // offered again
        // The old source's counts are gone from every figure together.
        const auto frame = p.idleFrame([](const EngineFrame& f) { return f.snapshot.empty; });
        QVERIFY(frame != nullptr);
        QCOMPARE(frame->snapshot.windowCount, Count{0});
        QCOMPARE(frame->snapshot.totalHits, Count{0});
        QVERIFY(frame->top.empty());
        QCOMPARE(frame->allKeysWindow, Count{0});

        taken.release();  // the same request works once the port is free
        QVERIFY(p.session.startSpec(spec));
        QVERIFY(p.session.source() != nullptr);
        QCOMPARE(started.count(), 1);
    }

    void aBadSettingKeepsTheRunningSource() {
        QTemporaryDir dir;
        std::vector<Count> perSecond;
        const QString path = writeKnownTrace(dir, perSecond);
        Pipeline p(frozenClock());
        QVERIFY(p.startReplay(path));
        const Source* running = p.session.source();
        QSignalSpy errors(&p.session, &SourceSession::errorOccurred);
        QSignalSpy reset(&p.session, &SourceSession::viewsReset);
        ReplaySpec bad = std::get<ReplaySpec>(p.session.spec());
        bad.key = QStringLiteral("no-such-key");
        QVERIFY(!p.session.startSpec(bad));
        QCOMPARE(errors.count(), 1);
        QVERIFY2(errors.at(0).at(0).toString().startsWith(QStringLiteral("Cannot start")),
                 qPrintable(errors.at(0).at(0).toString()));
        QCOMPARE(reset.count(), 0);
        QVERIFY(p.session.source() == running);
        QCOMPARE(std::get<ReplaySpec>(p.session.spec()).key, QStringLiteral("path"));
    }

    void aBadTraceIsReportedOnce() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is not,a trace header at all\n\x01\x02 garbage\n");
        file.close();
        Pipeline p(frozenClock());
        QSignalSpy errors(&p.session, &SourceSession::errorOccurred);
        ReplaySpec spec;
        spec.file = path;
        p.session.startSpec(spec);
        QVERIFY(p.idleFrame([&](const EngineFrame&) { return errors.count() > 0; }));
        QVERIFY2(errors.at(0).at(0).toString().contains(QStringLiteral("bad.csv")),
                 qPrintable(errors.at(0).at(0).toString()));
        for (int i = 0; i < 20; ++i) {
            p.session.tick();
        }
        QCOMPARE(errors.count(), 1);
    }

    // Edits (SourceSession::edit): the running source of the edited kind takes them at once,
    // without a restart; an edit of another kind is kept for that kind's next start.
    void editsApplyToTheirKindAndAreKeptForTheOthers() {
        QTemporaryDir dir;
        std::vector<Count> perSecond;
        const QString path = writeKnownTrace(dir, perSecond);
        Pipeline p(frozenClock());
        QVERIFY(p.startReplay(path));
        const Source* running = p.session.source();
        QSignalSpy reset(&p.session, &SourceSession::viewsReset);
        QSignalSpy edited(&p.session, &SourceSession::specEdited);
        ReplaySpec faster = std::get<ReplaySpec>(p.session.spec());
        faster.speed = 10;
        faster.loop = true;
        p.session.edit(faster);
        QCOMPARE(p.session.speedControl()->speed(), 10.0);
        QVERIFY(p.session.seekable()->loop());
        QCOMPARE(p.session.spec(), SourceSpec(faster));
        SimulatorSpec simulator;
        simulator.rate = 500;
        p.session.edit(simulator);
        QCOMPARE(p.session.spec(), SourceSpec(faster));  // the replay is still the current one
        QCOMPARE(p.session.specs().last<SimulatorSpec>().rate, 500.0);
        QVERIFY(p.session.source() == running);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(edited.count(), 2);

        // A replay's key chosen while a listener runs: the next trace opened takes it.
        ListenerSpec listener;
        listener.address = QStringLiteral("127.0.0.1:0");
        QVERIFY(p.session.startSpec(listener));
        ReplaySpec byStatus = faster;
        byStatus.key = QStringLiteral("status");
        p.session.edit(byStatus);
        QCOMPARE(p.session.spec(), SourceSpec(listener));
        const auto trace = std::get<ReplaySpec>(p.session.traceSpec({path}));
        QCOMPARE(trace.key, QStringLiteral("status"));
        QVERIFY(trace.loop);
        QCOMPARE(trace.speed, 1.0);  // "Open trace…" plays at speed 1
    }

    void cancellingALoadStopsTheReplay() {
        QTemporaryDir dir;
        std::vector<Count> perSecond;
        const QString path = writeKnownTrace(dir, perSecond);
        Pipeline p(frozenClock());
        QSignalSpy errors(&p.session, &SourceSession::errorOccurred);
        QSignalSpy stopped(&p.session, &SourceSession::stopped);
        QVERIFY(p.session.openTrace({path}));
        QVERIFY(std::holds_alternative<ReplaySpec>(p.session.spec()));
        QCOMPARE(p.session.traceDirectory(QStringLiteral("/x")), dir.path());
        const int before = stopped.count();
        p.session.cancelLoading();
        QVERIFY(p.session.source() == nullptr);
        QCOMPARE(stopped.count(), before + 1);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors.at(0).at(0).toString(), path + QStringLiteral(": loading cancelled"));
    }

    void simulatorWarmsUpAtFullSpeedThenTakesTheSpecSpeed() {
        auto clock = frozenClock();
        Pipeline p(clock);
        SimulatorSpec spec;  // poisson; the warm-up covers W (300 s) and a minute at least
        spec.rate = 20;
        spec.warmup = std::chrono::seconds(120);
        QVERIFY(p.session.startSpec(spec));
        const SimulatorSource* simulator = runningAs<SimulatorSource>(p.session);
        QVERIFY(simulator != nullptr);
        // During the warm-up (the simulator's own catch-up, tst_simulator_source) or after
        // it, the speed asked for is the one it runs at.
        spec.speed = 4.0;
        p.session.edit(spec);
        QCOMPARE(std::get<SimulatorSpec>(p.session.spec()).speed, 4.0);
        QVERIFY(p.idleFrame([&](const EngineFrame&) { return !p.session.warmingUp(); }));
        QCOMPARE(simulator->speed(), 4.0);
        QCOMPARE(p.session.speedControl()->speed(), 4.0);
        // Caught up exactly: not one second past the (frozen) clock, however fast the engine
        // drained the warm-up (it ran minutes ahead when the GUI's timer made the switch).
        QCOMPARE(simulator->now(), clock->now());
        QVERIFY2(simulator->position() <= clock->now() + 1,
                 qPrintable(QString::number(simulator->position() - clock->now())));
        p.session.stop();
        QVERIFY(!p.session.warmingUp());
        QVERIFY(p.session.source() == nullptr);
    }
};

HITCOUNTER_TEST_MAIN(TestSourceSession)
#include "tst_source_session.moc"
