// ZipfTable: rank i drawn with probability proportional to 1/(i+1)^s.
#include <QTest>

#include <vector>

#include "core/sim/zipf.h"
#include "tests/test_main.h"

using namespace hitcounter::sim;

class ZipfTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void probabilitiesFollowThePowerLaw() {
        const ZipfTable table(4, 1.0);
        const double h = 1.0 + 1.0 / 2 + 1.0 / 3 + 1.0 / 4;
        for (std::uint32_t i = 0; i < 4; ++i) {
            QVERIFY(std::abs(table.probability(i) - 1.0 / (i + 1) / h) < 1e-12);
        }
    }

    void exponentZeroIsUniform() {
        const ZipfTable table(5, 0.0);
        for (std::uint32_t i = 0; i < 5; ++i) {
            QVERIFY(std::abs(table.probability(i) - 0.2) < 1e-12);
        }
    }

    void drawFrequenciesMatchProbabilities() {
        const ZipfTable table(10, 1.0);
        Random random(42);
        std::vector<int> seen(10);
        constexpr int kDraws = 200000;
        for (int i = 0; i < kDraws; ++i) {
            const auto rank = table.draw(random);
            QVERIFY(rank < 10);
            ++seen[rank];
        }
        for (std::uint32_t i = 0; i < 10; ++i) {
            const double share = static_cast<double>(seen[i]) / kDraws;
            QVERIFY2(std::abs(share - table.probability(i)) < 0.01,
                     qPrintable(QString("rank %1: %2").arg(i).arg(share)));
        }
    }

    void singleKeyAlwaysDrawsRankZero() {
        const ZipfTable table(1, 1.0);
        Random random(7);
        for (int i = 0; i < 100; ++i) {
            QCOMPARE(table.draw(random), 0u);
        }
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(ZipfTest)
#include "tst_zipf.moc"
