// ReplaySource: loading with progress, playback paced by the clock, seek with the window
// rebuilt exactly, loop, as fast as possible, bad input, cancel.
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <map>
#include <optional>

#include "core/counters/counter_factory.h"
#include "core/io/trace_writer.h"
#include "core/sim/traffic_model.h"
#include "core/sources/replay_source.h"
#include "core/time/manual_clock.h"
#include "tests/sources/batch_collector.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
bool loaded(const ReplaySource& replay) {
    const ReplayState s = replay.progress().state;
    return s != ReplayState::Idle && s != ReplayState::Loading;
}

// What a window counter says at each query time when the whole trace streams through it in
// file order, each query answered before the first row whose head passes it.
std::map<Timestamp, Count> streamedCounts(const HitBatch& rows, std::vector<Timestamp> queries) {
    std::sort(queries.begin(), queries.end());
    auto counter = makeCounter("sorted");
    std::map<Timestamp, Count> answers;
    auto next = queries.begin();
    Timestamp head = std::numeric_limits<Timestamp>::min();
    for (const HitEvent& e : rows) {
        head = std::max(head, e.time);
        for (; next != queries.end() && *next < head; ++next) {
            answers[*next] = counter->count(*next);
        }
        counter->hit(e.time, e.count);
    }
    for (; next != queries.end(); ++next) {
        answers[*next] = counter->count(*next);
    }
    return answers;
}
// Hits an uninterrupted replay has delivered by `t`: the rows before the first one whose
// running maximum time passes t.
Count streamedTotal(const HitBatch& rows, Timestamp t) {
    Count total = 0;
    Timestamp head = std::numeric_limits<Timestamp>::min();
    for (const HitEvent& e : rows) {
        head = std::max(head, e.time);
        if (head > t) {
            break;
        }
        total += e.count;
    }
    return total;
}
// A replay of one file played as fast as possible to its end, and the hits it delivered.
struct PlayedToEnd {
    ManualClock base{0s};
    BatchQueue queue;
    std::optional<ReplaySource> replay;
    Count hits = 0;
};

// Plays `path` in `played` until the replay stops (QVERIFY fails if it does not).
void playToEnd(PlayedToEnd& played, const std::filesystem::path& path) {
    test::BatchCollector collector(played.queue);
    played.replay.emplace(
        played.base, path,
        ReplayOptions{.speed = VirtualClock::kAsFastAsPossible, .holdAtEnd = false});
    played.replay->start(played.queue);
    QVERIFY(collector.collectUntil([&] { return !played.replay->running(); }));
    collector.drainNow();
    played.hits = collector.hits();
}
}  // namespace

class ReplaySourceTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::filesystem::path writeFile(const QString& name, const std::string& text) {
        const std::filesystem::path path = m_dir.filePath(name).toStdString();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }

    // A jittered trace (late rows) with comment lines in the middle; returns its rows.
    HitBatch writeSimulatedTrace(const std::filesystem::path& path, Timestamp from, Timestamp to) {
        const TrafficModel model({.pattern = TrafficPattern::Poisson,
                                  .rate = 20,
                                  .keys = 5,
                                  .seed = 99,
                                  .jitter = 30s,
                                  .jitterFraction = 0.3});
        HitBatch rows;
        TraceWriter writer(path);
        for (Timestamp t = from; t < to; ++t) {
            if (t % 500 == 0) {
                writer.writeComment("second " + std::to_string(t));
            }
            for (HitEvent& e : model.eventsAt(t)) {
                writer.write(e);
                rows.push_back(std::move(e));
            }
        }
        writer.flush();
        return rows;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void missingFileIsASourceErrorNamingIt() {
        ManualClock base(0s);
        BatchQueue queue;
        ReplaySource replay(base, "/nonexistent/trace.csv");
        try {
            replay.start(queue);
            QFAIL("start() did not throw");
        } catch (const SourceError& e) {
            QVERIFY(QString(e.what()).contains("/nonexistent/trace.csv"));
        }
        QVERIFY(!replay.running());
    }

    void loadingReportsRowsBytesAndTimeRange() {
        const auto path = writeFile("small.csv", "timestamp,key\n# c\n105,a\n100,b\n107,c\n");
        ManualClock base(0s);
        BatchQueue queue;
        ReplaySource replay(base, path, {.startPaused = true});
        replay.start(queue);
        QVERIFY(test::waitUntil([&] { return loaded(replay); }));
        const ReplayProgress p = replay.progress();
        QCOMPARE(p.state, ReplayState::Playing);
        QCOMPARE(p.rows, std::uint64_t{3});
        QCOMPARE(p.badRows, std::uint64_t{0});
        QCOMPARE(p.bytesRead, std::uint64_t{std::filesystem::file_size(path)});
        QCOMPARE(p.bytesTotal, p.bytesRead);
        QCOMPARE(p.first, std::optional<Timestamp>(100));
        QCOMPARE(p.last, std::optional<Timestamp>(107));
        QCOMPARE(replay.stats().packets, std::uint64_t{3});
    }

    void rowsGoOutWhenTheClockReachesThem() {
        const auto path = writeFile("paced.csv", "timestamp,count\n100,1\n100,2\n101,4\n105,8\n");
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        ReplaySource replay(base, path);
        replay.start(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 3; }));
        QCOMPARE(replay.now(), Timestamp{100});
        base.advance(1s);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 7; }));
        base.advance(3s);  // 104: the row at 105 is not due
        QVERIFY(test::waitUntil([&] { return replay.now() == 104; }));
        collector.drainNow();
        QCOMPARE(collector.hits(), Count{7});
        base.advance(1s);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 15; }));
        QVERIFY(test::waitUntil([&] { return replay.progress().state == ReplayState::Ended; }));
        QVERIFY(replay.running());  // holds at the end for seeks
        QCOMPARE(replay.stats().hits, std::uint64_t{15});
    }

    void speedAndPauseControlThePace() {
        const auto path = writeFile("speed.csv", "timestamp\n0\n10\n20\n30\n");
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        ReplaySource replay(base, path, {.speed = 10.0});
        replay.start(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 1; }));
        base.advance(1s);  // 10 s of trace
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 2; }));
        replay.pause();
        QVERIFY(replay.paused());
        base.advance(1h);
        QCOMPARE(replay.now(), Timestamp{10});
        replay.play();
        replay.setSpeed(20.0);
        QCOMPARE(replay.speed(), 20.0);
        base.advance(1s);  // 20 s more: 30
        QVERIFY(collector.collectUntil([&] { return collector.hits() == 4; }));
    }

    void seekRebuildsTheWindowExactly() {
        const auto path = m_dir.filePath("seek.csv").toStdString();
        const HitBatch rows = writeSimulatedTrace(path, 1000, 4000);
        const std::vector<Timestamp> queries = {999,  1000, 1001, 1299, 1300, 2345, 2500,
                                                1500, 3999, 4000, 4029, 5000, 1750};
        const auto expected = streamedCounts(rows, queries);

        ManualClock base(0s);
        BatchQueue queue(4);  // small: the rebuild must wait for room, never drop
        test::BatchCollector collector(queue);
        ReplaySource replay(base, path, {.startPaused = true});
        replay.start(queue);
        QVERIFY(test::waitUntil([&] { return loaded(replay); }));
        QCOMPARE(replay.progress().rows, std::uint64_t{rows.size()});
        std::uint64_t seeks = 0;
        for (Timestamp t : queries) {  // in this order: forwards and backwards
            replay.seek(t);
            ++seeks;
            collector.clear();
            QVERIFY(
                collector.collectUntil([&] { return replay.progress().seeksApplied == seeks; }));
            collector.drainNow();
            auto counter = makeCounter("ring");
            for (const HitEvent& e : collector.events()) {
                counter->hit(e.time, e.count);
            }
            QVERIFY2(counter->count(t) == expected.at(t),
                     qPrintable(QString("at %1: rebuilt %2, streamed %3")
                                    .arg(t)
                                    .arg(counter->count(t))
                                    .arg(expected.at(t))));
            QCOMPARE(collector.hits(), streamedTotal(rows, t));  // all-time too
            QCOMPARE(replay.now(), t);
        }
        QVERIFY(expected.at(2345) > 0);
        QCOMPARE(replay.stats().dropped, std::uint64_t{0});
    }

    void seekThenPlayContinuesFromThere() {
        const auto path = writeFile("continue.csv", "timestamp\n10\n20\n30\n40\n");
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        ReplaySource replay(base, path, {.startPaused = true});
        replay.start(queue);
        QVERIFY(test::waitUntil([&] { return loaded(replay); }));
        replay.seek(31);
        collector.clear();
        QVERIFY(collector.collectUntil([&] { return replay.progress().seeksApplied == 1; }));
        collector.drainNow();
        // A fast-forward: every row streamed by 31, the old ones too (all-time totals).
        QCOMPARE(collector.perSecond(), (std::map<Timestamp, Count>{{10, 1}, {20, 1}, {30, 1}}));
        replay.play();
        base.advance(9s);
        QVERIFY(collector.collectUntil([&] { return collector.perSecond().count(40) == 1; }));
    }

    // Through a gap between rows, each second the clock reaches goes out as a Clock marker
    // (after the rows due); a seek's rebuild ends with one at its target, or at the trace's
    // last second past it.
    void theClockIsMarkedThroughGapsAndAtTheEndOfASeek() {
        const auto path = writeFile("gap.csv", "timestamp,key\n10,a\n10,b\n20,c\n");
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        ReplaySource replay(base, path);
        replay.start(queue);
        QVERIFY(collector.collectUntil(
            [&] { return collector.hits() == 2 && !collector.clockMarks().empty(); }));
        QCOMPARE(collector.clockMarks(), std::vector<Timestamp>{10});
        for (Timestamp t = 11; t <= 14; ++t) {
            base.advance(1s);
            QVERIFY(collector.collectUntil([&] { return collector.clockMarks().back() == t; }));
        }
        QCOMPARE(collector.clockMarks(), (std::vector<Timestamp>{10, 11, 12, 13, 14}));
        QCOMPARE(collector.hits(), Count{2});
        replay.seek(17);
        QVERIFY(collector.collectUntil([&] { return replay.progress().seeksApplied == 1; }));
        collector.drainNow();
        QCOMPARE(collector.perSecond(), (std::map<Timestamp, Count>{{10, 2}}));
        QCOMPARE(collector.clockMarks(), std::vector<Timestamp>{17});
        replay.seek(25);
        QVERIFY(collector.collectUntil([&] { return replay.progress().seeksApplied == 2; }));
        collector.drainNow();
        QCOMPARE(collector.hits(), Count{3});
        QCOMPARE(collector.clockMarks(), std::vector<Timestamp>{20});
    }

    void seekDuringLoadingIsAppliedOnceLoaded() {
        const auto path = writeFile("early.csv", "timestamp\n1\n2\n3\n500\n501\n");
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        ReplaySource replay(base, path, {.startPaused = true});
        replay.seek(501);  // before start even
        replay.start(queue);
        QVERIFY(collector.collectUntil([&] { return replay.progress().seeksApplied == 1; }));
        collector.drainNow();
        QCOMPARE(collector.perSecond(),
                 (std::map<Timestamp, Count>{{1, 1}, {2, 1}, {3, 1}, {500, 1}, {501, 1}}));
    }

    void loopShiftsTimeForwardBySpan() {
        const auto path = writeFile("loop.csv", "timestamp\n10\n11\n12\n");
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        ReplaySource replay(base, path, {.speed = VirtualClock::kAsFastAsPossible, .loop = true});
        replay.start(queue);
        QVERIFY(collector.collectUntil([&] { return collector.hits() >= 9; }));
        replay.stop();
        for (Timestamp t = 10; t < 19; ++t) {
            QCOMPARE(collector.perSecond().at(t), Count{1});
        }
        QVERIFY(replay.progress().loops >= 2);
        QCOMPARE(replay.stats().lateHits, std::uint64_t{0});
    }

    void asFastAsPossibleDeliversEverythingAndFinishes() {
        const auto path = m_dir.filePath("afap.csv").toStdString();
        const HitBatch rows = writeSimulatedTrace(path, 100, 2100);
        Count total = 0;
        for (const HitEvent& e : rows) {
            total += e.count;
        }
        ManualClock base(0s);
        BatchQueue queue(2);
        test::BatchCollector collector(queue);
        ReplaySource replay(base, path,
                            {.speed = VirtualClock::kAsFastAsPossible, .holdAtEnd = false});
        replay.start(queue);
        QVERIFY(collector.collectUntil([&] { return !replay.running(); }));
        collector.drainNow();
        QCOMPARE(collector.hits(), total);
        QCOMPARE(collector.events(), rows);  // same rows, same order
        QCOMPARE(replay.stats().dropped, std::uint64_t{0});
        QVERIFY(replay.stats().lateHits > 0);  // the jitter's late rows
        QCOMPARE(replay.progress().state, ReplayState::Ended);
    }

    void badRowsAreCountedNamedAndSkipped() {
        PlayedToEnd played;
        playToEnd(played, writeFile("bad.csv", "timestamp,key\n1,a\nx,b\n2\n3,c\n"));
        if (QTest::currentTestFailed())
            return;
        const ReplaySource& replay = *played.replay;
        QCOMPARE(played.hits, Count{2});
        const ReplayProgress p = replay.progress();
        QCOMPARE(p.badRows, std::uint64_t{2});
        QCOMPARE(replay.stats().badLines, std::uint64_t{2});
        QVERIFY2(QString::fromStdString(p.firstBadRow).contains("bad.csv:3:"),
                 p.firstBadRow.c_str());
        // Issue 23 item 12: the bad rows by FILE:LINE and problem, for the bad lines table.
        const std::vector<BadLine> lines = replay.recentBadLines();
        QCOMPARE(lines.size(), std::size_t{2});
        QCOMPARE(lines[0].origin, std::string("bad.csv:3"));
        QCOMPARE(lines[1].origin, std::string("bad.csv:4"));
        for (const BadLine& line : lines) {
            QVERIFY(!line.problem.empty());
            QVERIFY(line.source.find("bad.csv") != std::string::npos);
        }
    }

    // The GUI's replay: one line dated 2099 is a bad row in the bad lines table, the trace
    // ends at its real last time and every other row is delivered (before: last was 2099 and
    // the replay's clock had to reach 2099 to end).
    void aLineDatedFarAheadIsABadRowNotTheEnd() {
        PlayedToEnd played;
        playToEnd(played,
                  writeFile("jump.csv", "timestamp,key\n1000,a\n1001,a\n4102444800,a\n1002,a\n"));
        if (QTest::currentTestFailed())
            return;
        const ReplaySource& replay = *played.replay;
        QCOMPARE(played.hits, Count{3});
        QCOMPARE(replay.stats().lateHits, std::uint64_t{0});
        const ReplayProgress p = replay.progress();
        QCOMPARE(p.badRows, std::uint64_t{1});
        QCOMPARE(p.first.value_or(-1), Timestamp{1000});
        QCOMPARE(p.last.value_or(-1), Timestamp{1002});
        const std::vector<BadLine> lines = replay.recentBadLines();
        QCOMPARE(lines.size(), std::size_t{1});
        QCOMPARE(lines[0].origin, std::string("jump.csv:4"));
        QVERIFY2(lines[0].problem.find("4102444800") != std::string::npos,
                 lines[0].problem.c_str());
    }

    void badHeaderFailsWithFileAndLine() {
        const auto path = writeFile("header.csv", "# trace\ntime,key\n1,a\n");
        ManualClock base(0s);
        BatchQueue queue;
        ReplaySource replay(base, path);
        replay.start(queue);
        QVERIFY(test::waitUntil([&] { return !replay.running(); }));
        const ReplayProgress p = replay.progress();
        QCOMPARE(p.state, ReplayState::Failed);
        QVERIFY2(QString::fromStdString(p.error).contains("header.csv:2:"), p.error.c_str());
    }

    void emptyTraceEndsAtOnce() {
        const auto path = writeFile("empty.csv", "");
        ManualClock base(0s);
        BatchQueue queue;
        ReplaySource replay(base, path);
        replay.start(queue);
        QVERIFY(test::waitUntil([&] { return replay.progress().state == ReplayState::Ended; }));
        QCOMPARE(replay.progress().rows, std::uint64_t{0});
    }

    void largeFileLoadsWithProgressAndCanBeCancelled() {
        const auto path = m_dir.filePath("large.csv").toStdString();
        constexpr int kRows = 1'000'000;
        {
            std::ofstream out(path, std::ios::binary);
            out << "timestamp,key,visitor\n";
            for (int i = 0; i < kRows; ++i) {
                out << 1'000'000 + i / 100 << ",/page/" << i % 7 << ",v" << i % 13 << '\n';
            }
        }
        ManualClock base(0s);
        BatchQueue queue;
        {
            ReplaySource replay(base, path, {.startPaused = true});
            replay.start(queue);
            bool sawPartial = false;
            QVERIFY(test::waitUntil([&] {
                const ReplayProgress p = replay.progress();
                sawPartial = sawPartial || (p.bytesRead > 0 && p.bytesRead < p.bytesTotal);
                return p.state != ReplayState::Loading;
            }));
            QVERIFY(sawPartial);
            QCOMPARE(replay.progress().rows, std::uint64_t{kRows});
        }
        ReplaySource replay(base, path);
        replay.start(queue);
        const auto before = std::chrono::steady_clock::now();
        replay.stop();
        QVERIFY(std::chrono::steady_clock::now() - before < 2s);
        QCOMPARE(replay.progress().state, ReplayState::Stopped);
        QVERIFY(replay.progress().rows < std::uint64_t{kRows});
        QVERIFY(!replay.running());
    }

    // Issue 23 item 3: check() says what start() would refuse, without starting anything.
    void checkRefusesWhatStartRefuses() {
        ManualClock base(0s);
        ReplaySource missing(base, "/nonexistent/trace.csv");
        QVERIFY_THROWS_EXCEPTION(SourceError, missing.check());
        const auto garbage = writeFile("garbage.bin", std::string("\x01\x02\xff no trace\n", 14));
        ReplaySource bad(base, garbage);
        QVERIFY_THROWS_EXCEPTION(SourceError, bad.check());
        const auto good = writeFile("good.csv", "timestamp,key\n1,a\n");
        ReplaySource fine(base, good);
        fine.check();
        QVERIFY(!fine.running());
    }

    // Issue 23 item 4: paused is what describe() says while paused, with the speed in use.
    void describeSaysPausedWhilePaused() {
        const auto path = writeFile("paused.csv", "timestamp,key\n1,a\n2,a\n3,a\n");
        ManualClock base(0s);
        BatchQueue queue;
        test::BatchCollector collector(queue);
        ReplaySource replay(base, path);
        replay.start(queue);
        QVERIFY(collector.collectUntil(
            [&] { return replay.progress().state == ReplayState::Playing; }));
        QVERIFY(QString::fromStdString(replay.describe()).contains(", playing,"));
        replay.pause();
        replay.setSpeed(10);
        const QString text = QString::fromStdString(replay.describe());
        QVERIFY2(text.contains(", paused,") && !text.contains("playing") && text.contains("10x"),
                 qPrintable(text));
        replay.play();
        QVERIFY(QString::fromStdString(replay.describe()).contains(", playing,"));
        replay.stop();
    }

    void describeNamesTheFile() {
        ManualClock base(0s);
        ReplaySource replay(base, "x/trace.csv", {.loop = true});
        const QString text = QString::fromStdString(replay.describe());
        QVERIFY2(text.contains("x/trace.csv") && text.contains("loop"), qPrintable(text));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(ReplaySourceTest)
#include "tst_replay_source.moc"
