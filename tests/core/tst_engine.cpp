// Engine: policies fed in lockstep, per-second history, late hits, memory cap, stream epochs, a
// snapshot without side effects.
#include <QTest>
#include <array>
#include <chrono>
#include <limits>

#include "core/concurrent/locked_counter.h"
#include "core/counters/counter_factory.h"
#include "core/engine/engine.h"
#include "tests/core/slow_counter.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

HitBatch hitsAt(std::initializer_list<Timestamp> seconds) {
    HitBatch batch;
    for (Timestamp t : seconds) {
        batch.push_back(HitEvent{t, "k", "v", 1});
    }
    return batch;
}

const PolicyState& policy(const EngineSnapshot& s, std::string_view name) {
    for (const PolicyState& p : s.policies) {
        if (p.name == name) {
            return p;
        }
    }
    static const PolicyState none;
    return none;
}

// Feeds one hit per second from `from` to `to`, each its own batch (as a live source does):
// one hit() call per policy per second.
void feedSeconds(Engine& e, Timestamp from, Timestamp to) {
    for (Timestamp t = from; t <= to; ++t) {
        e.ingest(hitsAt({t}));
    }
}

// Hits over [from, from + seconds): a few keys and visitors, some seconds without hits, one
// late hit in ten (inside the window), status classes; deterministic.
HitBatch mixedTraffic(Timestamp from, Timestamp seconds) {
    static const std::array<const char*, 4> keys = {"/a", "/b", "/c", "/d"};
    HitBatch batch;
    std::uint64_t x = 12345;
    for (Timestamp t = from; t < from + seconds; ++t) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const int hits = static_cast<int>(x >> 61);  // 0..7
        for (int i = 0; i < hits; ++i) {
            const Timestamp when = (i == 3) ? t - 20 : t;
            batch.push_back(HitEvent{when, keys[(x >> (8 + i)) % keys.size()],
                                     "v" + std::to_string((x >> (16 + i)) % 50), 1,
                                     static_cast<std::uint8_t>(1 + (x >> (24 + i)) % 5)});
        }
    }
    return batch;
}

// Every answer a view reads: snapshot, history, the keyed monitor's keys and top.
void expectSameState(Engine& a, Engine& b) {
    const EngineSnapshot sa = a.snapshot();
    const EngineSnapshot sb = b.snapshot();
    QCOMPARE(sb.head, sa.head);
    QCOMPARE(sb.windowCount, sa.windowCount);
    QCOMPARE(sb.totalHits, sa.totalHits);
    QCOMPARE(sb.lateHits, sa.lateHits);
    QCOMPARE(sb.droppedLate, sa.droppedLate);
    QCOMPARE(sb.policies.size(), sa.policies.size());
    for (std::size_t i = 0; i < sa.policies.size(); ++i) {
        QCOMPARE(sb.policies[i].name, sa.policies[i].name);
        QCOMPARE(sb.policies[i].count, sa.policies[i].count);
    }
    const auto ha = a.historyFrom(0);
    const auto hb = b.historyFrom(0);
    QCOMPARE(hb.size(), ha.size());
    for (std::size_t i = 0; i < ha.size(); ++i) {
        QCOMPARE(hb[i].second, ha[i].second);
        QCOMPARE(hb[i].hits, ha[i].hits);
        QVERIFY(hb[i].statusHits == ha[i].statusHits);
        QVERIFY(hb[i].counts == ha[i].counts);
    }
    for (const char* key : {"/a", "/b", "/c", "/d"}) {
        const KeyStats ka = a.keyed().stats(key, sa.head);
        const KeyStats kb = b.keyed().stats(key, sb.head);
        QCOMPARE(kb.window, ka.window);
        QCOMPARE(kb.allTime, ka.allTime);
        QCOMPARE(kb.uniques, ka.uniques);
        QCOMPARE(kb.allTimeUniques, ka.allTimeUniques);
    }
    const auto ta = a.keyed().top(10, sa.head);
    const auto tb = b.keyed().top(10, sb.head);
    QCOMPARE(tb.size(), ta.size());
    for (std::size_t i = 0; i < ta.size(); ++i) {
        QCOMPARE(tb[i].key, ta[i].key);
        QCOMPARE(tb[i].count, ta[i].count);
    }
}

}  // namespace

