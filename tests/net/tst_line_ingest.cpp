// From lines to batches and stats (core/net/line_ingest.h).
#include <QTest>

#include "core/net/line_ingest.h"

using namespace hitcounter;
using namespace std::chrono_literals;

class LineIngestTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eachVerdictIsCountedInItsPlace() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        ingest.setNow(1000);
        ingest.addPackets(2);
        QVERIFY(ingest.addLine("home:2|c").empty());
        QVERIFY(ingest.addLine("load:1|g").empty());
        QVERIFY(ingest.addLine("").empty());
        QCOMPARE(std::string(ingest.addLine("home:1|zz")), std::string("unknown type"));
        QVERIFY(ingest.addLine("zero:0|c").empty());
        ingest.flush();
        const SourceStats s = ingest.stats();
        QCOMPARE(s.packets, 2u);
        QCOMPARE(s.lines, 4u);
        QCOMPARE(s.hits, 2u);
        QCOMPARE(s.ignoredLines, 1u);
        QCOMPARE(s.badLines, 1u);
        QCOMPARE(s.dropped, 0u);
        const auto batch = queue.popFor(0ms);
        QVERIFY(batch);
        QCOMPARE(batch->size(), std::size_t{1});
        QCOMPARE(batch->front(), (HitEvent{1000, "home", "", 2}));
    }

    void statsAppearOnlyAfterFlush() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        ingest.addLine("home:1|c");
        QCOMPARE(ingest.stats().lines, 0u);
        QVERIFY(!queue.popFor(0ms));
        ingest.flush();
        QCOMPARE(ingest.stats().lines, 1u);
        QCOMPARE(ingest.stats().hits, 1u);
    }

    void hitWithoutTimeGetsNowAndOwnTimeIsKept() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Graphite, queue);
        ingest.setNow(500);
        ingest.addLine("a 1 -1");
        ingest.addLine("b 1 600");
        ingest.flush();
        const auto batch = queue.popFor(0ms);
        QVERIFY(batch && batch->size() == 2);
        QCOMPARE((*batch)[0].time, Timestamp{500});
        QCOMPARE((*batch)[1].time, Timestamp{600});
    }

    void olderThanNewestIsLateButDelivered() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        ingest.addLine("a:1|c|T100");
        ingest.addLine("a:3|c|T90");
        ingest.addLine("a:1|c|T100");
        ingest.flush();
        QCOMPARE(ingest.stats().lateHits, 3u);
        QCOMPARE(ingest.stats().hits, 5u);
    }

    void fullBatchIsPushedAtOnce() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue, 3);
        for (int i = 0; i < 7; ++i) {
            ingest.addLine("a:1|c");
        }
        std::size_t batches = 0;
        while (auto b = queue.popFor(0ms)) {
            QCOMPARE(b->size(), std::size_t{3});
            ++batches;
        }
        QCOMPARE(batches, std::size_t{2});
        ingest.flush();
        QCOMPARE(queue.popFor(0ms)->size(), std::size_t{1});
    }

    void fullQueueCountsHitsAsDropped() {
        BatchQueue queue(1);
        LineIngest ingest(WireProtocol::Statsd, queue);
        ingest.addLine("a:5|c");
        ingest.flush();
        ingest.addLine("a:7|c");
        ingest.addDropped(2);
        ingest.flush();
        QCOMPARE(ingest.stats().hits, 5u);
        QCOMPARE(ingest.stats().dropped, 9u);
    }

    void lastProblemIsKept() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        QVERIFY(ingest.lastProblem().empty());
        ingest.noteProblem("first");
        ingest.noteProblem("second");
        QCOMPARE(ingest.lastProblem(), std::string("second"));
    }

    void quotedLineEscapesBinaryAndIsCut() {
        QCOMPARE(quoteLine(std::string_view("a\0\xff\"b", 5)), std::string("\"a\\x00\\xff\\\"b\""));
        QCOMPARE(quoteLine("abcdef", 3), std::string("\"abc\"..."));
    }
};

QTEST_APPLESS_MAIN(LineIngestTest)
#include "tst_line_ingest.moc"
