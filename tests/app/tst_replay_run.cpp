// ReplayRun: queries answered in streaming order, the default query at the newest timestamp,
// per-policy summaries, their cost in thread CPU time, and the same counts as the GUI's Engine
// (both drive core/engine/lockstep.h).
#include <QTest>

#include "app/cli/replay_run.h"
#include "core/counters/counter_factory.h"
#include "core/engine/engine.h"
#include "tests/core/slow_counter.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::cli;
using namespace std::chrono_literals;

namespace {
std::vector<std::unique_ptr<WindowCounter>> counters(std::vector<std::string_view> names,
                                                     std::chrono::seconds window = 300s) {
    std::vector<std::unique_ptr<WindowCounter>> made;
    for (const auto name : names)
        made.push_back(makeCounter(name, {.window = window}));
    return made;
}

HitEvent at(Timestamp time, Count count = 1) {
    return {time, "", "", count};
}

// A trace over [from, from + seconds): 0-7 events a second of 1-3 hits, one in eight late but
// inside a 60 s window, one in eight older than it, a quiet stretch; deterministic.
std::vector<HitEvent> lateAndQuietTrace(Timestamp from, Timestamp seconds) {
    std::vector<HitEvent> events;
    std::uint64_t x = 2024;
    for (Timestamp t = from; t < from + seconds; ++t) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        if (t >= from + 150 && t < from + 170)
            continue;
        for (int i = 0; i < static_cast<int>(x >> 61); ++i) {
            const Timestamp when = i == 3 ? t - 20 : i == 5 ? t - 90 : t;
            events.push_back(at(when, 1 + (x >> (40 + i)) % 3));
        }
    }
    return events;
}
}  // namespace

