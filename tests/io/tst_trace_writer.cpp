// TraceWriter: writes what TraceReader reads back, with the chosen columns, and never writes a
// line that would not read back.
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/io/trace_reader.h"
#include "core/io/trace_writer.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {
std::vector<HitEvent> readBack(const std::string& text) {
    TraceReader reader{std::string_view(text)};
    std::vector<HitEvent> events;
    TraceRow row;
    for (TraceStatus status; (status = reader.next(row)) != TraceStatus::End;) {
        if (status != TraceStatus::Row)
            throw std::runtime_error("bad row: " + reader.error().message);
        events.push_back(row.event);
    }
    return events;
}
}  // namespace

class TestTraceWriter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writesTheHeaderAndOneLinePerEvent() {
        std::ostringstream out;
        TraceWriter writer(out, TraceColumns{.key = true, .visitor = false, .count = true});
        writer.write({5, "home", "u1", 2});
        writer.writeComment("a note\nover two lines");
        writer.write({6, "", "", 1});
        QCOMPARE(out.str(), std::string("timestamp,key,count\n5,home,2\n"
                                        "# a note over two lines\n6,,1\n"));
        QVERIFY(writer.good());
    }

    void whatIsWrittenReadsBackUnchanged() {
        const HitBatch batch{{0, "a", "v", 1},
                             {7, "some key", "visitor 9", 3},
                             {kTraceMaxTimestamp, "z", "", ~Count{0}}};
        std::ostringstream out;
        TraceWriter writer(out);
        writer.write(batch);
        QCOMPARE(readBack(out.str()), batch);
    }

    void separatorsAndEdgeBlanksInKeysBecomeUnderscores() {
        std::ostringstream out;
        TraceWriter writer(out);
        writer.write({1, "a,b\nc", " v\r", 1});
        const auto events = readBack(out.str());
        QCOMPARE(events.size(), std::size_t{1});
        QCOMPARE(events[0].key, std::string("a_b_c"));
        QCOMPARE(events[0].visitor, std::string("_v_"));
    }

    void eventsThatWouldNotReadBackAreRejected() {
        std::ostringstream out;
        TraceWriter writer(out, TraceColumns{.key = false, .visitor = false, .count = false});
        const auto header = out.str();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, writer.write({-1, "", "", 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 writer.write({kTraceMaxTimestamp + 1, "", "", 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, writer.write({1, "", "", 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, writer.write({1, "", "", 2}));
        QCOMPARE(out.str(), header);
        writer.write({1, "dropped key", "", 1});
        QCOMPARE(out.str(), header + "1\n");
    }

    void writesAFileItOwns() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path path = dir.filePath("trace.csv").toStdString();
        {
            TraceWriter writer(path);
            writer.write({3, "k", "v", 4});
            writer.flush();
            QVERIFY(writer.good());
        }
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        QCOMPARE(readBack(text.str()), (std::vector<HitEvent>{{3, "k", "v", 4}}));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 TraceWriter(dir.filePath("no/such/dir.csv").toStdString()));
    }

    void aFailedStreamIsReportedNotThrown() {
        std::ostringstream out;
        TraceWriter writer(out);
        out.setstate(std::ios::badbit);
        writer.write({1, "k", "v", 1});
        QVERIFY(!writer.good());
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestTraceWriter)
#include "tst_trace_writer.moc"
