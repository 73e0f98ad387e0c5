// Batch coalescing: runs of one second become one hit(t, n), and an engine fed through it
// answers exactly as policies and a keyed monitor fed event by event.
#include <QTest>

#include <limits>
#include <random>

#include "core/counters/counter_factory.h"
#include "core/engine/batch_coalescing.h"
#include "core/engine/engine.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

// Bursts of one second with mixed keys and visitors, some seconds repeated after others,
// late hits inside and outside the window, counts above 1.
HitBatch mixedStream(unsigned seed) {
    std::mt19937_64 rng(seed);
    HitBatch batch;
    Timestamp t = 1000;
    for (int burst = 0; burst < 400; ++burst) {
        const auto roll = rng() % 10;
        Timestamp second = t;
        if (roll == 0) {
            second = t - static_cast<Timestamp>(rng() % 400);  // late, maybe out of window
        } else if (roll < 4) {
            t += static_cast<Timestamp>(rng() % 3);
            second = t;
        }
        const auto length = 1 + rng() % 6;
        for (std::uint64_t i = 0; i < length; ++i) {
            batch.push_back(HitEvent{second, "k" + std::to_string(rng() % 4),
                                     rng() % 3 == 0 ? "" : "v" + std::to_string(rng() % 5),
                                     1 + rng() % 3});
        }
    }
    return batch;
}

}  // namespace

class TestBatchCoalescing : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void consecutiveHitsOfOneSecondBecomeOneRun() {
        const HitBatch batch{{5, "a", "u1", 1},
                             {5, "b", "", 2},
                             {5, "a", "u2", 1},
                             {6, "a", "u1", 1},
                             {5, "c", "u3", 1}};
        std::vector<SecondHits> runs{{99, 99}};  // replaced, not appended to
        coalesceBySecond(batch, runs);
        const std::vector<SecondHits> expected{{5, 4}, {6, 1}, {5, 1}};
        QCOMPARE(runs, expected);
        coalesceBySecond({}, runs);
        QVERIFY(runs.empty());
    }

    void runCountsSaturate() {
        const Count max = std::numeric_limits<Count>::max();
        const HitBatch batch{{7, "", "", max - 1}, {7, "", "", 5}, {7, "", "", 1}};
        std::vector<SecondHits> runs;
        coalesceBySecond(batch, runs);
        QCOMPARE(runs.size(), std::size_t{1});
        QCOMPARE(runs[0].count, max);
    }

    void engineAnswersAsEventByEventFeeding() {
        for (unsigned seed : {1u, 2u, 3u}) {
            const HitBatch batch = mixedStream(seed);
            Engine engine;
            engine.ingest(batch);
            const EngineSnapshot s = engine.snapshot();

            KeyedMonitor monitor;
            std::vector<std::unique_ptr<WindowCounter>> policies;
            for (const PolicyState& p : s.policies) {
                policies.push_back(makeCounter(p.name, CounterOptions{}));
            }
            Timestamp head = batch.front().time;
            for (const HitEvent& e : batch) {
                monitor.record(e);
                for (auto& counter : policies) {
                    counter->hit(e.time, e.count);
                }
                head = std::max(head, e.time);
            }
            QCOMPARE(s.head, head);
            for (std::size_t p = 0; p < policies.size(); ++p) {
                QCOMPARE(s.policies[p].count, policies[p]->count(head));
            }
            QCOMPARE(s.droppedLate, policies[0]->droppedLate());
            QVERIFY(s.droppedLate > 0);
            for (const std::string key : {"k0", "k1", "k2", "k3"}) {
                const KeyStats got = engine.keyed().stats(key, head);
                const KeyStats expected = monitor.stats(key, head);
                QCOMPARE(got.window, expected.window);
                QCOMPARE(got.allTime, expected.allTime);
                QCOMPARE(got.uniques, expected.uniques);
                QCOMPARE(got.allTimeUniques, expected.allTimeUniques);
                QVERIFY(got.uniques > 0);
            }
            QCOMPARE(engine.keyed().overall(head).uniques, monitor.overall(head).uniques);
        }
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestBatchCoalescing)
#include "tst_batch_coalescing.moc"