class TestReplayRun : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void answersTheProblemExampleAtEachQuery() {
        ReplayRun run(counters({"ring", "sorted"}), {301, 4, 300});
        for (const Timestamp t : {1, 2, 3, 300})
            run.add(at(t));
        run.finish();
        const auto& answers = run.answers();
        QCOMPARE(answers.size(), std::size_t{3});
        QCOMPARE(answers[0].time, Timestamp{4});
        QCOMPARE(answers[0].counts, (std::vector<Count>{3, 3}));
        QCOMPARE(answers[1].time, Timestamp{300});
        QCOMPARE(answers[1].counts, (std::vector<Count>{4, 4}));
        QCOMPARE(answers[2].time, Timestamp{301});
        QCOMPARE(answers[2].counts, (std::vector<Count>{3, 3}));
    }

    void aQueryIsAnsweredBeforeTheFirstLaterHitAndMissesLateHitsAfterIt() {
        ReplayRun run(counters({"deque"}), {12, 25});
        run.add(at(10));
        run.add(at(20));  // the query at 12 is answered here: only the hit at 10
        run.add(at(15));  // late, after the query at 12 was answered
        run.finish();     // the query at 25 sees all three
        QCOMPARE(run.answers()[0].counts.front(), Count{1});
        QCOMPARE(run.answers()[1].counts.front(), Count{3});
    }

    void withoutQueriesItAnswersAtTheNewestTimestamp() {
        ReplayRun run(counters({"naive"}, 10s), {});
        run.add(at(5, 2));
        run.add(at(20, 3));
        run.add(at(12));  // late but inside the window (10, 20]
        run.finish();
        QCOMPARE(run.answers().size(), std::size_t{1});
        QCOMPARE(run.answers()[0].time, Timestamp{20});
        QCOMPARE(run.answers()[0].counts.front(), Count{4});
        QCOMPARE(run.newest(), std::optional<Timestamp>{20});
    }

    void anEmptyTraceHasNoAnswers() {
        ReplayRun run(counters({"ring"}), {});
        run.finish();
        QVERIFY(run.answers().empty());
        QCOMPARE(run.summaries().size(), std::size_t{1});
        QCOMPARE(run.summaries()[0].finalCount, Count{0});
        QCOMPARE(run.hits(), std::uint64_t{0});
    }

    void summariesHoldFinalCountMemoryAndDroppedLateHits() {
        ReplayRun run(counters({"ring", "sorted", "deque"}, 10s), {1000});
        const int hits = 3 * int(ReplayRun::kBatchHits);  // several timed batches
        for (int i = 0; i < hits; ++i)
            run.add(at(100 + i / 2000));
        run.add(at(50));  // older than the window (96, 106]: dropped
        run.finish();
        QCOMPARE(run.hits(), std::uint64_t(hits + 1));
        QCOMPARE(run.answers()[0].counts, (std::vector<Count>{0, 0, 0}));
        for (std::size_t i = 0; i < 3; ++i) {
            const auto& summary = run.summaries()[i];
            QCOMPARE(summary.droppedLate, Count{1});
            QVERIFY(summary.nsPerHit > 0);
            QCOMPARE(summary.memoryBytes, run.counters()[i]->memoryBytes());
        }
        // Final count at the newest second 106, taken before the query past the end.
        for (const auto& summary : run.summaries())
            QCOMPARE(summary.finalCount, Count(hits));
    }

    // The policies' cost is thread CPU time: a policy that sleeps is not charged its sleep.
    void nsPerHitIsThreadCpuTimeNotWallTime() {
        std::vector<std::unique_ptr<WindowCounter>> sleeping;
        sleeping.push_back(std::make_unique<testing::SleepingCounter>(10ms));
        ReplayRun run(std::move(sleeping), {});
        for (const Timestamp t : {1, 2, 3, 4, 5})
            run.add(at(t));
        run.finish();
        QCOMPARE(run.answers()[0].counts.front(), Count{5});
        QVERIFY2(run.summaries()[0].nsPerHit < 1'000'000.0,
                 QByteArray::number(run.summaries()[0].nsPerHit));
    }

    // The CLI's replay and the GUI's Engine give the same counts: every second the Engine
    // closes (and its open head) is ReplayRun's answer at that second, for every policy.
    void answersEqualTheEnginesCountsEverySecond() {
        const std::vector<std::string> names = {"ring",     "deque", "sorted",  "coarse",
                                                "estimate", "naive", "scanring"};
        EngineOptions options;
        options.window = 60s;
        options.coarseBucket = 10s;
        options.policies.assign(names.begin() + 1, names.end());
        Engine engine(options);
        const std::vector<HitEvent> trace = lateAndQuietTrace(1000, 400);
        for (std::size_t i = 0; i < trace.size(); i += 7) {
            HitBatch batch;
            for (std::size_t j = i; j < std::min(i + 7, trace.size()); ++j)
                batch.push_back(trace[j]);
            engine.ingest(batch);
        }
        const std::vector<SecondRecord> records = engine.historyFrom(0);
        QVERIFY(records.size() > 390);

        std::vector<std::unique_ptr<WindowCounter>> policies;
        for (const auto& name : names)
            policies.push_back(makeCounter(name, {.window = 60s, .bucket = 10s}));
        std::vector<Timestamp> queries;
        for (const SecondRecord& record : records)
            queries.push_back(record.second);
        ReplayRun run(std::move(policies), queries);
        for (const HitEvent& event : trace)
            run.add(event);
        run.finish();

        QCOMPARE(run.answers().size(), records.size());
        for (std::size_t i = 0; i < records.size(); ++i) {
            QCOMPARE(run.answers()[i].time, records[i].second);
            QCOMPARE(run.answers()[i].counts, records[i].counts);
        }
        const EngineSnapshot snapshot = engine.snapshot();
        QVERIFY(snapshot.lateHits > 0);
        QVERIFY(snapshot.droppedLate > 0);
        QCOMPARE(run.summaries()[0].droppedLate, snapshot.droppedLate);
        for (std::size_t p = 0; p < names.size(); ++p)
            QCOMPARE(run.summaries()[p].finalCount, snapshot.policies[p].count);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestReplayRun)
#include "tst_replay_run.moc"
