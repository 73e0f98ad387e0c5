// Measures in the keyed counts (KeyedCounter::hit(event) / measure(), KeyedMonitor::measures,
// overallMeasures, recordMeasures): bytes per key and for all keys against brute force, times
// within the sketch's bound, timers that are not hits, window changes, eviction and copies.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/keyed/keyed_monitor.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

HitEvent measured(Timestamp t, std::string key, float seconds, std::uint64_t bytes,
                  Count count = 1) {
    HitEvent e{t, std::move(key), "", count};
    e.seconds = seconds;
    e.bytes = bytes;
    return e;
}

MonitorOptions windowOnly(std::chrono::seconds window) {
    MonitorOptions options;
    options.window = window;
    options.levels = {window};
    return options;
}

// The nearest-rank quantile (quantile_sketch.h) in integers.
double exactQuantile(std::vector<float> times, std::uint64_t percent) {
    std::sort(times.begin(), times.end());
    return times[std::max<std::uint64_t>(1, (percent * times.size() + 99) / 100) - 1];
}

bool withinBound(double answer, double exact) {
    return std::abs(answer - exact) <= (QuantileSketch::kRelativeAccuracy + 1e-12) * exact;
}

}  // namespace

class KeyedMeasuresTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // A keyed stream with late hits, hits without a key, some without bytes or times: each
    // key's and all keys' bytes (exact) and times (within the bound, max exact) at many query
    // times against a count over the hits of the window.
    void perKeyAndOverallAgreeWithBruteForce() {
        constexpr std::int64_t kWindow = 60;
        KeyedMonitor m(windowOnly(std::chrono::seconds{kWindow}));
        std::mt19937_64 random(17);
        std::lognormal_distribution<double> latency(std::log(0.05), 1.0);
        std::vector<HitEvent> recorded;
        Timestamp head = 0;
        for (Timestamp now = 1000; now < 1600; ++now) {
            for (int i = 0; i < 6; ++i) {
                const Timestamp t = random() % 4 == 0 ? now - Timestamp(random() % 5) : now;
                std::string key = random() % 10 == 0 ? "" : "k" + std::to_string(random() % 7);
                HitEvent e = measured(t, std::move(key), float(latency(random)), random() % 5000);
                if (random() % 9 == 0) {
                    e.bytes = HitEvent::kNoBytes;
                }
                if (random() % 8 == 0) {
                    e.seconds = HitEvent::kNoSeconds;
                }
                m.record(e);
                recorded.push_back(e);
                head = std::max(head, t);
            }
            if (now % 97 != 0) {
                continue;
            }
            for (const std::string key : {"", "k0", "k3", "k6"}) {
                Count bytes = 0;
                Count bytesHits = 0;
                std::vector<float> times;
                for (const HitEvent& e : recorded) {
                    if ((!key.empty() && e.key != key) || e.time <= head - kWindow) {
                        continue;
                    }
                    if (e.hasBytes()) {
                        bytes += e.bytes;
                        ++bytesHits;
                    }
                    if (e.hasSeconds()) {
                        times.push_back(e.seconds);
                    }
                }
                const MeasuresSummary s =
                    key.empty() ? m.overallMeasures(head) : m.measures(key, head);
                QCOMPARE(s.bytes, bytes);
                QCOMPARE(s.bytesHits, bytesHits);
                QCOMPARE(s.timedHits, Count{times.size()});
                QCOMPARE(s.max, double(*std::max_element(times.begin(), times.end())));
                QVERIFY(withinBound(s.p50, exactQuantile(times, 50)));
                QVERIFY(withinBound(s.p90, exactQuantile(times, 90)));
                QVERIFY(withinBound(s.p99, exactQuantile(times, 99)));
            }
        }
        QCOMPARE(m.measures("nobody", head), MeasuresSummary{});
    }

    // A statsd timer is not a hit: no count anywhere, but its key's and all keys' times.
    void timingsFeedOnlyTheMeasures() {
        KeyedMonitor m;
        m.record(HitEvent{100, "api", "", 3});
        m.recordMeasures(std::vector<HitEvent>{measured(100, "api", 0.25f, HitEvent::kNoBytes, 10),
                                               measured(100, "db", 0.5f, HitEvent::kNoBytes)});
        QCOMPARE(m.stats("api", 100).window, Count{3});
        QCOMPARE(m.stats("db", 100).window, Count{0});
        QCOMPARE(m.stats("db", 100).allTime, Count{0});
        QCOMPARE(m.overall(100).window, Count{3});
        QCOMPARE(m.top(5, 100), (std::vector<KeyCount>{{"api", 3}}));
        QCOMPARE(m.measures("api", 100).timedHits, Count{10});  // @0.1: ten timings
        QVERIFY(withinBound(m.measures("api", 100).p99, 0.25));
        QCOMPARE(m.measures("db", 100).timedHits, Count{1});
        QCOMPARE(m.overallMeasures(100).timedHits, Count{11});
        QCOMPARE(m.overallMeasures(100).max, 0.5);
        QVERIFY(!m.overallMeasures(100).hasBytes());
        QCOMPARE(m.overallMeasures(400).timedHits, Count{0});
    }

    // Events older than every view are dropped, hits or not.
    void timingsTooLateForEveryViewAreDropped() {
        KeyedMonitor m(windowOnly(60s));
        m.record(HitEvent{1000, "a", "", 1});
        m.recordMeasures(std::vector<HitEvent>{measured(900, "a", 1.0f, 5)});
        QCOMPARE(m.measures("a", 1000), MeasuresSummary{});
        QCOMPARE(m.overallMeasures(1000), MeasuresSummary{});
    }

    // A shorter window answers as a monitor built with it (the measures keep W seconds).
    void shorterWindowAnswersAsIfBuiltWithIt() {
        KeyedMonitor changed(windowOnly(300s));
        MonitorOptions shorter;
        shorter.window = 60s;
        shorter.levels = {300s};
        KeyedMonitor built(shorter);
        std::mt19937_64 random(3);
        for (Timestamp t = 0; t < 400; ++t) {
            const HitEvent e = measured(t, "k" + std::to_string(random() % 3),
                                        float(random() % 1000) / 1000.0f, random() % 100);
            changed.record(e);
            built.record(e);
        }
        changed.setWindow(60s);
        QCOMPARE(changed.overallMeasures(399), built.overallMeasures(399));
        for (const std::string key : {"k0", "k1", "k2"}) {
            QCOMPARE(changed.measures(key, 399), built.measures(key, 399));
        }
    }

    void evictedKeysLoseTheirMeasuresAndTheirMemory() {
        KeyedCounter keys(KeyedOptions{60s, 60s, 120s, {}, 0});
        for (int i = 0; i < 200; ++i) {
            keys.hit(measured(10, "k", float(i) / 100.0f, 100));
        }
        QCOMPARE(keys.measures("k", 10).bytes, Count{20'000});
        const std::size_t held = keys.memoryBytes("k");
        QVERIFY(held > 100 * sizeof(QuantileSketch::Bucket));
        // Idle in the window: nothing left to answer and (almost) nothing held.
        QCOMPARE(keys.measures("k", 100), MeasuresSummary{});
        QVERIFY(keys.memoryBytes("k") < held / 4);
        keys.advance(131);
        QCOMPARE(keys.liveKeys(), std::size_t{0});
        QCOMPARE(keys.measures("k", 131), MeasuresSummary{});
    }

    // A measure keeps its key alive as a hit does, without counting one.
    void aMeasuredKeyIsKeptLikeAHitKey() {
        KeyedCounter keys(KeyedOptions{60s, 60s, 120s, {}, 0});
        keys.measure(measured(10, "timer", 0.1f, HitEvent::kNoBytes));
        keys.measure(HitEvent{10, "nothing", "", 1});  // no measure: no key
        QCOMPARE(keys.liveKeys(), std::size_t{1});
        keys.measure(measured(100, "timer", 0.2f, HitEvent::kNoBytes));
        keys.advance(200);  // idle since 100 only
        QCOMPARE(keys.liveKeys(), std::size_t{1});
        QCOMPARE(keys.allTime("timer"), Count{0});
        QCOMPARE(keys.count("timer", 200), Count{0});
    }

    void aCopyHoldsTheSameMeasuresAndGoesItsOwnWay() {
        KeyedMonitor m(windowOnly(60s));
        m.record(measured(10, "a", 0.1f, 10));
        KeyedMonitor copy = m;
        copy.record(measured(11, "a", 0.9f, 5));
        QCOMPARE(m.measures("a", 11).bytes, Count{10});
        QCOMPARE(copy.measures("a", 11).bytes, Count{15});
        QCOMPARE(copy.overallMeasures(11).max, double(0.9f));
        QCOMPARE(m.overallMeasures(11).max, double(0.1f));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(KeyedMeasuresTest)
#include "tst_keyed_measures.moc"
