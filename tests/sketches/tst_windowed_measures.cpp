// WindowedMeasures (core/sketches/windowed_measures.h): the window's bytes and maximum against
// an independent count of the events it holds, its quantiles within the sketch's bound of the
// exact ones, exact expiry (equal to a fresh one fed only what is left), late seconds, queries
// into the past, retention changes, saturation and memory.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/sketches/windowed_measures.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

HitEvent measured(Timestamp t, float seconds, std::uint64_t bytes, Count count = 1) {
    HitEvent e{t, "k", "", count};
    e.seconds = seconds;
    e.bytes = bytes;
    return e;
}

// The nearest-rank quantile (QuantileSketch's): the time of 1-based rank max(1, ceil(q n)),
// q = percent / 100, in integers.
double exactQuantile(std::vector<float> times, std::uint64_t percent) {
    std::sort(times.begin(), times.end());
    const std::uint64_t rank = std::max<std::uint64_t>(1, (percent * times.size() + 99) / 100);
    return times[rank - 1];
}

bool withinBound(double answer, double exact) {
    return std::abs(answer - exact) <= (QuantileSketch::kRelativeAccuracy + 1e-12) * exact;
}

// A stream of measured events: mostly in time order, one in five up to 8 s late, some without
// bytes or without a time.
std::vector<HitEvent> stream(std::uint64_t seed, int n) {
    std::mt19937_64 random(seed);
    std::lognormal_distribution<double> time(std::log(0.08), 1.2);
    std::uniform_int_distribution<std::uint64_t> size(0, 200'000);
    std::uniform_int_distribution<int> lateBy(1, 8);
    std::vector<HitEvent> events;
    Timestamp now = 1000;
    for (int i = 0; i < n; ++i) {
        now += static_cast<Timestamp>(random() % 3 == 0);
        const Timestamp t = random() % 5 == 0 ? now - lateBy(random) : now;
        HitEvent e = measured(t, static_cast<float>(time(random)), size(random));
        if (random() % 11 == 0) {
            e.bytes = HitEvent::kNoBytes;
        } else if (random() % 13 == 0) {
            e.seconds = HitEvent::kNoSeconds;
        }
        events.push_back(e);
    }
    return events;
}

}  // namespace

class WindowedMeasuresTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void windowEdgesAreExact() {
        WindowedMeasures m(300s);
        m.add(measured(10, 0.2f, 512));
        m.add(measured(11, 0.4f, 100));
        const MeasuresSummary both = m.window(11);
        QCOMPARE(both.bytes, Count{612});
        QCOMPARE(both.bytesHits, Count{2});
        QCOMPARE(both.timedHits, Count{2});
        QVERIFY(withinBound(both.p50, 0.2));
        QVERIFY(withinBound(both.p99, 0.4));
        QCOMPARE(both.max, double(0.4f));
        QCOMPARE(m.window(309), both);
        const MeasuresSummary last = m.window(310);
        QCOMPARE(last.bytes, Count{100});
        QCOMPARE(last.timedHits, Count{1});
        QCOMPARE(last.max, double(0.4f));
        QCOMPARE(m.window(311), MeasuresSummary{});
        QVERIFY(m.empty());
    }

    void eventsWithoutMeasuresChangeNothing() {
        WindowedMeasures m(300s);
        QVERIFY(m.add(HitEvent{10, "k", "", 1}));
        QVERIFY(m.empty());
        QCOMPARE(m.window(10), MeasuresSummary{});
        QVERIFY(!m.window(10).hasBytes());
        QVERIFY(!m.window(10).hasTimes());
    }

    void bytesAndTimesAreSeparate() {
        WindowedMeasures m(300s);
        m.add(measured(10, HitEvent::kNoSeconds, 0));  // "-" bytes: 0, but bytes were named
        m.add(measured(10, 1.5f, HitEvent::kNoBytes, 3));
        const MeasuresSummary s = m.window(10);
        QCOMPARE(s.bytes, Count{0});
        QCOMPARE(s.bytesHits, Count{1});
        QVERIFY(s.hasBytes());
        QCOMPARE(s.timedHits, Count{3});  // weighted by the event's count
        QCOMPARE(s.max, 1.5);
    }

    // At many query times of a long stream with late events: bytes, hit counts and max equal an
    // independent count over the events the window holds, and every quantile is within the
    // bound of the exact one.
    void windowAgreesWithAnIndependentCount() {
        const std::vector<HitEvent> events = stream(5, 40'000);
        constexpr std::int64_t kWindow = 60;
        WindowedMeasures m(std::chrono::seconds{kWindow});
        std::vector<HitEvent> kept;  // what the window may hold: not dropped as too late
        Timestamp head = 0;
        int queries = 0;
        for (std::size_t i = 0; i < events.size(); ++i) {
            const HitEvent& e = events[i];
            head = std::max(head, e.time);
            const bool late = e.time <= head - kWindow;
            QCOMPARE(m.add(e), !late);
            if (!late) {
                kept.push_back(e);
            }
            if (i % 997 != 0) {
                continue;
            }
            const Timestamp now = head + static_cast<Timestamp>(i % 3);  // at or after the head
            Count bytes = 0;
            Count bytesHits = 0;
            std::vector<float> times;
            for (const HitEvent& k : kept) {
                if (k.time <= now - kWindow || k.time > now) {
                    continue;
                }
                if (k.hasBytes()) {
                    bytes += k.bytes;
                    bytesHits += k.count;
                }
                if (k.hasSeconds()) {
                    times.push_back(k.seconds);
                }
            }
            const MeasuresSummary s = m.window(now);
            QCOMPARE(s.bytes, bytes);
            QCOMPARE(s.bytesHits, bytesHits);
            QCOMPARE(s.timedHits, Count{times.size()});
            if (times.empty()) {
                continue;
            }
            QCOMPARE(s.max, double(*std::max_element(times.begin(), times.end())));
            QVERIFY(withinBound(s.p50, exactQuantile(times, 50)));
            QVERIFY(withinBound(s.p90, exactQuantile(times, 90)));
            QVERIFY(withinBound(s.p99, exactQuantile(times, 99)));
            head = now;
            ++queries;
        }
        QVERIFY(queries > 30);
    }

    // Expiry subtracts exactly: after any stretch of the stream, the window equals a fresh one
    // fed only the events still inside it.
    void expiryLeavesWhatAFreshWindowOfTheSameEventsHolds() {
        const std::vector<HitEvent> events = stream(9, 20'000);
        WindowedMeasures m(30s);
        Timestamp head = 0;
        for (std::size_t i = 0; i < events.size(); ++i) {
            m.add(events[i]);
            head = std::max(head, events[i].time);
            if (i % 1999 != 0) {
                continue;
            }
            WindowedMeasures fresh(30s);
            for (std::size_t j = 0; j <= i; ++j) {
                if (events[j].time > head - 30) {
                    fresh.add(events[j]);
                }
            }
            QCOMPARE(m.window(head), fresh.window(head));
        }
    }

    void lateSecondInsideRetentionIsCountedAndOlderIsRefused() {
        WindowedMeasures m(10s);
        QVERIFY(m.add(measured(100, 0.1f, 10)));
        QVERIFY(m.add(measured(95, 0.3f, 20)));
        QVERIFY(!m.add(measured(90, 9.0f, 40)));
        const MeasuresSummary s = m.window(100);
        QCOMPARE(s.bytes, Count{30});
        QCOMPARE(s.max, double(0.3f));
    }

    void queryIntoThePastSeesTheRetainedSecondsUpToIt() {
        WindowedMeasures m(10s);
        m.add(measured(100, 0.1f, 10));
        m.add(measured(103, 0.5f, 20));
        m.add(measured(106, 2.0f, 40));
        const MeasuresSummary past = m.window(104);
        QCOMPARE(past.bytes, Count{30});
        QCOMPARE(past.timedHits, Count{2});
        QCOMPARE(past.max, double(0.5f));
        QCOMPARE(m.window(106).bytes, Count{70});  // the past query moved nothing
    }

    void shorterRetentionAnswersAsIfBuiltWithIt() {
        const std::vector<HitEvent> events = stream(3, 5'000);
        WindowedMeasures changed(120s);
        WindowedMeasures built(40s);
        for (const HitEvent& e : events) {
            changed.add(e);
        }
        changed.setRetention(40s);
        for (const HitEvent& e : events) {
            built.add(e);
        }
        const Timestamp head =
            std::max_element(events.begin(), events.end(),
                             [](const HitEvent& a, const HitEvent& b) { return a.time < b.time; })
                ->time;
        QCOMPARE(changed.window(head), built.window(head));
        QCOMPARE(changed.retention(), 40s);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, changed.setRetention(0s));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, WindowedMeasures(0s));
    }

    void bytesSaturateAndComeBackExactWhenTheSecondLeaves() {
        WindowedMeasures m(10s);
        const std::uint64_t huge = HitEvent::kNoBytes - 1;
        m.add(measured(1, 0.1f, huge));
        m.add(measured(2, 0.1f, huge));
        m.add(measured(2, 0.1f, huge));  // the second itself saturates
        m.add(measured(3, 0.1f, 5));
        QCOMPARE(m.window(3).bytes, kMaxCount);
        QCOMPARE(m.window(11).bytes, kMaxCount);
        QCOMPARE(m.window(12).bytes, Count{5});  // both huge seconds taken back exactly
        QCOMPARE(m.window(12).bytesHits, Count{1});
        QCOMPARE(m.window(13).bytes, Count{0});
    }

    void memoryFollowsTheRetainedSeconds() {
        WindowedMeasures m(60s);
        const std::size_t empty = m.memoryBytes();
        std::mt19937_64 random(4);
        std::lognormal_distribution<double> time(std::log(0.08), 1.5);
        for (Timestamp t = 1; t <= 120; ++t) {
            for (int i = 0; i < 500; ++i) {
                m.add(measured(t, static_cast<float>(time(random)), 100));
            }
        }
        const std::size_t full = m.memoryBytes();
        QVERIFY(full > empty + 60 * 100 * sizeof(QuantileSketch::Bucket));
        // Bound: each retained second and the sum hold at most kMaxBuckets buckets.
        constexpr std::size_t kMostPerSketch =
            QuantileSketch::kMaxBuckets * sizeof(QuantileSketch::Bucket) + 64;
        QVERIFY(full <= empty + 61 * kMostPerSketch + 128 * 64);
        m.advance(1'000'000);
        QVERIFY(m.empty());
        QVERIFY2(m.memoryBytes() < full / 20,
                 qPrintable(QStringLiteral("%1 of %2").arg(m.memoryBytes()).arg(full)));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(WindowedMeasuresTest)
#include "tst_windowed_measures.moc"
