// QuantileSketch (core/sketches/quantile_sketch.h): every quantile of 10^6 values from
// several distributions within the documented relative error of the exact one (the value of
// rank floor(q (n - 1)) of the sorted values), merge equal to one sketch, subtract undoing a
// merge, weights, saturation and the bucket bound.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "core/base/saturating.h"
#include "core/sketches/quantile_sketch.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

constexpr double kAlpha = QuantileSketch::kRelativeAccuracy;
// Floating-point rounding at a bucket's edge (the header's "under 10^-12").
constexpr double kRounding = 1e-12;

using Draw = std::function<double(std::mt19937_64&)>;

std::vector<double> samples(const Draw& draw, std::size_t n, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<double> values(n);
    for (double& v : values) {
        v = draw(random);
    }
    return values;
}

enum class Distribution { Uniform, LogNormal, Bimodal, Wide };

Draw drawFrom(Distribution distribution) {
    switch (distribution) {
        case Distribution::Uniform:
            return [](std::mt19937_64& r) {
                return std::uniform_real_distribution<double>(0.0, 2.0)(r);
            };
        case Distribution::LogNormal:
            return [](std::mt19937_64& r) {
                return std::lognormal_distribution<double>(std::log(0.1), 1.0)(r);
            };
        case Distribution::Bimodal:
            // Fast cached answers around 5 ms and slow ones around 2 s, one in ten.
            return [](std::mt19937_64& r) {
                const bool slow = std::bernoulli_distribution(0.1)(r);
                const double v = slow ? std::normal_distribution<double>(2.0, 0.3)(r)
                                      : std::normal_distribution<double>(0.005, 0.001)(r);
                return std::abs(v);
            };
        case Distribution::Wide:
            // Over about twelve decades, some beyond the range.
            return
                [](std::mt19937_64& r) { return std::lognormal_distribution<double>(0.0, 5.0)(r); };
    }
    return {};
}

// The nearest-rank quantile the header names, q = parts / whole, in integers: the value of
// 1-based rank max(1, ceil(q n)) of the sorted values.
double exactQuantile(const std::vector<double>& sorted, std::uint64_t parts, std::uint64_t whole) {
    const std::uint64_t rank =
        std::max<std::uint64_t>(1, (parts * sorted.size() + whole - 1) / whole);
    return sorted[rank - 1];
}

bool withinBound(double answer, double exact) {
    if (exact < QuantileSketch::kMinValue) {
        return answer == 0.0;
    }
    return std::abs(answer - exact) <= (kAlpha + kRounding) * exact;
}

}  // namespace

class QuantileSketchTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bucketBoundsAreTheMappingsEnds() {
        QCOMPARE(QuantileSketch::indexOf(QuantileSketch::kMinValue), QuantileSketch::kLowestIndex);
        QCOMPARE(QuantileSketch::indexOf(QuantileSketch::kMaxValue), QuantileSketch::kHighestIndex);
        // Just inside the ends the mapping still gives them, so no value is cut off early.
        QCOMPARE(QuantileSketch::indexOf(QuantileSketch::kMaxValue * 0.999),
                 QuantileSketch::kHighestIndex);
        QCOMPARE(QuantileSketch::indexOf(0.0), QuantileSketch::kZeroIndex);
        QCOMPARE(QuantileSketch::indexOf(1e-10), QuantileSketch::kZeroIndex);
        QCOMPARE(QuantileSketch::indexOf(std::nan("")), QuantileSketch::kZeroIndex);
        QCOMPARE(QuantileSketch::indexOf(-1.0), QuantileSketch::kZeroIndex);
        QCOMPARE(QuantileSketch::indexOf(std::numeric_limits<double>::infinity()),
                 QuantileSketch::kHighestIndex);
        QCOMPARE(QuantileSketch::valueOf(QuantileSketch::kZeroIndex), 0.0);
        QCOMPARE(QuantileSketch::kMaxBuckets, std::size_t{1729});
    }

    // Every value of the range lies within kAlpha of what its bucket stands for.
    void everyBucketStandsForItsValuesWithinTheBound() {
        for (double x = QuantileSketch::kMinValue; x < QuantileSketch::kMaxValue; x *= 1.0007) {
            const double v = QuantileSketch::valueOf(QuantileSketch::indexOf(x));
            QVERIFY2(withinBound(v, x), qPrintable(QStringLiteral("%1 -> %2").arg(x).arg(v)));
        }
    }

    void quantilesOfAMillionValuesAreWithinTheBound_data() {
        QTest::addColumn<int>("distribution");
        QTest::addColumn<quint64>("seed");
        QTest::newRow("uniform 0-2 s") << int(Distribution::Uniform) << quint64{1};
        QTest::newRow("lognormal, median 0.1 s") << int(Distribution::LogNormal) << quint64{2};
        QTest::newRow("bimodal 5 ms / 2 s") << int(Distribution::Bimodal) << quint64{3};
        QTest::newRow("lognormal over twelve decades") << int(Distribution::Wide) << quint64{4};
    }
    void quantilesOfAMillionValuesAreWithinTheBound() {
        QFETCH(int, distribution);
        QFETCH(quint64, seed);
        std::vector<double> values = samples(drawFrom(Distribution(distribution)), 1'000'000, seed);
        QuantileSketch sketch;
        for (const double v : values) {
            sketch.add(v);
        }
        std::sort(values.begin(), values.end());
        QCOMPARE(sketch.count(), Count{values.size()});
        QVERIFY(sketch.buckets().size() <= QuantileSketch::kMaxBuckets);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> qs = {{9999, 10000}, {1, 1000000}};
        for (std::uint64_t permille = 0; permille <= 1000; ++permille) {
            qs.emplace_back(permille, 1000);
        }
        int checked = 0;
        for (const auto& [parts, whole] : qs) {
            const double q = double(parts) / double(whole);
            const double exact = exactQuantile(values, parts, whole);
            const double answer = sketch.quantile(q);
            if (exact > QuantileSketch::kMaxValue) {
                continue;  // beyond the range: an underestimate (valuesBeyondTheRange...)
            }
            QVERIFY2(
                withinBound(answer, exact),
                qPrintable(QStringLiteral("q %1: %2, exact %3").arg(q).arg(answer).arg(exact)));
            ++checked;
        }
        QVERIFY(checked > 990);
    }

    void rankIsTheNearestRank() {
        QCOMPARE(QuantileSketch::rankOf(0.9, 10), Count{9});  // not 10: 0.9 x 10 is whole
        QCOMPARE(QuantileSketch::rankOf(0.7, 10), Count{7});
        QCOMPARE(QuantileSketch::rankOf(0.5, 2), Count{1});
        QCOMPARE(QuantileSketch::rankOf(0.99, 2), Count{2});
        QCOMPARE(QuantileSketch::rankOf(0.5, 5), Count{3});
        QCOMPARE(QuantileSketch::rankOf(0.0, 5), Count{1});
        QCOMPARE(QuantileSketch::rankOf(1.0, 5), Count{5});
        QCOMPARE(QuantileSketch::rankOf(0.99, 1'000'001), Count{990'001});
        QCOMPARE(QuantileSketch::rankOf(1.0, kMaxCount), kMaxCount);
        QCOMPARE(QuantileSketch::rankOf(0.5, 1), Count{1});
        // The rank's value, by weight: two fast and one slow.
        QuantileSketch sketch;
        sketch.add(0.01, 2);
        sketch.add(3.0);
        QVERIFY(withinBound(sketch.quantile(0.66), 0.01));
        QVERIFY(withinBound(sketch.quantile(0.67), 3.0));
    }

    void valuesBeyondTheRangeAreUnderestimatedNeverLost() {
        QuantileSketch sketch;
        sketch.add(5e7);
        sketch.add(1.0);
        QCOMPARE(sketch.count(), Count{2});
        QVERIFY(withinBound(sketch.quantile(1.0), QuantileSketch::kMaxValue));
        QVERIFY(withinBound(sketch.quantile(0.0), 1.0));
    }

    void zeroIsReportedAsZero() {
        QuantileSketch sketch;
        sketch.add(0.0, 3);
        sketch.add(0.25);
        QCOMPARE(sketch.quantile(0.5), 0.0);
        QVERIFY(withinBound(sketch.quantile(1.0), 0.25));
        QCOMPARE(QuantileSketch().quantile(0.5), 0.0);
    }

    void mergedSketchEqualsOneFedEveryValue() {
        const std::vector<double> values = samples(
            [](std::mt19937_64& r) { return std::lognormal_distribution<double>(-3.0, 2.0)(r); },
            100'000, 7);
        QuantileSketch whole;
        std::vector<QuantileSketch> parts(7);
        for (std::size_t i = 0; i < values.size(); ++i) {
            whole.add(values[i]);
            parts[(i * 31) % parts.size()].add(values[i]);
        }
        QuantileSketch merged;
        for (const QuantileSketch& part : parts) {
            merged.merge(part);
        }
        QCOMPARE(merged, whole);
        for (const double q : {0.0, 0.5, 0.9, 0.99, 1.0}) {
            QCOMPARE(merged.quantile(q), whole.quantile(q));
        }
    }

    void subtractUndoesAMerge() {
        QuantileSketch a;
        QuantileSketch b;
        for (int i = 1; i <= 500; ++i) {
            a.add(i * 0.001);
            b.add(i * 0.013, 2);
        }
        b.add(77.0);  // a bucket only b has
        QuantileSketch sum = a;
        sum.merge(b);
        QCOMPARE(sum.count(), a.count() + b.count());
        sum.subtract(b);
        QCOMPARE(sum, a);
        sum.subtract(a);
        QVERIFY(sum.empty());
        QCOMPARE(sum.count(), Count{0});
    }

    void weightCountsAsRepeats() {
        QuantileSketch weighted;
        QuantileSketch repeated;
        weighted.add(0.3, 4);
        weighted.add(0.01, 1);
        for (int i = 0; i < 4; ++i) {
            repeated.add(0.3);
        }
        repeated.add(0.01);
        QCOMPARE(weighted, repeated);
        weighted.add(9.0, 0);  // no weight: nothing
        QCOMPARE(weighted, repeated);
    }

    void countsSaturateInsteadOfWrapping() {
        QuantileSketch sketch;
        sketch.add(1.0, kMaxCount);
        sketch.add(1.0, 5);
        sketch.add(2.0, 5);
        QCOMPARE(sketch.count(), kMaxCount);
        QCOMPARE(sketch.buckets().front().count, kMaxCount);
        QuantileSketch twice = sketch;
        twice.merge(sketch);
        QCOMPARE(twice.count(), kMaxCount);
        QCOMPARE(twice.buckets().front().count, kMaxCount);
        QVERIFY(withinBound(twice.quantile(0.5), 1.0));
        twice.subtract(sketch);
        twice.subtract(sketch);  // more than it holds: empty, not wrapped
        QVERIFY(twice.empty());
        QCOMPARE(twice.count(), Count{0});
    }

    // Values over the whole range and beyond fill at most kMaxBuckets buckets, and the list's
    // capacity never passes it either.
    void bucketsAndMemoryStayBounded() {
        QuantileSketch sketch;
        std::mt19937_64 random(11);
        std::uniform_real_distribution<double> exponent(-12.0, 8.0);
        for (int i = 0; i < 200'000; ++i) {
            sketch.add(std::pow(10.0, exponent(random)));
        }
        QCOMPARE(sketch.buckets().size(), QuantileSketch::kMaxBuckets);
        QVERIFY(sketch.heapBytes() <= QuantileSketch::kMaxBuckets * sizeof(QuantileSketch::Bucket));
        QuantileSketch merged = sketch;
        merged.merge(sketch);
        QVERIFY(merged.heapBytes() <= QuantileSketch::kMaxBuckets * sizeof(QuantileSketch::Bucket));
        QVERIFY(std::is_sorted(sketch.buckets().begin(), sketch.buckets().end(),
                               [](const auto& a, const auto& b) { return a.index < b.index; }));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(QuantileSketchTest)
#include "tst_quantile_sketch.moc"
