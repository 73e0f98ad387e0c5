// FrameMeter: nearest-rank percentiles and an RSS reading.
#include <QTest>

#include "tests/test_main.h"
#include "ui/window/frame_meter.h"

using hitcounter::ui::FrameMeter;

class TestFrameMeter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void percentilesUseNearestRank() {
        FrameMeter meter;
        QCOMPARE(meter.percentileMs(50), 0.0);
        for (int ms = 100; ms >= 1; --ms) {
            meter.record(std::chrono::milliseconds(ms));
        }
        QCOMPARE(meter.percentileMs(50), 50.0);
        QCOMPARE(meter.percentileMs(99), 99.0);
        QCOMPARE(meter.maxMs(), 100.0);
        QCOMPARE(meter.percentileMs(0), 1.0);
    }

    void residentMemoryIsReported() { QVERIFY(FrameMeter::rssBytes() > 1024 * 1024); }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestFrameMeter)
#include "tst_frame_meter.moc"
