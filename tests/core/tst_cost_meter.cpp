// CostMeter (core/engine/cost_meter.h): what each policy costs per hit and per getHits, measured
// on a stream as delivered through fresh instances: a policy slow on purpose is measured as
// slow as it is, one stalled sample does not move a median, getHits ranks as the benchmarks do
// (ring and the running-total policies far below scanring and naive), and the measuring thread
// measures what the counting thread shows it. (These replace the Engine's per-call timing,
// whose tests they carry on: a slow policy timed slower than the ring, a stall not moving the
// figure, no figure before there is anything to time.)
#include <QTest>
#include <algorithm>
#include <chrono>
#include <memory>

#include "core/counters/counter_factory.h"
#include "core/engine/cost_meter.h"
#include "core/sim/traffic_model.h"
#include "tests/core/slow_counter.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

// What the simulator delivers at `rate` hits a second from second 1000 (late hits included),
// as HitEvents and as the meter's stream.
HitBatch simulated(double rate, Timestamp seconds) {
    const TrafficModel model({.pattern = TrafficPattern::Poisson,
                              .rate = rate,
                              .keys = 50,
                              .seed = 7,
                              .jitter = 5s,
                              .jitterFraction = 0.1});
    HitBatch events;
    for (Timestamp t = 1000; t < 1000 + seconds; ++t) {
        for (HitEvent& e : model.eventsAt(t)) {
            events.push_back(std::move(e));
        }
    }
    return events;
}

CostMeter::Stream streamOf(const HitBatch& events) {
    CostMeter::Stream stream;
    for (const HitEvent& e : events) {
        stream.emplace_back(e.time, e.count);
    }
    return stream;
}

const PolicyCost& costOf(const PolicyCosts& costs, std::string_view name) {
    for (const PolicyCost& cost : costs.policies) {
        if (cost.name == name) {
            return cost;
        }
    }
    static const PolicyCost none;
    return none;
}

EngineOptions withSlowPolicy(std::chrono::nanoseconds spin, std::uint64_t onlyCall = 0) {
    EngineOptions options;
    options.policies = {"slow"};
    auto calls = std::make_shared<std::uint64_t>(0);  // across the fresh instances
    options.makePolicy = [spin, onlyCall, calls](
                             std::string_view name,
                             const CounterOptions& o) -> std::unique_ptr<WindowCounter> {
        if (name == "slow") {
            return std::make_unique<testing::SlowCounter>(spin, onlyCall, calls);
        }
        return makeCounter(name, o);
    };
    return options;
}

}  // namespace

