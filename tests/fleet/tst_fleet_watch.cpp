// FleetWatch (core/fleet/fleet_watch.h): outages, restarts and lost counts across polls, fed by
// hand (the real-Redis cases are in tst_fleet_poll and tst_fleet_view).
#include <QTest>
#include <numeric>
#include <vector>

#include "core/fleet/fleet_watch.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::fleet;

namespace {

// The fleet's hits per second of (now - w, now]: `perSecond` hits in every second from `from`.
std::vector<Count> series(Timestamp now, Timestamp w, Timestamp from, Count perSecond) {
    std::vector<Count> out;
    for (Timestamp s = now - w + 1; s <= now; ++s) {
        out.push_back(s >= from ? perSecond : 0);
    }
    return out;
}

}  // namespace

class FleetWatchTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void anOutageRunsFromTheFirstFailedPollToTheFirstGoodOne() {
        FleetWatch watch;
        auto total = series(1000, 300, 900, 2);
        QVERIFY(!watch.reached(1000.5, "run-a", &total, 1000));
        QVERIFY(watch.outages().empty());
        watch.unreachable(1001.5);
        watch.unreachable(1002.5);
        QCOMPARE(watch.outages().size(), std::size_t(1));
        QCOMPARE(watch.outages()[0].from, 1001.5);
        QCOMPARE(watch.outages()[0].to, 0.0);  // still going on
        total = series(1003, 300, 900, 2);
        QVERIFY(!watch.reached(1003.5, "run-a", &total, 1003));
        QCOMPARE(watch.outages()[0].to, 1003.5);
        QVERIFY(!watch.outages()[0].restarted);  // the same process: nothing lost
        QVERIFY(!watch.loss());
    }

    void aRestartThatLostTheCountsIsALossUntilItLeavesTheWindow() {
        FleetWatch watch;
        auto total = series(1000, 300, 801, 10);  // 2,000 in the window
        watch.reached(1000.5, "run-a", &total, 1000);
        watch.unreachable(1001.5);
        total = series(1010, 300, 1005, 10);  // restarted empty at 1005: 60 since
        QVERIFY(watch.reached(1010.5, "run-b", &total, 1010));
        QVERIFY(watch.outages().back().restarted);
        QVERIFY(watch.loss().has_value());
        const FleetLoss loss = *watch.loss();
        QCOMPARE(loss.at, 1001.5);  // when it went down
        QCOMPARE(loss.before, Count(2000));
        QCOMPARE(loss.after, Count(60));
        QCOMPARE(loss.lostHits, Count(2000));  // every second from 801 to 1000
        QCOMPARE(loss.lastShortSecond, Timestamp(1000));
        QVERIFY(!loss.logsLeft);
        watch.setLogsLeft(true);
        QVERIFY(watch.loss()->logsLeft);
        // later polls: the same loss (not found again), smaller as its seconds leave
        total = series(1200, 300, 1005, 10);
        QVERIFY(!watch.reached(1200.5, "run-b", &total, 1200));
        QCOMPARE(watch.loss()->lostHits, Count(10 * (1000 - 901 + 1)));
        QCOMPARE(watch.loss()->before, Count(2000));
        total = series(1300, 300, 1005, 10);  // (1000, 1300]: nothing short any more
        QVERIFY(!watch.reached(1300.5, "run-b", &total, 1300));
        QVERIFY(!watch.loss());
    }

    void aRebuildEndsTheLossAndARestartBetweenPollsIsSeen() {
        FleetWatch watch;
        auto total = series(1000, 300, 990, 5);
        watch.reached(1000.5, "run-a", &total, 1000);
        auto wiped = series(1001, 300, 2000, 5);  // every count gone, no outage seen
        QVERIFY(watch.reached(1001.5, "run-b", &wiped, 1001));
        QCOMPARE(watch.outages().size(), std::size_t(1));
        QCOMPARE(watch.outages()[0].from, watch.outages()[0].to);
        QVERIFY(watch.outages()[0].restarted);
        QCOMPARE(watch.loss()->at, 1001.5);
        total = series(1002, 300, 990, 5);  // rebuilt from the logs
        QVERIFY(!watch.reached(1002.5, "run-b", &total, 1002));
        QVERIFY(!watch.loss());
    }

    void growingSecondsAreNoLossAndAnUnreadTotalChangesNothing() {
        FleetWatch watch;
        auto total = series(1000, 300, 990, 5);
        watch.reached(1000.5, "", &total, 1000);
        total = series(1001, 300, 990, 7);  // late flushes add to seconds already read
        QVERIFY(!watch.reached(1001.5, "", &total, 1001));
        QVERIFY(!watch.reached(1002.5, "", nullptr, 1001));
        QVERIFY(!watch.loss());
        QVERIFY(watch.outages().empty());
    }

    void onlyTheNewestOutagesAreKept() {
        FleetWatch watch;
        for (int i = 0; i < 20; ++i) {
            watch.unreachable(100.0 * i);
            watch.reached(100.0 * i + 50, "r", nullptr, 0);
        }
        QCOMPARE(watch.outages().size(), FleetWatch::kOutages);
        QCOMPARE(watch.outages().back().from, 1900.0);
    }
};

HITCOUNTER_TEST_MAIN(FleetWatchTest)
#include "tst_fleet_watch.moc"
