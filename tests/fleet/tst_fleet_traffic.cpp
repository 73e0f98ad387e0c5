// FleetTraffic: fleet-sim's traffic shape, against independent counts of what it drew.
#include <QTest>
#include <map>
#include <set>

#include "core/fleet/fleet_traffic.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::fleet;

namespace {

// Runs `seconds` of traffic in ticks of 10 ms; hits per key and per instance, counted here.
struct Drawn {
    std::map<std::string, Count> perKey;
    std::vector<Count> perInstance;
    std::set<std::string> viralVisitors;
    Count total = 0;
    Count wrongSecond = 0;  // hits not stamped with the second they were drawn in
};

Drawn draw(FleetTraffic& traffic, int ticks, double tick = 0.01) {
    Drawn d;
    d.perInstance.assign(std::size_t(traffic.options().instances), 0);
    std::vector<HitBatch> batches;
    for (int t = 0; t < ticks; ++t) {
        traffic.advanceTo(tick * (t + 1), 1000 + t / 100, batches);
        for (std::size_t i = 0; i < batches.size(); ++i) {
            for (const HitEvent& e : batches[i]) {
                d.perKey[e.key] += e.count;
                d.perInstance[i] += e.count;
                d.total += e.count;
                if (e.key == traffic.options().viralKey)
                    d.viralVisitors.insert(e.visitor);
                d.wrongSecond += e.time == Timestamp(1000 + t / 100) ? 0 : 1;
            }
            batches[i].clear();
        }
    }
    return d;
}

}  // namespace

class FleetTrafficTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void exactlyRateTimesSecondsHitsAreDrawn() {
        FleetTraffic traffic({.instances = 7, .rate = 333.3, .items = 50});
        const Drawn d = draw(traffic, 300);  // 3 s in ticks of 10 ms: 999.9 hits due
        QCOMPARE(d.total, Count(999));
        QCOMPARE(d.wrongSecond, Count(0));
        QCOMPARE(traffic.sent(), Count(999));
        // 35000 hits/s for 8 s in 800 ticks: 280 000, not one less from rounding.
        FleetTraffic design({.instances = 200, .rate = 35000, .items = 10});
        QCOMPARE(draw(design, 800).total, Count(280000));
    }

    void theViralKeyTakesItsShareAndEveryInstanceGetsHits() {
        FleetTraffic traffic({.instances = 200,
                              .rate = 35000,
                              .viralKey = "viral",
                              .viralRate = 10000,
                              .items = 1000,
                              .visitors = 1'000'000});
        const Drawn d = draw(traffic, 200);  // 2 s: 70 000 hits
        QCOMPARE(d.total, Count(70000));
        // 20 000 expected; the binomial's sigma is 120: 5 sigma either way.
        QVERIFY2(d.perKey.at("viral") > 19400 && d.perKey.at("viral") < 20600,
                 std::to_string(d.perKey.at("viral")).c_str());
        QCOMPARE(traffic.viralSent(), d.perKey.at("viral"));
        QCOMPARE(traffic.viralUniques(), d.viralVisitors.size());
        for (const Count hits : d.perInstance)  // 350 expected each
            QVERIFY(hits > 250 && hits < 450);
        // Zipf: sim.1 about twice sim.2 and ten times sim.10 (1 / H(1000) = 13.4 % of the rest).
        const double first = double(d.perKey.at("sim.1"));
        QVERIFY(first > 0.12 * 50000 && first < 0.15 * 50000);
        QVERIFY(first / double(d.perKey.at("sim.2")) > 1.7 &&
                first / double(d.perKey.at("sim.2")) < 2.3);
        QVERIFY(first / double(d.perKey.at("sim.10")) > 7 &&
                first / double(d.perKey.at("sim.10")) < 13);
        // The ground truth it keeps is what it handed out.
        QCOMPARE(traffic.sentPerKey(), d.perKey);
    }

    void theSameSeedDrawsTheSameHits() {
        const FleetTrafficOptions o{.instances = 3, .rate = 500, .items = 20, .seed = 7};
        FleetTraffic a(o), b(o), c({.instances = 3, .rate = 500, .items = 20, .seed = 8});
        std::vector<HitBatch> ba, bb, bc;
        a.advanceTo(1, 5, ba);
        b.advanceTo(1, 5, bb);
        c.advanceTo(1, 5, bc);
        QVERIFY(ba == bb);
        QVERIFY(ba != bc);
    }

    void badOptionsAreNamed() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FleetTraffic({.instances = 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FleetTraffic({.rate = -1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 FleetTraffic({.rate = 10, .viralKey = "v", .viralRate = 11}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FleetTraffic({.viralRate = 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FleetTraffic({.items = 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 FleetTraffic({.viralKey = "sim.3", .items = 5}));
        try {
            FleetTraffic({.instances = 20000});
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY(std::string(e.what()).find("instances") != std::string::npos);
        }
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(FleetTrafficTest)
#include "tst_fleet_traffic.moc"