class TestEngine : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void windowCountFollowsTheLeetCodeExample() {
        Engine e;
        e.ingest(hitsAt({1, 2, 3}));
        QCOMPARE(e.snapshot().windowCount, Count{3});
        e.ingest(hitsAt({300}));
        QCOMPARE(e.snapshot().windowCount, Count{4});
        e.advanceTo(301);
        QCOMPARE(e.snapshot().windowCount, Count{3});
    }

    void everyPolicyIsFedTheSameHits() {
        Engine e;
        HitBatch batch;
        for (Timestamp t = 0; t < 900; t += 7) {
            batch.push_back(HitEvent{t, "k", "", static_cast<Count>(t % 5 + 1)});
        }
        e.ingest(batch);
        const EngineSnapshot s = e.snapshot();
        QCOMPARE(s.policies.size(), policyNames().size());
        QCOMPARE(s.policies.front().name, std::string("ring"));
        for (std::string_view name : exactPolicyNames()) {
            QCOMPARE(policy(s, name).count, s.windowCount);
            QCOMPARE(policy(s, name).error, std::int64_t{0});
        }
        // coarse over-counts by at most the hits of one bucket before the window
        QVERIFY(policy(s, "coarse").count >= s.windowCount);
    }

    void historyHoldsOneRecordPerSecondIncludingQuietOnes() {
        Engine e;
        e.ingest(hitsAt({10, 10, 13}));
        const auto& h = e.history();
        QCOMPARE(h.size(), std::size_t{4});
        QCOMPARE(h[0].second, Timestamp{10});
        QCOMPARE(h[0].hits, Count{2});
        QCOMPARE(h[1].hits, Count{0});
        QCOMPARE(h[2].counts[0], Count{2});  // second 12 closed with the two hits of 10
        QCOMPARE(h[3].second, Timestamp{13});
        QCOMPARE(h[3].hits, Count{1});
    }

    void rewindowRefillsEveryPolicyFromTheHistory() {
        Engine e;  // W = 300 s
        e.ingest(hitsAt({100, 100, 150, 200, 390}));
        QCOMPARE(e.snapshot().windowCount, Count{5});  // (90, 390]: all five
        const std::uint64_t epoch = e.epoch();
        EngineOptions shorter = e.options();
        shorter.window = std::chrono::seconds(60);
        e.rewindow(shorter);
        QVERIFY(e.epoch() != epoch);  // views rebuild
        const EngineSnapshot s = e.snapshot();
        QCOMPARE(s.windowSeconds, std::int64_t{60});
        QCOMPARE(s.head, Timestamp{390});
        QCOMPARE(s.totalHits, Count{5});    // kept
        QCOMPARE(s.windowCount, Count{1});  // (330, 390]
        for (const PolicyState& p : s.policies) {
            QVERIFY2(p.count == 1 || !p.exact, p.name.c_str());
        }
        // The history's per-second counts are those of the new window all along.
        QCOMPARE(e.history().front().second, Timestamp{100});
        QCOMPARE(e.history().size(), std::size_t{291});
        QCOMPARE(e.history()[100].counts[0], Count{2});  // second 200: (140, 200] holds 150, 200
        QCOMPARE(e.history()[150].counts[0], Count{1});  // second 250: (190, 250] holds 200
        QCOMPARE(e.history()[100].hits, Count{1});
        // A longer window sees every second of the history again.
        EngineOptions longer = e.options();
        longer.window = std::chrono::seconds(3600);
        e.rewindow(longer);
        QCOMPARE(e.snapshot().windowCount, Count{5});
        e.ingest(hitsAt({391}));
        QCOMPARE(e.snapshot().windowCount, Count{6});
    }

    // Issue 15: a new W on a live stream keeps the items: the keyed monitor is rewindowed in
    // place and answers like an engine that had the new W from the start.
    void rewindowKeepsTheKeyedCountsOfEveryKey_data() {
        QTest::addColumn<int>("from");
        QTest::addColumn<int>("to");
        QTest::newRow("shrink") << 300 << 60;
        QTest::newRow("grow") << 60 << 1800;
    }
    void rewindowKeepsTheKeyedCountsOfEveryKey() {
        QFETCH(int, from);
        QFETCH(int, to);
        EngineOptions before;
        before.window = std::chrono::seconds(from);
        EngineOptions after = before;
        after.window = std::chrono::seconds(to);
        Engine changed(before);
        Engine fresh(after);
        for (Timestamp t = 1000; t < 3000; t += 5) {
            HitBatch batch;
            for (Timestamp k = 0; k < 12; ++k) {
                // key k<n> gets (t / 5 + n) % 4 hits now and then: every key ranks differently
                if ((t / 5 + k) % 3 != 0) {
                    batch.push_back(
                        HitEvent{t, "k" + std::to_string(k), "v", Count((t / 5 + k) % 4 + k + 1)});
                }
            }
            changed.ingest(batch);
            fresh.ingest(batch);
        }
        const Timestamp head = 2995;
        QVERIFY(!changed.keyed().top(12, head).empty());
        changed.rewindow(after);
        QCOMPARE(changed.keyed().window(), std::chrono::seconds(to));
        QCOMPARE(changed.keyed().top(12, head), fresh.keyed().top(12, head));
        QCOMPARE(changed.keyed().top(12, head).size(), std::size_t{12});
        for (Timestamp k = 0; k < 12; ++k) {
            const std::string key = "k" + std::to_string(k);
            QCOMPARE(changed.keyed().keys().count(key, head),
                     fresh.keyed().keys().count(key, head));
            QCOMPARE(changed.keyed().keys().allTime(key), fresh.keyed().keys().allTime(key));
        }
        QCOMPARE(changed.keyed().overall(head).window, changed.snapshot().windowCount);
        QCOMPARE(changed.keyed().overall(head).window, fresh.keyed().overall(head).window);
        // And they go on together.
        const HitBatch next{HitEvent{3001, "k3", "w", 40}, HitEvent{3002, "new", "w", 1}};
        changed.ingest(next);
        fresh.ingest(next);
        QCOMPARE(changed.keyed().top(13, 3002), fresh.keyed().top(13, 3002));
    }

    void lateHitInsideWindowIsCountedAndReported() {
        Engine e;
        e.ingest(hitsAt({100, 50, -500}));
        const EngineSnapshot s = e.snapshot();
        QCOMPARE(s.windowCount, Count{2});
        QCOMPARE(s.lateHits, Count{1});
        QCOMPARE(s.droppedLate, Count{1});
        QCOMPARE(s.totalHits, Count{3});
    }

    void policyOverMemoryCapIsStoppedButRingIsNot() {
        EngineOptions options;
        options.policyMemoryCap = 4096;
        Engine e(options);
        HitBatch batch;
        for (int i = 0; i < 2000; ++i) {
            // one hit per second: hits of one second would reach naive as one entry
            batch.push_back(HitEvent{i, "", "", 1});
        }
        e.ingest(batch);
        const EngineSnapshot s = e.snapshot();
        QVERIFY(policy(s, "naive").stopped);
        QVERIFY(!policy(s, "ring").stopped);
        QCOMPARE(s.windowCount, Count{300});
        // the stopped policy keeps its count from when it stopped: fewer hits than in the window
        QVERIFY(policy(s, "naive").count < Count{300});
    }

    void resetMarkerForgetsEveryHitAndOtherEpochsAreDropped() {
        Engine e;
        e.ingest(hitsAt({1, 2, 3}));
        HitBatch stale = hitsAt({4});
        e.ingest(HitBatch::resetMarker(2));
        e.ingest(stale);  // epoch 0: from before the marker
        QCOMPARE(e.staleBatches(), std::uint64_t{1});
        QVERIFY(e.empty());
        HitBatch rebuild = hitsAt({1, 2});
        rebuild.epoch = 2;
        rebuild.kind = BatchKind::Rebuild;
        e.ingest(rebuild);
        QCOMPARE(e.streamEpoch(), std::uint64_t{2});
        QCOMPARE(e.snapshot().totalHits, Count{2});
        QCOMPARE(e.keyed().keys().allTime("k"), Count{2});
    }

    void snapshotHasNoSideEffectsAndHistoryFromFillsTheOpenHead() {
        Engine e;
        e.ingest(hitsAt({10, 11, 11}));
        const Timestamp dirty = e.dirtyFrom();
        const std::vector<Count> openCounts = e.history().back().counts;
        const EngineSnapshot first = e.snapshot();
        QCOMPARE(e.dirtyFrom(), dirty);
        QCOMPARE(e.history().back().counts, openCounts);  // the open record is untouched
        QCOMPARE(e.snapshot().windowCount, first.windowCount);
        const std::vector<SecondRecord> records = e.historyFrom(11);
        QCOMPARE(records.size(), std::size_t{1});
        QCOMPARE(records.front().counts[0], Count{3});
        QCOMPARE(e.historyFrom(0).size(), std::size_t{2});
    }

    void aSnapshotAfterQuietSecondsChangesNoLaterCount() {
        // Two engines given the same stream: a head moved by advanceTo() (a live source's
        // quiet seconds), then a hit older than the window. Only one takes a snapshot in
        // between; both must then show the same state, policy by policy.
        Engine looked;
        Engine untouched;
        for (Engine* e : {&looked, &untouched}) {
            e->ingest(hitsAt({100, 100, 101}));
            e->advanceTo(500);
        }
        const EngineSnapshot between = looked.snapshot();
        QCOMPARE(between.head, Timestamp{500});
        for (Engine* e : {&looked, &untouched}) {
            // 200 has just left the window (200, 500] (advanceTo closed the quiet seconds up to
            // 499 only, so a counter not brought to 500 would still take it); 450 is late.
            e->ingest(hitsAt({200, 450}));
        }
        const EngineSnapshot a = looked.snapshot();
        const EngineSnapshot b = untouched.snapshot();
        QCOMPARE(a.windowCount, Count{1});
        QCOMPARE(b.windowCount, a.windowCount);
        QCOMPARE(b.droppedLate, a.droppedLate);
        QCOMPARE(a.droppedLate, Count{1});
        QCOMPARE(b.lateHits, a.lateHits);
        QCOMPARE(b.policies.size(), a.policies.size());
        for (std::size_t p = 0; p < a.policies.size(); ++p) {
            QCOMPARE(b.policies[p].count, a.policies[p].count);
            QCOMPARE(b.policies[p].memoryBytes, a.policies[p].memoryBytes);
        }
    }

    void resetStartsANewEpochWithTheNewWindow() {
        Engine e;
        e.ingest(hitsAt({1, 2}));
        const auto epoch = e.epoch();
        EngineOptions options = e.options();
        options.window = std::chrono::seconds(10);
        e.reset(options);
        QVERIFY(e.epoch() != epoch);
        QVERIFY(e.history().empty());
        QVERIFY(e.snapshot().empty);
        e.ingest(hitsAt({1, 20}));
        const EngineSnapshot s = e.snapshot();
        QCOMPARE(s.windowSeconds, std::int64_t{10});
        QCOMPARE(s.slots.size(), std::size_t{10});
        QCOMPARE(s.windowCount, Count{1});
    }

    // A source's Clock marker (a replay in a gap) moves the head like advanceTo: forward only,
    // once a hit came, and only in the current epoch.
    void aClockMarkerSlidesTheWindowForwardOnceAHitCame() {
        Engine e;
        e.ingest(HitBatch::clockMarker(0, 50));
        QVERIFY(e.empty());
        e.ingest(hitsAt({10, 11}));
        e.ingest(HitBatch::clockMarker(0, 200));
        QCOMPARE(e.snapshot().head, Timestamp{200});
        QCOMPARE(e.snapshot().windowCount, Count{2});
        QCOMPARE(e.history().back().second, Timestamp{200});
        e.ingest(HitBatch::clockMarker(0, 150));
        QCOMPARE(e.snapshot().head, Timestamp{200});
        e.ingest(HitBatch::clockMarker(0, 310));  // (10, 310]: the hit at 10 has left
        QCOMPARE(e.snapshot().windowCount, Count{1});
        for (const PolicyState& p : e.snapshot().policies) {
            if (p.exact) {
                QVERIFY2(p.count == 1, p.name.c_str());
            }
        }
        e.ingest(HitBatch::clockMarker(7, 400));  // another epoch: stale
        QCOMPARE(e.snapshot().head, Timestamp{310});
        QCOMPARE(e.staleBatches(), std::uint64_t{1});
        QCOMPARE(e.snapshot().totalHits, Count{2});
    }

    void jumpBeyondTheHistoryRestartsIt() {
        EngineOptions options;
        options.historySeconds = 60;
        Engine e(options);
        e.ingest(hitsAt({1}));
        const auto epoch = e.epoch();
        e.ingest(hitsAt({1000}));
        QVERIFY(e.epoch() != epoch);
        QCOMPARE(e.history().size(), std::size_t{1});
        QCOMPARE(e.history().back().second, Timestamp{1000});
    }

    void dirtyFromTracksTheOldestChangedSecond() {
        Engine e;
        e.ingest(hitsAt({10, 11, 12}));
        e.markClean();
        QCOMPARE(e.dirtyFrom(), std::numeric_limits<Timestamp>::max());
        e.ingest(hitsAt({11}));
        QCOMPARE(e.dirtyFrom(), Timestamp{11});
    }

    // A policy from EngineOptions::makePolicy is fed in lockstep with the ring (what it costs
    // is measured by the CostMeter: tst_cost_meter).
    void aPolicyFromTheFactoryCountsWhatTheRingCounts() {
        EngineOptions options;
        options.policies = {"slow"};
        options.makePolicy = [](std::string_view name,
                                const CounterOptions& o) -> std::unique_ptr<WindowCounter> {
            if (name == "slow") {
                return std::make_unique<testing::SlowCounter>(std::chrono::microseconds(1));
            }
            return makeCounter(name, o);
        };
        Engine e(options);
        feedSeconds(e, 1, 1500);
        const EngineSnapshot s = e.snapshot();
        QCOMPARE(s.policies.size(), std::size_t{2});
        const PolicyState& slow = policy(s, "slow");
        const PolicyState& ring = policy(s, "ring");
        QCOMPARE(slow.count, ring.count);
        QCOMPARE(ring.count, Count{300});
    }

    // A checkpoint: the clone answers what the original answers, after the same later hits,
    // and neither sees the other's hits.
    void aCloneContinuesAsTheOriginalAndIsIndependent() {
        Engine original;
        original.ingest(mixedTraffic(1000, 700));
        const EngineSnapshot atClone = original.snapshot();
        QVERIFY(atClone.totalHits > 1000);
        const auto clone = original.clone();
        QVERIFY(clone);
        // The copy's containers hold no spare capacity.
        QVERIFY(clone->memoryBytes() > 0);
        QVERIFY(clone->memoryBytes() <= original.memoryBytes());
        expectSameState(original, *clone);

        const HitBatch later = mixedTraffic(1700, 500);
        original.ingest(later);
        QCOMPARE(clone->snapshot().totalHits, atClone.totalHits);  // not fed by the original
        clone->ingest(later);
        expectSameState(original, *clone);

        clone->ingest(mixedTraffic(2200, 10));
        QVERIFY(clone->snapshot().totalHits > original.snapshot().totalHits);
    }

    // A policy that cannot be copied (a concurrent counter) makes clone() say so.
    void aPolicyThatCannotBeCopiedMakesCloneReturnNull() {
        EngineOptions options;
        options.policies = {"uncopyable"};
        options.makePolicy = [](std::string_view,
                                const CounterOptions& o) -> std::unique_ptr<WindowCounter> {
            return std::make_unique<LockedCounter>(o.window);
        };
        Engine e(options);
        e.ingest(hitsAt({1, 2, 3}));
        QCOMPARE(e.snapshot().policies.size(), std::size_t{2});
        QVERIFY(!e.clone());
    }

    void eachSecondCountsItsHitsPerStatusClassSaturating() {
        Engine e;
        HitBatch batch;
        const auto hit = [](Timestamp t, std::uint8_t statusClass, Count n) {
            HitEvent event{t, "k", "v", n};
            event.statusClass = statusClass;
            return event;
        };
        batch.push_back(hit(5, 2, 3));
        batch.push_back(hit(5, 4, 1));
        batch.push_back(hit(5, 0, 2));  // unknown (trace CSV, statsd)
        batch.push_back(hit(6, 5, 7));
        batch.push_back(hit(5, 5, 1));  // late, into its own second
        batch.push_back(hit(6, 9, 1));  // out of range: counted with 5xx, never out of bounds
        batch.push_back(hit(7, 3, std::numeric_limits<Count>::max()));
        batch.push_back(hit(7, 3, 5));
        e.ingest(batch);
        const auto history = e.historyFrom(5);
        QCOMPARE(history.size(), std::size_t{3});
        const std::array<Count, kStatusClasses> five{2, 0, 3, 0, 1, 1};
        const std::array<Count, kStatusClasses> six{0, 0, 0, 0, 0, 8};
        QCOMPARE(history[0].statusHits, five);
        QCOMPARE(history[0].hits, Count{7});
        QCOMPARE(history[1].statusHits, six);
        QCOMPARE(history[2].statusHits[3], std::numeric_limits<Count>::max());
        QCOMPARE(history[2].hits, std::numeric_limits<Count>::max());
        e.ingest(HitBatch::resetMarker(0));
        e.ingest(HitBatch{hit(9, 2, 1)});
        QCOMPARE(e.historyFrom(0).front().statusHits[2], Count{1});
        QCOMPARE(e.historyFrom(0).front().statusHits[5], Count{0});
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestEngine)
#include "tst_engine.moc"
