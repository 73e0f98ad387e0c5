// Traffic pattern shapes: burst spikes, the diurnal wave, the viral key.
#include <QTest>

#include <numeric>
#include <set>

#include "core/sim/traffic_pattern.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

class TrafficPatternTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void namesRoundTrip() {
        QCOMPARE(trafficPatternNames().size(), std::size_t{5});
        for (std::string_view name : trafficPatternNames()) {
            const auto pattern = trafficPatternFromName(name);
            QVERIFY(pattern.has_value());
            QCOMPARE(trafficPatternName(*pattern), name);
        }
        QVERIFY(!trafficPatternFromName("sawtooth").has_value());
    }

    void steadyAndPoissonAreFlat() {
        for (auto pattern : {TrafficPattern::Steady, TrafficPattern::Poisson}) {
            for (Timestamp t = 0; t < 100; ++t) {
                const RateShape s = rateShape(pattern, 40, 1, 0s, 10, t);
                QCOMPARE(s.base, 40.0);
                QCOMPARE(s.viralExtra, 0.0);
            }
        }
    }

    void burstSpikesOnceAPeriodForTwoToFiveSeconds() {
        constexpr double kRate = 100;
        for (std::int64_t period = 0; period < 20; ++period) {
            int spikeSeconds = 0;
            Timestamp first = -1;
            Timestamp last = -1;
            for (Timestamp t = period * 60; t < (period + 1) * 60; ++t) {
                const double base = rateShape(TrafficPattern::Burst, kRate, 3, 0s, 10, t).base;
                if (base > kRate) {
                    QVERIFY(base >= 5 * kRate && base <= 10 * kRate);
                    ++spikeSeconds;
                    first = first < 0 ? t : first;
                    last = t;
                } else {
                    QCOMPARE(base, kRate);
                }
            }
            QVERIFY2(spikeSeconds >= 2 && spikeSeconds <= 5,
                     qPrintable(QString::number(spikeSeconds)));
            QCOMPARE(last - first + 1, Timestamp{spikeSeconds});  // one contiguous spike
        }
    }

    void diurnalRisesAndFallsOverADayAroundTheRate() {
        constexpr double kRate = 1000;
        const auto at = [](Timestamp t) {
            return rateShape(TrafficPattern::Diurnal, kRate, 1, 0s, 10, t).base;
        };
        QVERIFY(std::abs(at(0) - 0.2 * kRate) < 1e-6);      // midnight: lowest
        QVERIFY(std::abs(at(43200) - 1.8 * kRate) < 1e-6);  // noon: highest
        QVERIFY(at(21600) > at(10800));                     // rising in the morning
        QVERIFY(at(75600) < at(64800));                     // falling in the evening
        double sum = 0;
        for (Timestamp t = 0; t < 86400; ++t) {
            sum += at(t);
        }
        QVERIFY(std::abs(sum / 86400 - kRate) < 1.0);
    }

    void viralSpikesOneKeyFromTheLessPopularHalf() {
        constexpr double kRate = 100;
        constexpr std::uint32_t kKeys = 50;
        double peak = 0;
        std::set<std::uint32_t> viralKeys;
        for (Timestamp t = 0; t < 600; ++t) {
            const RateShape s = rateShape(TrafficPattern::Viral, kRate, 9, 0s, kKeys, t);
            QCOMPARE(s.base, kRate);
            QVERIFY(s.viralKey >= kKeys / 2 && s.viralKey < kKeys);
            viralKeys.insert(s.viralKey);
            peak = std::max(peak, s.viralExtra);
        }
        QCOMPARE(viralKeys.size(), std::size_t{1});  // one key per period
        QVERIFY(peak > 4 * kRate && peak <= 5 * kRate);
    }

    void shapesAreDeterministicForASeed() {
        for (std::string_view name : trafficPatternNames()) {
            const auto pattern = *trafficPatternFromName(name);
            for (Timestamp t = -100; t < 1000; t += 7) {
                const RateShape a = rateShape(pattern, 10, 77, 0s, 20, t);
                const RateShape b = rateShape(pattern, 10, 77, 0s, 20, t);
                QCOMPARE(a.base, b.base);
                QCOMPARE(a.viralExtra, b.viralExtra);
                QCOMPARE(a.viralKey, b.viralKey);
            }
        }
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TrafficPatternTest)
#include "tst_traffic_pattern.moc"
