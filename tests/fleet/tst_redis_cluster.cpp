// RedisSink, FleetReader and RedisClient against a real Redis Cluster (3 masters, 3 replicas,
// tests/fleet/redis_cluster.h) started by the test: routing, redirects, failover, hot items.
#include <QTest>
#include <chrono>
#include <map>
#include <memory>
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

std::unique_ptr<RedisSink> sinkFor(const RedisSinkOptions& o) {
    return std::make_unique<RedisSink>(o, std::make_unique<RedisClient>(o.url, o.timeouts));
}

// `hits` hits of `key` at second `at`, visitors v0..v{visitors-1}.
HitBatch at(const std::string& key, int hits, Timestamp second, int visitors = 5) {
    HitBatch batch;
    for (int i = 0; i < hits; ++i)
        batch.push_back({second, key, "v" + std::to_string(i % visitors), 1});
    return batch;
}

// Waits (bounded) until `sink` acknowledged more than `flushes` flushes.
bool flushedPast(const RedisSink& sink, std::uint64_t flushes, int timeoutMs = 5000) {
    for (int waited = 0; waited < timeoutMs; waited += 10) {
        if (sink.stats().flushes > flushes)
            return true;
        QTest::qWait(10);
    }
    return false;
}

}  // namespace

class RedisClusterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_cluster.start(), m_cluster.error().c_str()); }

    void slotsFollowTheClusterSpecification() {
        QCOMPARE(crc16("123456789"), std::uint16_t(0x31C3));  // the spec's check value
        QCOMPARE(keySlot("123456789"), 0x31C3 % 16384);
        QCOMPARE(keySlot("hc:{g.hits}:total"), keySlot("g.hits"));
        QCOMPARE(keySlot("{user1000}.following"), keySlot("{user1000}.followers"));
        QCOMPARE(routingKey({"EVALSHA", "sha", "2", "k1", "k2"}), std::string_view("k1"));
        QCOMPARE(routingKey({"ZUNION", "2", "a", "b"}), std::string_view("a"));
        QVERIFY(routingKey({"PING"}).empty());
        // Redis agrees with our slot for a few keys: an empty tag ("a{}b", "{}x") hashes the
        // whole key, only the first tag counts ("a{b}{c}").
        for (const std::string key : {"g.hits", "hc:{top}:m:1", "x", "a{}b", "{}x", "a{b}{c}",
                                      "hot\x1f"
                                      "3"}) {
            const RedisReply slot = m_cluster.on(0, {"CLUSTER", "KEYSLOT", key});
            QCOMPARE(slot.integer, (long long)keySlot(key));
        }
    }

    void anyNodeIsEnoughToFindTheCluster() {
        for (int i = 0; i < m_cluster.size(); ++i) {
            RedisClient c(parseRedisUrl(m_cluster.url(i)));
            QVERIFY(c.cluster());
            QCOMPARE(c.masters().size(), std::size_t(3));
        }
    }

    void severalInstancesGiveTheExactGlobalCountQueriedViaAnyNode() {
        const Timestamp now = unixNow();
        std::vector<std::unique_ptr<RedisSink>> sinks;
        for (int i = 0; i < 3; ++i) {
            RedisSinkOptions o = fastSinkOptions(m_cluster.url(i), "inst" + std::to_string(i));
            o.replicaWait = 5s;  // a loaded CI machine (sanitizers) may be slow to replicate
            sinks.push_back(sinkFor(o));
        }
        // 60 items spread over the slots (so over the three masters), each instance i sends
        // item k (k + i + 1) hits per round, 4 rounds, at seconds now-3..now.
        std::map<std::string, Count> expected;
        for (int round = 0; round < 4; ++round) {
            for (std::size_t i = 0; i < sinks.size(); ++i) {
                HitBatch batch;
                for (int k = 0; k < 60; ++k) {
                    const std::string item = "item" + std::to_string(k);
                    const int hits = k + int(i) + 1;
                    for (int h = 0; h < hits; ++h)
                        batch.push_back({now - round, item, "u" + std::to_string(h % 4), 1});
                    expected[item] += Count(hits);
                }
                sinks[i]->add(batch);
            }
            QTest::qWait(60);
        }
        std::set<std::string> nodesUsed;
        for (auto& sink : sinks) {
            sink->stop();
            const RedisSinkStats s = sink->stats();
            QCOMPARE(s.droppedHits, Count(0));
            QVERIFY(s.cluster);
            QCOMPARE(s.unreplicatedAcks, std::uint64_t(0));  // every part reached a replica
            for (const auto& [node, commands] : s.commandsPerNode)
                if (commands > 0)
                    nodesUsed.insert(node);
        }
        QCOMPARE(nodesUsed.size(), std::size_t(3));  // the three masters, never a replica
        for (int node = 0; node < m_cluster.size(); ++node) {
            RedisClient c(parseRedisUrl(m_cluster.url(node)));
            FleetReader reader(c);
            for (const std::string item : {"item0", "item17", "item59"}) {
                const ItemAnswer a = reader.item(item, 300, now);
                QCOMPARE(a.allTime, expected[item]);
                QCOMPARE(a.window, expected[item]);
                // u0..u3, but item0 gets at most 3 hits per instance (u0..u2).
                QCOMPARE(a.uniques, Count(item == "item0" ? 3 : 4));
                QCOMPARE(a.instances, (std::vector<std::string>{"inst0", "inst1", "inst2"}));
            }
            const auto top = reader.top(2, 300, now);
            QCOMPARE(top.size(), std::size_t(2));
            QCOMPARE(top[0].key, std::string("item59"));
            QCOMPARE(top[0].count, expected["item59"]);
        }
    }

    void aSlotMigrationIsFollowedThroughAskAndMoved() {
        const std::string item = "migrating.item";
        const int slot = keySlot(item);
        const int from = m_cluster.masterOf(slot);
        QVERIFY(from >= 0);
        int to = -1;
        for (int i = 0; i < m_cluster.size() && to < 0; ++i)
            if (i != from && m_cluster.on(i, {"ROLE"}).elements.front().text == "master")
                to = i;
        QVERIFY(to >= 0);
        const Timestamp second = unixNow();  // one second: the item's keys stay the same set
        auto sink = sinkFor(fastSinkOptions(m_cluster.url(0), "mover"));
        sink->add(at(item, 100, second));
        QVERIFY(flushedPast(*sink, 0));

        // Migration under way: the slot's keys move from `from` to `to`, the map still says
        // `from`, which now answers ASK (it no longer holds the keys).
        const std::string slotText = std::to_string(slot);
        const std::string toId = m_cluster.nodeId(to);
        const std::string fromId = m_cluster.nodeId(from);
        m_cluster.on(to, {"CLUSTER", "SETSLOT", slotText, "IMPORTING", fromId});
        m_cluster.on(from, {"CLUSTER", "SETSLOT", slotText, "MIGRATING", toId});
        const RedisReply keys = m_cluster.on(from, {"CLUSTER", "GETKEYSINSLOT", slotText, "1000"});
        QVERIFY(keys.elements.size() >= 4);
        RedisConnection::Command migrate{
            "MIGRATE", "127.0.0.1", std::to_string(m_cluster.node(to).port()), "", "0",
            "5000",    "KEYS"};
        for (const RedisReply& key : keys.elements)
            migrate.push_back(key.text);
        m_cluster.on(from, migrate);
        const std::uint64_t flushed = sink->stats().flushes;
        sink->add(at(item, 50, second));
        QVERIFY(flushedPast(*sink, flushed));
        QVERIFY2(sink->stats().ask >= 1, sink->stats().lastError.c_str());

        // Migration done: `from` now answers MOVED.
        // The spec's order: the importing node first, then the migrating one, then the rest.
        m_cluster.on(to, {"CLUSTER", "SETSLOT", slotText, "NODE", toId});
        m_cluster.on(from, {"CLUSTER", "SETSLOT", slotText, "NODE", toId});
        for (int i = 0; i < m_cluster.size(); ++i)
            if (i != to && i != from && m_cluster.on(i, {"ROLE"}).elements.front().text == "master")
                m_cluster.on(i, {"CLUSTER", "SETSLOT", slotText, "NODE", toId});
        const std::uint64_t flushed2 = sink->stats().flushes;
        sink->add(at(item, 25, second));
        QVERIFY(flushedPast(*sink, flushed2));
        QVERIFY(sink->stats().moved >= 1);
        sink->stop();
        QCOMPARE(sink->stats().droppedHits, Count(0));

        QCOMPARE(m_cluster.masterOf(slot), to);
        RedisClient c(parseRedisUrl(m_cluster.url(from)));
        const ItemAnswer a = FleetReader(c).item(item, 300, second);
        QCOMPARE(a.allTime, Count(175));
        QCOMPARE(a.window, Count(175));
        QCOMPARE(a.uniques, Count(5));
        QVERIFY2(m_cluster.waitOk(30000), m_cluster.error().c_str());
    }

    void hotItemSubKeysAreSummedRight() {
        const Timestamp now = unixNow();
        std::vector<std::unique_ptr<RedisSink>> sinks;
        for (int i = 0; i < 4; ++i) {
            RedisSinkOptions o = fastSinkOptions(m_cluster.url(i), "hot" + std::to_string(i));
            o.hotShards = 8;
            o.hotMinHits = 100;
            sinks.push_back(sinkFor(o));
        }
        Count hot = 0, cold = 0;
        for (int round = 0; round < 3; ++round) {
            for (auto& sink : sinks) {
                sink->add(at("hot.item", 400, now - round, 40));
                sink->add(at("cold.item", 10, now - round));
                hot += 400;
                cold += 10;
            }
            QTest::qWait(70);
        }
        std::set<std::string> subItems;
        for (auto& sink : sinks) {
            sink->stop();
            QCOMPARE(sink->stats().droppedHits, Count(0));
            QCOMPARE(sink->stats().hotItems, std::size_t(1));
        }
        RedisClient c(parseRedisUrl(m_cluster.url(5)));
        for (int k = 0; k < 8; ++k)
            if (c.command({"EXISTS", totalKey(hotSubItem("hot.item", k))}).integer == 1)
                subItems.insert(hotSubItem("hot.item", k).text());
        QVERIFY(!subItems.empty());
        QCOMPARE(c.command({"ZSCORE", hotShardsKey("hot.item"), "shards"}).text, std::string("8"));
        FleetReader reader(c);
        const ItemAnswer a = reader.item("hot.item", 300, now);
        QCOMPARE(a.allTime, hot);
        QCOMPARE(a.window, hot);
        QCOMPARE(a.uniques, Count(40));  // HyperLogLogs merged across slots
        QCOMPARE(a.instances.size(), std::size_t(4));
        QCOMPARE(reader.item("cold.item", 300, now).allTime, cold);
        QCOMPARE(c.command({"EXISTS", hotShardsKey("cold.item")}).integer, 0LL);
        const auto top = reader.top(1, 300, now);
        QCOMPARE(top.front().key, std::string("hot.item"));
        QCOMPARE(top.front().count, hot);

        // The logs carry the routes: a rebuild after a wipe gives the same answers.
        QVERIFY(reader.wipeCounts() > 0);
        QCOMPARE(reader.item("hot.item", 300, now).allTime, Count(0));
        reader.rebuild();
        QCOMPARE(reader.item("hot.item", 300, now).allTime, hot);
        QCOMPARE(reader.item("hot.item", 300, now).window, hot);
        QCOMPARE(reader.item("cold.item", 300, now).window, cold);
    }

    // Last: it kills a master.
    // Regression (issue 30, item 1): a name with a '}' ended the hash tag early, so its keys
    // fell into different slots and every flush was refused (CROSSSLOT) for every item; names
    // "top" and "top:K" shared the top-K shards' keys and guard. Each name is its own item now.
    void noClientNameChangesASlotOrSharesAKey() {
        const Timestamp now = unixNow();
        std::vector<std::string> names{"}x",
                                       "{a}b",
                                       "a}:s:1",
                                       "}",
                                       "{",
                                       "x\x1e"
                                       "7Dx",  // what "}x" is escaped to, sent as a name
                                       "top",
                                       "plain.item"};
        for (int shard = 0; shard < kTopShards; ++shard)
            names.push_back("top:" + std::to_string(shard));
        RedisClient c(parseRedisUrl(m_cluster.url(1)));
        FleetReader reader(c);
        const auto fleetTotal = [&] {
            Count sum = 0;
            for (const Count second : reader.fleetSeries(300, now))
                sum += second;
            return sum;
        };
        const Count before = fleetTotal();  // the earlier tests' hits
        RedisSinkOptions o = fastSinkOptions(m_cluster.url(0), "hostile");
        o.replicaWait = 5s;
        auto sink = sinkFor(o);
        std::map<std::string, Count> expected;
        Count total = 0;
        HitBatch batch;
        for (std::size_t k = 0; k < names.size(); ++k) {
            const int hits = int(k) + 2;
            for (int h = 0; h < hits; ++h)
                batch.push_back({now - h % 3, names[k], "v" + std::to_string(h % 2), 1});
            expected[names[k]] = Count(hits);
            total += Count(hits);
        }
        sink->add(batch);
        QVERIFY(flushedPast(*sink, 0));
        sink->stop(10s);
        const RedisSinkStats s = sink->stats();
        QCOMPARE(s.droppedHits, Count(0));
        QCOMPARE(s.retries, std::uint64_t(0));
        QCOMPARE(s.duplicatesSkipped, std::uint64_t(0));
        for (const std::string& name : names) {
            const ItemAnswer a = reader.item(name, 300, now);
            QVERIFY2(a.allTime == expected[name], name.c_str());
            QVERIFY2(a.window == expected[name], name.c_str());
            QCOMPARE(a.uniques, Count(2));
            QCOMPARE(a.instances, std::vector<std::string>{"hostile"});
            // Every key of the item is in the slot of its tag.
            for (const std::string& key : {totalKey(name), secondsKey(name, minuteOf(now))})
                QCOMPARE(keySlot(key), keySlot(ItemTag(name).text()));
        }
        std::size_t ranked = 0;  // the earlier tests' items are ranked too
        for (const RankedItem& item : reader.top(1000, 300, now))
            if (expected.contains(item.key)) {
                QVERIFY2(item.count == expected[item.key], item.key.c_str());
                ++ranked;
            }
        QCOMPARE(ranked, names.size());
        // No item's counts were added to the top-K shards' totals.
        QCOMPARE(fleetTotal() - before, total);
    }

    void aKilledMasterIsReplacedWithoutLossOrDoubleCounting() {
        const Timestamp now = unixNow();
        const std::string item = "failover.item";
        const int victim = m_cluster.masterOf(keySlot(item));
        QVERIFY(victim >= 0);
        const int heir = m_cluster.replicaOf(victim);
        QVERIFY(heir >= 0);
        int entry = 0;  // a node that stays up
        while (entry == victim)
            ++entry;
        std::vector<std::unique_ptr<RedisSink>> sinks;
        for (const char* name : {"fo-a", "fo-b"}) {
            RedisSinkOptions o = fastSinkOptions(m_cluster.url(entry), name);
            sinks.push_back(sinkFor(o));
        }
        Count fed = 0;
        const auto feed = [&] {
            for (auto& sink : sinks) {
                sink->add(at(item, 20, now, 3));
                sink->add(at("failover.other", 5, now, 3));
                fed += 20;
            }
            QTest::qWait(40);
        };
        for (int i = 0; i < 10; ++i)
            feed();
        m_cluster.kill(victim);
        // Take over now rather than after the node timeout (the old master is gone).
        m_cluster.on(heir, {"CLUSTER", "FAILOVER", "TAKEOVER"});
        for (int i = 0; i < 10; ++i)
            feed();
        QVERIFY2(m_cluster.waitOk(30000), m_cluster.error().c_str());
        for (int i = 0; i < 10; ++i)
            feed();
        for (auto& sink : sinks) {
            sink->stop(10s);
            const RedisSinkStats s = sink->stats();
            QCOMPARE(s.droppedHits, Count(0));
            QVERIFY(s.connected);
        }
        QCOMPARE(m_cluster.masterOf(keySlot(item)), heir);
        RedisClient c(parseRedisUrl(m_cluster.url(heir)));
        FleetReader reader(c);
        const ItemAnswer a = reader.item(item, 300, now);
        QCOMPARE(a.allTime, fed);  // nothing lost, nothing counted twice
        QCOMPARE(a.window, fed);
        QCOMPARE(reader.item("failover.other", 300, now).allTime, fed / 4);
    }

private:
    RedisCluster m_cluster;
};

HITCOUNTER_TEST_GUILESS_MAIN(RedisClusterTest)
#include "tst_redis_cluster.moc"
