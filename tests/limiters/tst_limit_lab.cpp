// LimitLab (core/limiters/limit_lab.h): the lanes decide in lockstep like limiters fed alone,
// the totals add up, the peaks show the boundary burst, bad names and limits are refused.
#include <QTest>

#include <random>
#include <string>
#include <vector>

#include "core/limiters/limit_lab.h"
#include "core/limiters/limiter_factory.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
std::vector<std::string> allNames() {
    return {limiterNames().begin(), limiterNames().end()};
}
}  // namespace

class LimitLabTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerExample() {
        const std::vector<std::string> names{"fixed", "log"};
        LimitLab lab(names, {2, 60s});
        for (const Timestamp t : {58, 59, 60, 61})
            lab.admit("a", t);
        const auto& fixed = lab.lanes()[0];
        const auto& log = lab.lanes()[1];
        QCOMPARE(fixed.accepted, Count{4});
        QCOMPARE(fixed.rejected, Count{0});
        QCOMPARE(fixed.peak.peak(), Count{4});
        QCOMPARE(log.accepted, Count{2});
        QCOMPARE(log.rejected, Count{2});
        QCOMPARE(log.peak.peak(), Count{2});
    }

    void lanesDecideLikeLimitersFedAlone() {
        const auto names = allNames();
        LimitLab lab(names, {3, 10s});
        std::vector<std::unique_ptr<RateLimiter>> alone;
        for (const auto& name : names)
            alone.push_back(makeLimiter(name, {3, 10s}));
        std::mt19937_64 random(7);
        std::vector<Count> accepted(names.size()), requested(names.size());
        Timestamp t = 0;
        for (int i = 0; i < 2000; ++i) {
            t += static_cast<Timestamp>(random() % 3);
            const std::string key = "k" + std::to_string(random() % 5);
            const Count n = 1 + random() % 3;
            const auto got = lab.admit(key, t, n);
            for (std::size_t lane = 0; lane < names.size(); ++lane) {
                QCOMPARE(got[lane], alone[lane]->admit(key, t, n));
                accepted[lane] += got[lane];
                requested[lane] += n;
            }
        }
        for (std::size_t lane = 0; lane < names.size(); ++lane) {
            QCOMPARE(lab.lanes()[lane].accepted, accepted[lane]);
            QCOMPARE(lab.lanes()[lane].accepted + lab.lanes()[lane].rejected, requested[lane]);
            QVERIFY(lab.lanes()[lane].rejected > 0);
        }
        // Only fixed can exceed L in a window; the sliding log never does.
        QCOMPARE(lab.lanes()[1].peak.peak(), Count{3});
        QVERIFY(lab.lanes()[0].peak.peak() > 3);
    }

    void unknownNameOrBadLimitIsRefused() {
        const std::vector<std::string> bad{"fixed", "leaky"};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LimitLab(bad, {1, 1s}));
        const auto names = allNames();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LimitLab(names, {0, 1s}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LimitLab(names, {1, 0s}));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(LimitLabTest)
#include "tst_limit_lab.moc"
