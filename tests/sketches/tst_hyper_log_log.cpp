// HyperLogLog (core/sketches/hyper_log_log.h): the error bounds at small and large
// cardinalities, the 12 KiB memory cap, and merge == one sketch over the union.
#include <QTest>

#include <cmath>
#include <string>

#include "core/sketches/hyper_log_log.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {
HyperLogLog sketchOf(std::uint64_t first, std::uint64_t last, const std::string& prefix = "v") {
    HyperLogLog sketch;
    for (std::uint64_t i = first; i < last; ++i) {
        sketch.add(HyperLogLog::hashOf(prefix + std::to_string(i)));
    }
    return sketch;
}

double relativeError(std::uint64_t estimate, double truth) {
    return std::abs(static_cast<double>(estimate) - truth) / truth;
}
}  // namespace

class HyperLogLogTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emptySketchEstimatesZero() {
        HyperLogLog sketch;
        QVERIFY(sketch.empty());
        QCOMPARE(sketch.estimate(), std::uint64_t{0});
    }

    void repeatedVisitorCountsOnce() {
        HyperLogLog sketch;
        for (int i = 0; i < 1000; ++i) {
            sketch.add(HyperLogLog::hashOf("u1"));
            sketch.add(HyperLogLog::hashOf("u2"));
        }
        QCOMPARE(sketch.estimate(), std::uint64_t{2});
    }

    void hundredDistinctWithinTwo_data() {
        QTest::addColumn<QString>("prefix");
        for (const char* prefix : {"v", "user-", "10.0.0.", "session:", "x"}) {
            QTest::newRow(prefix) << QString(prefix);
        }
    }
    void hundredDistinctWithinTwo() {
        QFETCH(QString, prefix);
        const HyperLogLog sketch = sketchOf(0, 100, prefix.toStdString());
        QVERIFY(sketch.isSparse());
        const auto estimate = static_cast<std::int64_t>(sketch.estimate());
        QVERIFY2(std::abs(estimate - 100) <= 2, std::to_string(estimate).c_str());
    }

    void millionDistinctWithinTwoPercent() {
        const HyperLogLog sketch = sketchOf(0, 1'000'000);
        QVERIFY(!sketch.isSparse());
        const double error = relativeError(sketch.estimate(), 1e6);
        QVERIFY2(error <= 0.02, std::to_string(sketch.estimate()).c_str());
    }

    // Across the switch from sparse to dense and the range where the classic estimator needs
    // bias correction, the error stays within 4 standard errors (3.3 %).
    void errorStaysSmallAcrossCardinalities_data() {
        QTest::addColumn<int>("distinct");
        for (int n : {1, 10, 1000, 1024, 1100, 3000, 10'000, 20'000, 50'000, 100'000, 300'000}) {
            QTest::newRow(std::to_string(n).c_str()) << n;
        }
    }
    void errorStaysSmallAcrossCardinalities() {
        QFETCH(int, distinct);
        const HyperLogLog sketch = sketchOf(0, static_cast<std::uint64_t>(distinct), "c");
        const double error = relativeError(sketch.estimate(), distinct);
        QVERIFY2(error <= (sketch.isSparse() ? 0.005 : 0.033),
                 std::to_string(sketch.estimate()).c_str());
    }

    void memoryNeverExceedsTwelveKiB() {
        HyperLogLog sketch;
        const std::size_t cap = sizeof(HyperLogLog) + HyperLogLog::kDenseBytes;
        QCOMPARE(HyperLogLog::kDenseBytes, std::size_t{12 * 1024});
        bool sawDense = false;
        for (int i = 0; i < 20'000; ++i) {
            sketch.add(HyperLogLog::hashOf("m" + std::to_string(i)));
            QVERIFY(sketch.memoryBytes() <= cap);
            sawDense = sawDense || !sketch.isSparse();
        }
        QVERIFY(sawDense);
        QVERIFY(sketchOf(0, 10).memoryBytes() <= sizeof(HyperLogLog) + 16 * 4);
    }

    // Registers of the union are the maxima of the parts, so merging must give exactly the
    // estimate of one sketch that saw everything, whatever the two forms.
    void mergeEqualsOneSketchOverTheUnion_data() {
        QTest::addColumn<int>("firstSize");
        QTest::addColumn<int>("secondSize");
        QTest::newRow("sparse+sparse") << 200 << 300;
        QTest::newRow("sparse+sparse->dense") << 2000 << 2000;
        QTest::newRow("sparse+dense") << 50 << 40'000;
        QTest::newRow("dense+sparse") << 40'000 << 50;
        QTest::newRow("dense+dense") << 30'000 << 40'000;
    }
    void mergeEqualsOneSketchOverTheUnion() {
        QFETCH(int, firstSize);
        QFETCH(int, secondSize);
        // The two ranges overlap by 10 values.
        const auto a = static_cast<std::uint64_t>(firstSize);
        const auto b = static_cast<std::uint64_t>(secondSize);
        HyperLogLog merged = sketchOf(0, a);
        merged.merge(sketchOf(a - 10, a - 10 + b));
        const HyperLogLog whole = sketchOf(0, a - 10 + b);
        QCOMPARE(merged.estimate(), whole.estimate());
        QCOMPARE(merged.isSparse(), whole.isSparse());
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(HyperLogLogTest)
#include "tst_hyper_log_log.moc"
