// ReplayRun: queries answered in streaming order, the default query at the newest timestamp,
// and per-policy summaries.
#include <QTest>

#include "app/cli/replay_run.h"
#include "core/counters/counter_factory.h"
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
};

HITCOUNTER_TEST_APPLESS_MAIN(TestReplayRun)
#include "tst_replay_run.moc"