class TestCostMeter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aSlowPolicyIsMeasuredSlowerThanTheRingAndAboutAsSlowAsItIs() {
        const PolicyCosts costs =
            CostMeter::measure(streamOf(simulated(500, 4)), withSlowPolicy(1us));
        QCOMPARE(costs.policies.size(), std::size_t{2});
        const PolicyCost& slow = costOf(costs, "slow");
        const PolicyCost& ring = costOf(costs, "ring");
        QCOMPARE(slow.samples, CostMeter::kSamples);
        QVERIFY2(slow.nsPerHit.median >= 900.0, QByteArray::number(slow.nsPerHit.median));
        QVERIFY2(ring.nsPerHit.median < slow.nsPerHit.median / 2,
                 QByteArray::number(ring.nsPerHit.median) + " vs " +
                     QByteArray::number(slow.nsPerHit.median));
        QVERIFY(costs.hitOps >= CostMeter::kMinOps);
        QCOMPARE(costs.getHitsOps, CostMeter::kMinOps);
    }

    // One stall of 20 ms of CPU in one of the five samples (1 to 2 us a hit over its 10,000
    // to 20,000 calls): the median stays with the others, the spread shows the stall.
    void oneStalledSampleDoesNotMoveTheMedian() {
        const PolicyCosts costs =
            CostMeter::measure(streamOf(simulated(2000, 5)), withSlowPolicy(20ms, 10));
        const PolicyCost& stall = costOf(costs, "slow");
        QCOMPARE(stall.samples, CostMeter::kSamples);
        QVERIFY2(stall.nsPerHit.median < 10'000.0, QByteArray::number(stall.nsPerHit.median));
        QVERIFY2(stall.nsPerHit.median < 1'000.0, QByteArray::number(stall.nsPerHit.median));
        const double stalled = 20e6 / double(costs.hitOps);  // ns a hit in the stalled sample
        QVERIFY2(stall.nsPerHit.high >= 0.9 * stalled,
                 QByteArray::number(stall.nsPerHit.high) + " vs " + QByteArray::number(stalled));
        QVERIFY(stall.nsPerHit.low <= stall.nsPerHit.median);
    }

    // The default policies on a simulated stream: getHits of the ring and the running-total
    // policies (deque, estimate) at least 4x below scanring's (O(W)) and naive's (O(calls)),
    // as bench_counters' count_monotonic has them (1 to 6 ns against 174 and 312 ns).
    void getHitsRanksAsTheBenchmarksDo() {
        const PolicyCosts costs = CostMeter::measure(streamOf(simulated(2000, 3)), {});
        QStringList names;
        for (const PolicyCost& cost : costs.policies) {
            names << QString::fromStdString(cost.name);
            QVERIFY(cost.nsPerHit.low <= cost.nsPerHit.median);
            QVERIFY(cost.nsPerHit.median <= cost.nsPerHit.high);
            QVERIFY(cost.nsPerGetHits.low <= cost.nsPerGetHits.median);
            QVERIFY(cost.nsPerGetHits.median <= cost.nsPerGetHits.high);
        }
        QCOMPARE(names.join(','),
                 QStringLiteral("ring,deque,sorted,coarse,estimate,naive,scanring"));
        const double slowest = std::min(costOf(costs, "scanring").nsPerGetHits.median,
                                        costOf(costs, "naive").nsPerGetHits.median);
        for (const char* fast : {"ring", "deque", "estimate"}) {
            const double ns = costOf(costs, fast).nsPerGetHits.median;
            QVERIFY2(4 * ns < slowest, qPrintable(QStringLiteral("%1: %2 ns per getHits, "
                                                                 "scanring/naive from %3 ns")
                                                      .arg(QLatin1String(fast))
                                                      .arg(ns)
                                                      .arg(slowest)));
        }
        QVERIFY(costOf(costs, "naive").nsPerGetHits.median >
                10 * costOf(costs, "ring").nsPerGetHits.median);
    }

    // The thread: nothing before hits come; then a refresh measured on what observe() was
    // shown (capped at kStreamEvents), with the policies set.
    void theMeasuringThreadMeasuresWhatItIsShown() {
        CostMeter meter;
        EngineOptions options;
        options.policies = {"deque", "scanring"};
        meter.setPolicies(options);
        meter.start();
        QVERIFY(meter.latest().policies.empty());
        const HitBatch events = simulated(3000, 4);
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        std::size_t next = 0;
        while (meter.latest().refresh == 0 && std::chrono::steady_clock::now() < deadline) {
            HitBatch batch;
            for (int i = 0; i < 64; ++i, ++next) {
                HitEvent e = events[next % events.size()];
                e.time += Timestamp(next / events.size()) * 4;  // the next pass, 4 s later
                batch.push_back(std::move(e));
            }
            meter.observe(batch);
            std::this_thread::yield();
        }
        const PolicyCosts costs = meter.latest();
        QVERIFY2(costs.refresh >= 1, "no measurement within 60 s");
        QCOMPARE(costs.policies.size(), std::size_t{3});
        QCOMPARE(costs.policies[0].name, std::string("ring"));
        QCOMPARE(costs.policies[1].name, std::string("deque"));
        QCOMPARE(costs.policies[2].name, std::string("scanring"));
        QVERIFY(costs.streamEvents > 0 && costs.streamEvents <= CostMeter::kStreamEvents);
        QVERIFY(costs.streamSeconds >= 1);
        QCOMPARE(costs.policies[0].samples, CostMeter::kSamples);
        QVERIFY(costs.policies[2].nsPerGetHits.median > costs.policies[0].nsPerGetHits.median);
        meter.stop();
    }
};

HITCOUNTER_TEST_MAIN(TestCostMeter)
#include "tst_cost_meter.moc"
