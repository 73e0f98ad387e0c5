// TraceRecorder: writes to FILE.partial, flushes once a second when asked, finishes by
// fsync + rename, never touches FILE before that.
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>

#include "core/io/trace_reader.h"
#include "core/io/trace_recorder.h"
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

HitBatch readBack(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    TraceReader reader(in);
    HitBatch events;
    TraceRow row;
    for (TraceStatus s; (s = reader.next(row)) != TraceStatus::End;) {
        if (s == TraceStatus::Row) {
            events.push_back(row.event);
        }
    }
    return events;
}

const HitBatch kBatch = {{5, "/a", "v1", 1}, {6, "/b", "v2", 3}, {6, "/a", "v1", 2}};
}  // namespace

class TraceRecorderTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::filesystem::path path(const char* name) { return m_dir.filePath(name).toStdString(); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void writesToThePartialFileUntilFinished() {
        const auto file = path("a.csv");
        TraceRecorder recorder(file);
        QVERIFY(std::filesystem::exists(TraceRecorder::partialPath(file)));
        QCOMPARE(TraceRecorder::partialPath(file).filename().string(),
                 std::string("a.csv.partial"));
        recorder.write(kBatch);
        QVERIFY(!std::filesystem::exists(file));
        recorder.finish();
        QVERIFY(recorder.finished());
        QVERIFY(std::filesystem::exists(file));
        QVERIFY(!std::filesystem::exists(TraceRecorder::partialPath(file)));
        QCOMPARE(readBack(file), kBatch);
        QCOMPARE(recorder.eventsWritten(), std::uint64_t{3});
        QCOMPARE(recorder.hitsWritten(), std::uint64_t{6});
    }

    void thePreviousFileStaysUntilTheNewOneIsComplete() {
        const auto file = path("b.csv");
        std::ofstream(file) << "timestamp\n1\n";
        TraceRecorder recorder(file);
        recorder.write(kBatch);
        recorder.flush();
        QCOMPARE(contents(file), std::string("timestamp\n1\n"));
        recorder.finish();
        QCOMPARE(readBack(file), kBatch);
    }

    void flushIfDueFlushesOnceASecond() {
        TraceRecorder recorder(path("c.csv"));
        const std::uint64_t header = recorder.bytesFlushed();
        QVERIFY(header > 0);  // the header is on disk at once
        recorder.flushIfDue(100s);
        recorder.write(kBatch);
        recorder.flushIfDue(100s + 999ms);
        QCOMPARE(recorder.bytesFlushed(), header);
        recorder.flushIfDue(101s);
        QVERIFY(recorder.bytesFlushed() > header);
        QCOMPARE(readBack(TraceRecorder::partialPath(path("c.csv"))), kBatch);
    }

    void anUnfinishedRecordingStaysPartialWithItsFlushedLines() {
        const auto file = path("d.csv");
        {
            TraceRecorder recorder(file);
            recorder.write(kBatch);
        }
        QVERIFY(!std::filesystem::exists(file));
        QCOMPARE(readBack(TraceRecorder::partialPath(file)), kBatch);
    }

    void eventsATraceCannotHoldAreSkippedAndCounted() {
        const auto file = path("e.csv");
        TraceRecorder recorder(file);
        recorder.write({{-1, "/a", "v", 1}, {3, "/a", "v", 0}, {4, "/a", "v", 1}});
        recorder.finish();
        QCOMPARE(recorder.eventsSkipped(), std::uint64_t{2});
        QCOMPARE(readBack(file), (HitBatch{{4, "/a", "v", 1}}));
    }

    void aFileThatCannotBeCreatedIsNamed() {
        try {
            TraceRecorder recorder("/nonexistent-dir/x.csv");
            QFAIL("no error");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("/nonexistent-dir/x.csv.partial"), e.what());
        }
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TraceRecorderTest)
#include "tst_trace_recorder.moc"
