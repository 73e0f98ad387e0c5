// TrafficModel: deterministic events per second, exact hit totals, aggregation at high
// rates, Zipf keys, visitors, jitter (late hits) and live rate changes.
#include <QTest>

#include <algorithm>
#include <map>
#include <set>

#include "core/sim/traffic_model.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
Count hitsIn(const HitBatch& batch) {
    Count n = 0;
    for (const HitEvent& e : batch) {
        n += e.count;
    }
    return n;
}
}  // namespace

class TrafficModelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sameSeedGivesTheSameEvents_data() {
        QTest::addColumn<QString>("pattern");
        for (std::string_view name : trafficPatternNames()) {
            QTest::newRow(std::string(name).c_str())
                << QString::fromLatin1(name.data(), name.size());
        }
    }
    void sameSeedGivesTheSameEvents() {
        QFETCH(QString, pattern);
        const TrafficOptions options{.pattern = *trafficPatternFromName(pattern.toStdString()),
                                     .rate = 300,
                                     .seed = 12345,
                                     .jitter = 3s};
        const TrafficModel a(options);
        const TrafficModel b(options);
        TrafficOptions other = options;
        other.seed = 54321;
        const TrafficModel c(other);
        bool anyDifference = false;
        for (Timestamp t = 1000; t < 1100; ++t) {
            QCOMPARE(a.eventsAt(t), b.eventsAt(t));
            anyDifference = anyDifference || a.eventsAt(t) != c.eventsAt(t);
        }
        QVERIFY(anyDifference);
    }

    void steadyDeliversExactlyTheRateEverySecond() {
        const TrafficModel model({.pattern = TrafficPattern::Steady, .rate = 250});
        for (Timestamp t = 0; t < 50; ++t) {
            QCOMPARE(hitsIn(model.eventsAt(t)), Count{250});
        }
    }

    void steadyMeetsAFractionalRateOnAverage() {
        const TrafficModel model({.pattern = TrafficPattern::Steady, .rate = 2.5});
        Count total = 0;
        for (Timestamp t = 0; t < 1000; ++t) {
            const Count n = hitsIn(model.eventsAt(t));
            QVERIFY(n == 2 || n == 3);
            total += n;
        }
        QVERIFY2(total > 2420 && total < 2580, qPrintable(QString::number(total)));
    }

    void poissonCountsHaveMeanAndVarianceNearTheRate() {
        const TrafficModel model({.pattern = TrafficPattern::Poisson, .rate = 50, .seed = 4});
        double sum = 0;
        double squares = 0;
        constexpr int kSeconds = 4000;
        for (Timestamp t = 0; t < kSeconds; ++t) {
            const double n = static_cast<double>(hitsIn(model.eventsAt(t)));
            sum += n;
            squares += n * n;
        }
        const double mean = sum / kSeconds;
        const double variance = squares / kSeconds - mean * mean;
        QVERIFY2(std::abs(mean - 50) < 0.5, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(variance - 50) < 10, qPrintable(QString::number(variance)));
    }

    void highRatesAreAggregatedWithExactTotals() {
        const TrafficModel model({.pattern = TrafficPattern::Steady,
                                  .rate = TrafficModel::kMaxRate,
                                  .keys = 1000,
                                  .visitors = 100000,
                                  .maxEventsPerSecond = 1024});
        for (Timestamp t = 0; t < 5; ++t) {
            const HitBatch events = model.eventsAt(t);
            QVERIFY(events.size() <= 1024);
            QVERIFY(events.size() > 500);
            QCOMPARE(hitsIn(events), Count{10'000'000});
        }
    }

    void duplicateHitsMergeIntoOneEvent() {
        const TrafficModel model(
            {.pattern = TrafficPattern::Steady, .rate = 3, .keys = 1, .visitors = 1});
        QCOMPARE(model.eventsAt(10), (HitBatch{HitEvent{10, "/page/1", "v1", 3}}));
    }

    void eventsAreDistinctAndSortedByTimeKeyVisitor() {
        const TrafficModel model({.pattern = TrafficPattern::Poisson,
                                  .rate = 500,
                                  .keys = 5,
                                  .visitors = 20,
                                  .jitter = 4s});
        const HitBatch events = model.eventsAt(100);
        for (std::size_t i = 1; i < events.size(); ++i) {
            QVERIFY(events[i - 1].time <= events[i].time);
            QVERIFY(!(events[i - 1].time == events[i].time && events[i - 1].key == events[i].key &&
                      events[i - 1].visitor == events[i].visitor));
        }
    }

    void keysFollowZipfPopularity() {
        const TrafficModel model({.pattern = TrafficPattern::Steady,
                                  .rate = 20000,
                                  .keys = 10,
                                  .visitors = 100000,
                                  .maxEventsPerSecond = 1'000'000});
        std::map<std::string, Count> perKey;
        Count total = 0;
        for (Timestamp t = 0; t < 10; ++t) {
            for (const HitEvent& e : model.eventsAt(t)) {
                perKey[e.key] += e.count;
                total += e.count;
            }
        }
        QCOMPARE(perKey.size(), std::size_t{10});
        double harmonic = 0;
        for (int i = 1; i <= 10; ++i) {
            harmonic += 1.0 / i;
        }
        for (int rank = 1; rank <= 10; ++rank) {
            const double share =
                static_cast<double>(perKey["/page/" + std::to_string(rank)]) / total;
            QVERIFY2(std::abs(share - 1.0 / rank / harmonic) < 0.01,
                     qPrintable(QString("rank %1 share %2").arg(rank).arg(share)));
        }
    }

    void visitorsStayWithinTheirRange() {
        const TrafficModel model({.pattern = TrafficPattern::Poisson, .rate = 2000, .visitors = 7});
        std::set<std::string> visitors;
        for (const HitEvent& e : model.eventsAt(1)) {
            visitors.insert(e.visitor);
        }
        QCOMPARE(visitors.size(), std::size_t{7});
        QVERIFY(visitors.count("v1") == 1 && visitors.count("v7") == 1);
    }

    void jitterMakesSomeHitsLateWithinTheBound() {
        const TrafficModel model({.pattern = TrafficPattern::Steady,
                                  .rate = 10000,
                                  .keys = 3,
                                  .jitter = 5s,
                                  .jitterFraction = 0.2,
                                  .maxEventsPerSecond = 1'000'000});
        Count late = 0;
        Count total = 0;
        for (Timestamp t = 100; t < 110; ++t) {
            for (const HitEvent& e : model.eventsAt(t)) {
                QVERIFY(e.time <= t && e.time >= t - 5);
                total += e.count;
                late += e.time < t ? e.count : 0;
            }
        }
        QCOMPARE(total, Count{100000});
        const double share = static_cast<double>(late) / total;
        QVERIFY2(std::abs(share - 0.2) < 0.01, qPrintable(QString::number(share)));
    }

    void lateHitsNeverGoBeforeSecondZero() {
        const TrafficModel model({.rate = 1000, .jitter = 10s, .jitterFraction = 1.0});
        for (Timestamp t = 0; t < 5; ++t) {
            for (const HitEvent& e : model.eventsAt(t)) {
                QVERIFY(e.time >= 0);
            }
        }
    }

    void withoutJitterEveryHitIsOnTime() {
        const TrafficModel model({.pattern = TrafficPattern::Burst, .rate = 1000});
        for (Timestamp t = 0; t < 60; ++t) {
            for (const HitEvent& e : model.eventsAt(t)) {
                QCOMPARE(e.time, t);
            }
        }
    }

    void viralKeyDominatesAtItsPeak() {
        const TrafficModel model(
            {.pattern = TrafficPattern::Viral, .rate = 1000, .keys = 100, .seed = 5});
        Timestamp peak = 0;
        for (Timestamp t = 0; t < 600; ++t) {
            if (model.expectedHitsAt(t) > model.expectedHitsAt(peak)) {
                peak = t;
            }
        }
        QVERIFY(model.expectedHitsAt(peak) > 5000);
        std::map<std::string, Count> perKey;
        for (const HitEvent& e : model.eventsAt(peak)) {
            perKey[e.key] += e.count;
        }
        const auto top = std::max_element(perKey.begin(), perKey.end(),
                                          [](auto& a, auto& b) { return a.second < b.second; });
        QVERIFY(top->second > 4000);
        QVERIFY(std::stoi(top->first.substr(6)) > 50);  // from the less popular half
    }

    void rateChangesTakeEffectAtOnce() {
        TrafficModel model({.pattern = TrafficPattern::Steady, .rate = 10});
        QCOMPARE(hitsIn(model.eventsAt(1)), Count{10});
        model.setRate(1'000'000);
        QCOMPARE(hitsIn(model.eventsAt(2)), Count{1'000'000});
        model.setPattern(TrafficPattern::Poisson);
        QCOMPARE(model.options().pattern, TrafficPattern::Poisson);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.setRate(2e7));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model.setRate(-1));
    }

    void zeroRateIsSilence() {
        const TrafficModel model({.pattern = TrafficPattern::Poisson, .rate = 0});
        QVERIFY(model.eventsAt(5).empty());
    }

    void invalidOptionsAreRejected() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TrafficModel({.keys = 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TrafficModel({.keys = 2'000'000}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TrafficModel({.visitors = 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TrafficModel({.rate = std::nan("")}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TrafficModel({.jitterFraction = 1.5}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, TrafficModel({.maxEventsPerSecond = 0}));
    }

    void aRateOutOfRangeIsReportedAsWritten() {
        try {
            TrafficModel({.rate = 1e9});
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            const std::string message = e.what();
            QVERIFY2(message.ends_with("got 1000000000"), e.what());
        }
        try {
            TrafficModel({.rate = 12345678.5});
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).ends_with("got 12345678.5"), e.what());
        }
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TrafficModelTest)
#include "tst_traffic_model.moc"
