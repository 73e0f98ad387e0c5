// RecordingSource: a tee that records any source; flushes once a second; finishes by
// rename; replaying the recording reproduces the live counts; a killed recording process
// leaves the previous complete file and a clearly named partial one.
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>

#include "core/counters/counter_factory.h"
#include "core/io/trace_reader.h"
#include "core/sources/recording_source.h"
#include "core/sources/replay_source.h"
#include "core/sources/simulator_source.h"
#include "core/time/manual_clock.h"
#include "tests/sources/batch_collector.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
std::string contents(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// Window counts at every 10th second, streaming the events in order.
std::vector<Count> windowCounts(const HitBatch& events, Timestamp from, Timestamp to) {
    auto counter = makeCounter("ring");
    std::vector<Count> counts;
    Timestamp next = from;
    for (const HitEvent& e : events) {
        for (; next < e.time && next < to; next += 10) {
            counts.push_back(counter->count(next));
        }
        counter->hit(e.time, e.count);
    }
    for (; next < to; next += 10) {
        counts.push_back(counter->count(next));
    }
    return counts;
}

SimulatorOptions jittered(double speed, std::optional<std::chrono::seconds> duration) {
    return {.traffic = {.pattern = TrafficPattern::Burst,
                        .rate = 300,
                        .keys = 20,
                        .jitter = 5s,
                        .jitterFraction = 0.2},
            .start = 2000,
            .duration = duration,
            .speed = speed};
}
}  // namespace

class RecordingSourceTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::filesystem::path path(const char* name) { return m_dir.filePath(name).toStdString(); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void replayingARecordingReproducesTheLiveCounts() {
        const auto file = path("live.csv");
        ManualClock base(0s);
        BatchQueue live(8);
        test::BatchCollector liveCollector(live);
        RecordingSource recording(std::make_unique<SimulatorSource>(
                                      base, jittered(VirtualClock::kAsFastAsPossible, 900s)),
                                  file, base);
        recording.start(live);
        QVERIFY(liveCollector.collectUntil([&] { return !recording.running(); }));
        liveCollector.drainNow();
        recording.stop();
        QVERIFY(recording.recording().finished);
        QVERIFY(recording.recording().error.empty());
        QVERIFY(!std::filesystem::exists(TraceRecorder::partialPath(file)));
        QCOMPARE(recording.stats().dropped, std::uint64_t{0});
        QCOMPARE(recording.recording().hits, std::uint64_t{liveCollector.hits()});

        BatchQueue replayed(8);
        test::BatchCollector replayCollector(replayed);
        ReplaySource replay(base, file,
                            {.speed = VirtualClock::kAsFastAsPossible, .holdAtEnd = false});
        replay.start(replayed);
        QVERIFY(replayCollector.collectUntil([&] { return !replay.running(); }));
        replayCollector.drainNow();
        QCOMPARE(replayCollector.events(), liveCollector.events());
        const auto liveCounts = windowCounts(liveCollector.events(), 2000, 3300);
        QCOMPARE(windowCounts(replayCollector.events(), 2000, 3300), liveCounts);
        QVERIFY(*std::max_element(liveCounts.begin(), liveCounts.end()) > 0);
        QCOMPARE(replay.stats().lateHits, recording.stats().lateHits);
    }

    void flushesAtLeastOnceASecond() {
        const auto file = path("flush.csv");
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        RecordingSource recording(
            std::make_unique<SimulatorSource>(base, jittered(1.0, std::nullopt)), file, base);
        recording.start(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() > 0; }));
        const std::uint64_t header = recording.recording().bytesFlushed;
        QVERIFY(header > 0);
        QCOMPARE(std::filesystem::file_size(TraceRecorder::partialPath(file)), header);
        base.advance(1s);  // a second of the recording's clock has passed
        QVERIFY(test::waitUntil([&] { return recording.recording().bytesFlushed > header; }));
        QVERIFY(std::filesystem::file_size(TraceRecorder::partialPath(file)) > header);
        QVERIFY(!std::filesystem::exists(file));
        recording.stop();
        QVERIFY(std::filesystem::exists(file));
        QVERIFY(!std::filesystem::exists(TraceRecorder::partialPath(file)));
    }

    void anInnerSourceThatEndsFinishesTheRecording() {
        const auto file = path("ends.csv");
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        RecordingSource recording(
            std::make_unique<SimulatorSource>(base, jittered(VirtualClock::kAsFastAsPossible, 5s)),
            file, base);
        recording.start(queue);
        QVERIFY(collector.collectUntil([&] { return !recording.running(); }));
        QVERIFY(recording.recording().finished);
        QVERIFY(std::filesystem::exists(file));
        QVERIFY2(QString::fromStdString(recording.describe()).contains("recording to"),
                 recording.describe().c_str());
    }

    void aFileThatCannotBeCreatedIsASourceError() {
        ManualClock base(0s);
        BatchQueue queue;
        RecordingSource recording(std::make_unique<SimulatorSource>(base, jittered(1.0, 1s)),
                                  "/nonexistent-dir/r.csv", base);
        QVERIFY_THROWS_EXCEPTION(SourceError, recording.start(queue));
        QVERIFY(!recording.running());
    }

    void aKilledRecordingLeavesThePreviousFileAndAPartialOne() {
        const auto file = path("crash.csv");
        QProcess first;
        first.start(RECORDING_CRASH_HELPER, {QString::fromStdString(file.string()), "50"});
        QVERIFY(first.waitForFinished(30000));
        QCOMPARE(first.exitCode(), 0);
        const std::string previous = contents(file);
        QVERIFY(previous.size() > 1000);

        QProcess second;
        second.start(RECORDING_CRASH_HELPER, {QString::fromStdString(file.string()), "forever"});
        QVERIFY(second.waitForStarted());
        const auto deadline = std::chrono::steady_clock::now() + 20s;
        int flushes = 0;
        while (flushes < 2 && std::chrono::steady_clock::now() < deadline) {
            if (second.canReadLine() || second.waitForReadyRead(1000)) {
                while (second.canReadLine()) {
                    flushes += second.readLine().startsWith("flushed") ? 1 : 0;
                }
            }
        }
        QVERIFY2(flushes >= 2, "the recording never flushed");
        second.kill();  // SIGKILL: no chance to clean up
        QVERIFY(second.waitForFinished(10000));
        QCOMPARE(second.exitStatus(), QProcess::CrashExit);

        QCOMPARE(contents(file), previous);  // the complete file is untouched
        const auto partial = TraceRecorder::partialPath(file);
        QVERIFY(std::filesystem::exists(partial));
        std::ifstream in(partial, std::ios::binary);
        TraceReader reader(in);
        TraceRow row;
        std::uint64_t badRows = 0;
        std::uint64_t badLine = 0;
        for (TraceStatus s; (s = reader.next(row)) != TraceStatus::End;) {
            if (s == TraceStatus::BadRow) {
                ++badRows;
                badLine = reader.error().line;
            }
        }
        QVERIFY(reader.hasHeader());
        QVERIFY(reader.progress().rows > 0);
        // At most the very last line may be cut short by the kill.
        QVERIFY(badRows == 0 || (badRows == 1 && badLine == reader.progress().lines));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(RecordingSourceTest)
#include "tst_recording_source.moc"
