// From lines to batches and stats (core/net/line_ingest.h).
#include <QTest>

#include <limits>
#include <map>
#include <string>
#include <thread>

#include "core/net/line_ingest.h"
#include "tests/test_main.h"

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

    // A batch is reserved as large as the last one (a flood fills it without reallocating);
    // one line after a flood is queued at its size, not at the flood's (the queue's byte bound
    // counts capacity, BatchQueue::batchBytes()).
    void aTrickleAfterAFloodIsQueuedAtItsSize() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        for (int i = 0; i < 3000; ++i) {
            ingest.addLine("k" + std::to_string(i) + ":1|c");
        }
        ingest.flush();
        ingest.addLine("probe:1|c");
        ingest.flush();
        QCOMPARE(queue.popFor(0ms)->size(), std::size_t{3000});
        const auto trickle = queue.popFor(0ms);
        QVERIFY(trickle);
        QCOMPARE(trickle->size(), std::size_t{1});
        QVERIFY2(trickle->capacity() <= 2, qPrintable(QString::number(trickle->capacity())));
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

    // Issue 30, items 3 and 5: with an accepted window, a line's own time outside it is a bad
    // line naming the allowance, and its hits go nowhere; a line without a time is "now".
    void ownTimesOutsideTheAcceptedWindowAreBadLines() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        ingest.acceptTimes({3600, 300});
        ingest.setNow(1'000'000);
        QCOMPARE(std::string(ingest.addLine("x:1|c|T4611686018427387903")),
                 std::string("time more than 300 s after now"));
        QCOMPARE(std::string(ingest.addLine("x:1|c|T1000301")),
                 std::string("time more than 300 s after now"));
        QCOMPARE(std::string(ingest.addLine("x:1|c|T996399")),
                 std::string("time more than 3600 s before now"));
        QVERIFY(ingest.addLine("x:2|c|T1000300").empty());  // the edges are accepted
        QVERIFY(ingest.addLine("x:3|c|T996400").empty());
        QVERIFY(ingest.addLine("x:4|c").empty());
        ingest.flush();
        QCOMPARE(ingest.stats().badLines, 3u);
        QCOMPARE(ingest.stats().hits, 9u);
        const auto batch = queue.popFor(0ms);
        QVERIFY(batch);
        Count hits = 0;
        for (const HitEvent& e : *batch) {
            QVERIFY(e.time >= 996400 && e.time <= 1000300);
            hits += e.count;
        }
        QCOMPARE(hits, Count(9));
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

    // The same lines with and without coalescing: one event per key and second where lines
    // come in time order, the same hits per key and second, the same stats (late hits too: a
    // line older than its batch's newest time is its own event).
    void coalescedLinesCountExactlyWhatSeparateEventsCount() {
        const std::vector<std::string> lines{
            "a:1|c",        "b:2|c", "a:3|c", "a:1|c|T90",   // T90: late, its own event
            "b:1|c|T110",   "a:1|c", "b:1|c", "a:2|c|T110",  // newest now 110
            "b:2|c|T110",   "a:x|c", "g:1|g", "big:18446744073709551615|c|T110",
            "big:5|c|T110", "a:1|c"};
        BatchQueue plainQueue, coalescedQueue;
        LineIngest plain(WireProtocol::Statsd, plainQueue);
        LineIngest coalesced(WireProtocol::Statsd, coalescedQueue);
        coalesced.coalesceKeys();
        for (LineIngest* ingest : {&plain, &coalesced}) {
            ingest->setNow(100);
            for (const std::string& line : lines) {
                ingest->addLine(line);
            }
            ingest->flush();
        }
        const auto bySecondAndKey = [](BatchQueue& queue, std::size_t& events) {
            std::map<std::pair<Timestamp, std::string>, Count> sums;
            events = 0;
            while (auto batch = queue.popFor(0ms)) {
                for (const HitEvent& e : *batch) {
                    Count& sum = sums[{e.time, e.key}];
                    sum = saturatingAdd(sum, e.count);
                    ++events;
                }
            }
            return sums;
        };
        std::size_t plainEvents = 0, coalescedEvents = 0;
        const auto expected = bySecondAndKey(plainQueue, plainEvents);
        QCOMPARE(bySecondAndKey(coalescedQueue, coalescedEvents), expected);
        QCOMPARE(plainEvents, std::size_t{12});
        // a@100 (2 lines), b@100, a@90, b@110 (2), a@100 and b@100 after 110 (late), a@110,
        // big@110 (2), a@100 (late).
        QCOMPARE(coalescedEvents, std::size_t{9});
        QCOMPARE((expected.at({100, "a"})), Count{6});
        QCOMPARE((expected.at({110, "big"})), std::numeric_limits<Count>::max());
        const SourceStats p = plain.stats(), c = coalesced.stats();
        QCOMPARE(c.lines, p.lines);
        QCOMPARE(c.hits, p.hits);
        QCOMPARE(c.lateHits, p.lateHits);
        QCOMPARE(c.lateHits, 4u);  // the line at T90 and the three at 100 after T110
        QCOMPARE(c.badLines, p.badLines);
        QCOMPARE(c.ignoredLines, p.ignoredLines);
    }

    // A timer keeps its own time even when coalescing: its event is never merged, and a
    // counter of the same key and second is not merged into it.
    void timersAreNeverCoalesced() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        ingest.coalesceKeys();
        ingest.setNow(100);
        for (const char* line : {"api:120|ms", "api:80|ms|@0.5", "api:1|c", "api:2|c"})
            ingest.addLine(line);
        ingest.flush();
        std::vector<std::pair<Count, float>> events;
        while (auto batch = queue.popFor(0ms))
            for (const HitEvent& e : *batch)
                events.push_back({e.count, e.seconds});
        const std::vector<std::pair<Count, float>> expected{
            {1, 0.12f}, {2, 0.08f}, {1, HitEvent::kNoSeconds}};
        // The two timers stay apart; the counters merge into the first counter event (3 hits).
        QCOMPARE(events.size(), std::size_t{3});
        QCOMPARE(events[0], expected[0]);
        QCOMPARE(events[1], expected[1]);
        QCOMPARE(events[2].first, Count{3});
        QVERIFY(events[2].second < 0);
    }

    // With series filters, coalescing merges only lines whose masks are equal: the series'
    // counts stay exact.
    void coalescingKeepsSeriesMasksApart() {
        auto series = std::make_shared<SeriesFilters>();
        series->add(std::get<RecordFilter>(RecordFilter::parse("tag=env:prod")));
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        ingest.coalesceKeys();
        ingest.setSeries(series);
        ingest.setNow(100);
        for (const char* line :
             {"home:1|c|#env:prod", "home:2|c|#env:dev", "home:4|c|#env:prod", "home:8|c"})
            ingest.addLine(line);
        ingest.flush();
        std::map<SeriesMask, Count> hitsByMask;
        std::size_t events = 0;
        while (auto batch = queue.popFor(0ms))
            for (const HitEvent& e : *batch) {
                hitsByMask[e.series] += e.count;
                ++events;
            }
        QCOMPARE(hitsByMask[1], Count{5});  // env:prod: 1 + 4
        QCOMPARE(hitsByMask[0], Count{10});
        QVERIFY(events < 4);  // equal masks still merge
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
        ingest.noteProblem("a", "first");
        ingest.noteProblem("b", "second");
        QCOMPARE(ingest.lastProblem(), std::string("second"));
    }

    void laterProblemNeverHidesAnEarlierKind() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        ingest.noteProblem("unknown type", "x1");
        ingest.noteProblem("connection refused", "r1");
        ingest.noteProblem("unknown type", "x2");
        ingest.noteProblem("connection refused", "r2");
        ingest.noteProblem("connection refused", "r3");
        const auto problems = ingest.problems();
        QCOMPARE(problems.size(), std::size_t{2});
        QCOMPARE(problems[0].kind, std::string("unknown type"));
        QCOMPARE(problems[0].count, 2u);
        QCOMPARE(problems[0].last, std::string("x2"));
        QCOMPARE(problems[1].kind, std::string("connection refused"));
        QCOMPARE(problems[1].count, 3u);
        QCOMPARE(problems[1].last, std::string("r3"));
    }

    void problemKindsAreBounded() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        const std::size_t kinds = LineIngest::kMaxProblemKinds + 10;
        for (std::size_t i = 0; i < kinds; ++i) {
            ingest.noteProblem("kind " + std::to_string(i), "m" + std::to_string(i));
        }
        const auto problems = ingest.problems();
        QCOMPARE(problems.size(), LineIngest::kMaxProblemKinds);
        QCOMPARE(problems.front().kind, std::string("kind 0"));
        QCOMPARE(problems.back().kind, std::string("other problems"));
        QCOMPARE(problems.back().count, std::uint64_t(kinds - LineIngest::kMaxProblemKinds + 1));
        QCOMPARE(problems.back().last, "m" + std::to_string(kinds - 1));
    }

    void keyLongerThanTheCapIsABadLineOfItsOwn() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue, 4096, 8);
        QVERIFY(ingest.addLine("12345678:1|c").empty());
        QCOMPARE(std::string(ingest.addLine("123456789:1|c")),
                 std::string("key longer than 8 bytes"));
        ingest.flush();
        QCOMPARE(ingest.stats().lines, 2u);
        QCOMPARE(ingest.stats().badLines, 1u);
        QCOMPARE(ingest.stats().hits, 1u);
    }

    void batchIsPushedWhenItsBytesReachTheCap() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue, 1'000'000, 64 * 1024);
        const std::string line = std::string(60 * 1024, 'k') + ":1|c";
        const std::size_t perBatch = kMaxBatchBytes / (60 * 1024) + 1;
        for (std::size_t i = 0; i < perBatch; ++i) {
            ingest.addLine(line);
        }
        const auto batch = queue.popFor(0ms);
        QVERIFY(batch);
        QCOMPARE(batch->size(), perBatch);
    }

    void sumsSaturateInsteadOfWrapping() {
        BatchQueue queue;
        LineIngest ingest(WireProtocol::Statsd, queue);
        ingest.setNow(100);
        ingest.addLine("big:18446744073709551615|c");
        ingest.addLine("big:18446744073709551615|c");  // same batch
        ingest.flush();
        ingest.addLine("big:2|c|T0");  // another batch, and late
        ingest.flush();
        QCOMPARE(ingest.stats().hits, std::numeric_limits<std::uint64_t>::max());
        QCOMPARE(ingest.stats().lateHits, 2u);
        ingest.addLine("big:18446744073709551615|c|T0");
        ingest.flush();
        QCOMPARE(ingest.stats().lateHits, std::numeric_limits<std::uint64_t>::max());
    }

    void waitingForRoomLosesNothing() {
        BatchQueue queue(1);
        std::stop_source stop;
        LineIngest ingest(WireProtocol::Statsd, queue, 1);
        ingest.waitWhenFull(stop.get_token());
        std::uint64_t popped = 0;
        std::jthread consumer([&] {
            for (int i = 0; i < 100; ++i) {
                while (!queue.popFor(5s)) {
                }
                ++popped;
            }
        });
        for (int i = 0; i < 100; ++i) {
            ingest.addLine("a:1|c");  // each line is a batch; the queue holds one
        }
        ingest.flush();
        consumer.join();
        QCOMPARE(popped, 100u);
        QCOMPARE(ingest.stats().hits, 100u);
        QCOMPARE(ingest.stats().dropped, 0u);
    }

    void afterStopAFullQueueIsWaitedForOnlyBriefly() {
        BatchQueue queue(1);
        std::stop_source stop;
        LineIngest ingest(WireProtocol::Statsd, queue, 1);
        ingest.waitWhenFull(stop.get_token());
        ingest.addLine("a:1|c");
        stop.request_stop();
        const auto before = std::chrono::steady_clock::now();
        ingest.addLine("a:2|c");
        ingest.addLine("a:3|c");
        ingest.flush();
        const auto waited = std::chrono::steady_clock::now() - before;
        QVERIFY(waited >= kStopGrace - 100ms);
        QVERIFY(waited < kStopGrace + 2s);
        QCOMPARE(ingest.stats().hits, 1u);
        QCOMPARE(ingest.stats().dropped, 5u);
    }

    void quotedLineEscapesBinaryAndIsCut() {
        QCOMPARE(quoteLine(std::string_view("a\0\xff\"b", 5)), std::string("\"a\\x00\\xff\\\"b\""));
        QCOMPARE(quoteLine("abcdef", 3), std::string("\"abc\"..."));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(LineIngestTest)
#include "tst_line_ingest.moc"
