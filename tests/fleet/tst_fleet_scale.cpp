// Fleet mode at scale on a real Redis Cluster (3 masters, 3 replicas, started by the test):
// uniques over hot sub-items and minutes at 10^6 visitors against the exact count, and the
// fleet top-K spread over slots and still exact.
#include <QTest>
#include <map>
#include <set>

#include "core/fleet/fleet_keys.h"
#include "core/fleet/fleet_reader.h"
#include "core/fleet/redis_sink.h"
#include "tests/fleet/redis_cluster.h"
#include "tests/fleet/sink_test_options.h"
#include "tests/test_main.h"

using namespace std::chrono_literals;
using namespace hitcounter;
using namespace hitcounter::fleet;
using hitcounter::fleet::testing::fastSinkOptions;
using hitcounter::fleet::testing::unixNow;

namespace {

// HyperLogLog in Redis: 16384 registers, standard error 1.04 / sqrt(16384) = 0.81 %.
constexpr double kHllStandardError = 0.0081;

std::unique_ptr<RedisSink> sinkFor(const RedisSinkOptions& o) {
    return std::make_unique<RedisSink>(o, std::make_unique<RedisClient>(o.url, o.timeouts));
}

}  // namespace

class FleetScaleTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_cluster.start(), m_cluster.error().c_str()); }

    void uniquesOverSubItemsAndMinutesAreWithinTheHyperLogLogError() {
        // 10^6 visitors of one hot item, each seen by two of 8 instances in two different
        // minutes of the window: their HyperLogLogs are spread over sub-items (other slots,
        // other masters) and minutes, and overlap.
        constexpr int kVisitors = 1'000'000;
        constexpr int kInstances = 8;
        const Timestamp now = unixNow();
        const Timestamp end = now - now % 60 - 1;         // the last second of the previous minute
        const Timestamp firstMinute = minuteOf(end) - 4;  // (end - 300, end]: 5 whole minutes
        std::vector<std::unique_ptr<RedisSink>> sinks;
        for (int i = 0; i < kInstances; ++i) {
            RedisSinkOptions o =
                fastSinkOptions(m_cluster.url(i % m_cluster.size()), "uniq" + std::to_string(i),
                                {1000ms, 20000ms}, 200ms);
            o.hotShards = 16;
            o.hotPinned = {"u.hot"};
            o.replicaWait = 0ms;
            sinks.push_back(sinkFor(o));
        }
        // A twentieth of the visitors per round, each round flushed before the next: a
        // script adding hundreds of thousands of visitors would stall its master.
        constexpr int kRounds = 20;
        for (int part = 0; part < kRounds; ++part) {
            std::vector<std::uint64_t> flushed;
            for (const auto& sink : sinks)
                flushed.push_back(sink->stats().flushes);
            std::vector<HitBatch> batches(kInstances);
            for (int v = part; v < kVisitors; v += kRounds) {
                const std::string visitor = "visitor" + std::to_string(v);
                for (const int seen : {0, 3}) {
                    const int instance = (v + seen) % kInstances;
                    const Timestamp minute = firstMinute + (v / 7 + seen) % 5;
                    batches[std::size_t(instance)].push_back(
                        {minute * 60 + 30, "u.hot", visitor, 1});
                }
            }
            for (int i = 0; i < kInstances; ++i)
                sinks[std::size_t(i)]->add(batches[std::size_t(i)]);
            for (int i = 0; i < kInstances; ++i)
                QTRY_VERIFY_WITH_TIMEOUT(
                    batches[std::size_t(i)].empty() ||
                        sinks[std::size_t(i)]->stats().flushes > flushed[std::size_t(i)],
                    30000);
        }
        std::set<std::string> subItems;
        for (auto& sink : sinks) {
            sink->stop(60s);
            QCOMPARE(sink->stats().droppedHits, Count(0));
        }
        RedisClient c(parseRedisUrl(m_cluster.url(0)));
        for (int k = 0; k < 16; ++k)
            if (c.command({"EXISTS", totalKey(hotSubItem("u.hot", k))}).integer == 1)
                subItems.insert(hotSubItem("u.hot", k).text());
        QVERIFY2(subItems.size() >= 3, std::to_string(subItems.size()).c_str());
        // Counting each sub-item on its own would count the shared visitors twice. (A sub-item
        // is a tag, not an item name a reader takes: its minutes' HyperLogLogs, read directly.)
        Count separately = 0;
        for (const std::string& sub : subItems) {
            RedisConnection::Command count{"PFCOUNT"};
            for (Timestamp minute = firstMinute; minute <= minuteOf(end); ++minute)
                count.push_back(uniquesKey(ItemTag::fromTag(sub), minute));
            separately += Count(c.command(count).integer);
        }
        QVERIFY(separately > Count(1.3 * kVisitors));

        const ItemAnswer a = FleetReader(c).item("u.hot", 300, end);
        QCOMPARE(a.window, Count(2 * kVisitors));
        const double error = (double(a.uniques) - kVisitors) / kVisitors;
        qInfo("10^6 visitors over %zu sub-items and 5 minutes: HyperLogLog %llu, error %.3f %%",
              subItems.size(), static_cast<unsigned long long>(a.uniques), 100 * error);
        QVERIFY2(std::abs(error) <= 3 * kHllStandardError, std::to_string(error).c_str());
        // One minute alone: its share of the visitors (about 2/5 of them, overlap removed).
        Count minuteExact = 0;
        for (int v = 0; v < kVisitors; ++v)
            if ((v / 7) % 5 == 4 || (v / 7 + 3) % 5 == 4)
                ++minuteExact;
        const Count lastMinute = FleetReader(c).uniques("u.hot", 60, end);
        QVERIFY2(std::abs(double(lastMinute) - double(minuteExact)) <=
                     3 * kHllStandardError * double(minuteExact),
                 (std::to_string(lastMinute) + " vs " + std::to_string(minuteExact)).c_str());
    }

    void topKSpreadOverShardsIsExactWithTiesByKey() {
        const Timestamp now = unixNow();
        // 12 runs: their top-K writes go to up to 12 shards, on every master.
        std::vector<std::unique_ptr<RedisSink>> sinks;
        for (int i = 0; i < 12; ++i)
            sinks.push_back(sinkFor(
                fastSinkOptions(m_cluster.url(i % m_cluster.size()), "topk" + std::to_string(i))));
        const std::map<std::string, int> perInstance{
            {"t.a", 5}, {"t.b", 5}, {"t.c", 5}, {"t.d", 4}, {"t.e", 6}};
        for (auto& sink : sinks)
            for (const auto& [key, hits] : perInstance)
                sink->add(HitBatch{{{now, key, "", Count(hits)}}});
        std::set<int> shards;
        for (auto& sink : sinks) {
            sink->stop();
            shards.insert(topShardOf(sink->run()));
        }
        QVERIFY(shards.size() >= 3);
        std::set<int> masters;
        for (const int shard : shards)
            masters.insert(m_cluster.masterOf(keySlot(topKey(shard, minuteOf(now)))));
        QVERIFY2(masters.size() >= 2, "every top-K shard on one master");
        // An item counted by a sink from before the split (the legacy {top} shard).
        RedisClient c(parseRedisUrl(m_cluster.url(1)));
        const Timestamp minute = minuteOf(now);
        c.pipeline({{"ZINCRBY", topKey(kLegacyTopShard, minute), "62", "t.legacy"},
                    {"HINCRBY", secondsKey("t.legacy", minute), std::to_string(now % 60), "62"},
                    {"HINCRBY", fleetSecondsKey(kLegacyTopShard, minute), std::to_string(now % 60),
                     "62"}});
        FleetReader reader(c);
        // 10 s: the window leaves out the test above (its minutes still count in the bounds).
        const auto top = reader.top(4, 10, now);
        QCOMPARE(top.size(), std::size_t(4));
        QCOMPARE(top[0].key, std::string("t.e"));
        QCOMPARE(top[0].count, Count(72));
        QCOMPARE(top[1].key, std::string("t.legacy"));
        QCOMPARE(top[1].count, Count(62));
        QCOMPARE(top[2].key, std::string("t.a"));  // 60 = t.b = t.c: ties by key
        QCOMPARE(top[3].key, std::string("t.b"));
        QCOMPARE(top[3].count, Count(60));
        // The fleet's per-second total adds every shard.
        const std::vector<Count> series = reader.fleetSeries(10, now);
        QCOMPARE(series.back(), Count(12 * 25 + 62));
    }

    // Last: it kills a master.
    void theFleetTotalGoesOnWithoutADeadMastersShards() {
        const Timestamp now = unixNow() + 20;  // a second no other test wrote
        std::vector<std::unique_ptr<RedisSink>> sinks;
        std::map<int, Count> perMaster;  // hits whose top-K shard lives on that master
        for (int i = 0; i < 12; ++i) {
            sinks.push_back(
                sinkFor(fastSinkOptions(m_cluster.url(0), "total" + std::to_string(i))));
            sinks.back()->add(HitBatch{{{now, "total.item", "", Count(i + 1)}}});
        }
        for (auto& sink : sinks) {
            sink->stop();
            perMaster[m_cluster.masterOf(keySlot(fleetSecondsKey(topShardOf(sink->run()), 0)))] +=
                sink->stats().sentHits;
        }
        Count all = 0;
        for (const auto& [master, hits] : perMaster)
            all += hits;
        QCOMPARE(all, Count(78));
        QVERIFY(perMaster.size() >= 2);
        const int victim = perMaster.begin()->first;
        int entry = 0;
        while (entry == victim)
            ++entry;
        RedisClient c(parseRedisUrl(m_cluster.url(entry)));
        FleetReader reader(c);
        QCOMPARE(reader.fleetSeries(5, now).back(), all);
        QCOMPARE(reader.fleetSeriesWithout(5, now).missing.size(), std::size_t(0));
        m_cluster.kill(victim);
        const FleetReader::PartialSeries partial = reader.fleetSeriesWithout(5, now);
        QCOMPARE(partial.series.back(), all - perMaster.begin()->second);
        QCOMPARE(
            partial.missing,
            std::vector<std::string>{"127.0.0.1:" + std::to_string(m_cluster.node(victim).port())});
        QVERIFY_THROWS_EXCEPTION(RedisError, reader.fleetSeries(5, now));  // exact or nothing
    }

private:
    RedisCluster m_cluster{3, 15000};  // no failover of a master busy for a second
};

HITCOUNTER_TEST_GUILESS_MAIN(FleetScaleTest)
#include "tst_fleet_scale.moc"
