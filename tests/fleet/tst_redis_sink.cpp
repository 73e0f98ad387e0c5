// RedisSink and FleetReader against a real redis-server started by the test.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <QElapsedTimer>
#include <QTest>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>

#include "core/fleet/fleet_keys.h"
#include "core/fleet/fleet_reader.h"
#include "core/fleet/flush_commands.h"
#include "core/fleet/redis_sink.h"
#include "tests/fleet/cut_proxy.h"
#include "tests/fleet/redis_server.h"
#include "tests/fleet/sink_test_options.h"
#include "tests/test_main.h"

using namespace std::chrono_literals;
using namespace hitcounter;
using namespace hitcounter::fleet;
using hitcounter::fleet::testing::fastSinkOptions;
using hitcounter::fleet::testing::unixNow;

namespace {

// Short timeouts: the tests of a cut or silent server wait for them.
RedisSinkOptions optionsFor(const std::string& url, const std::string& instance) {
    return fastSinkOptions(url, instance, {200ms, 1000ms});
}

std::unique_ptr<RedisSink> sinkFor(const std::string& url, const std::string& instance) {
    const RedisSinkOptions o = optionsFor(url, instance);
    return std::make_unique<RedisSink>(o, std::make_unique<RedisClient>(o.url, o.timeouts));
}

// `hits` hits of `key` spread over the seconds now-9 .. now, visitors v0..v{visitors-1}.
HitBatch spread(const std::string& key, int hits, Timestamp now, int visitors = 7) {
    HitBatch batch;
    for (int i = 0; i < hits; ++i)
        batch.push_back({now - i % 10, key, "v" + std::to_string(i % visitors), 1});
    return batch;
}

ItemAnswer ask(const RedisServer& redis, const std::string& key, Timestamp now,
               Timestamp window = 300) {
    RedisClient c(parseRedisUrl(redis.url()));
    return FleetReader(c).item(key, window, now);
}

// A socket listening on 127.0.0.1:`port` that never accepts: connects complete (the kernel's
// backlog), nothing is ever answered. The descriptor, or -1.
int mutePort(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 8) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

}  // namespace

class RedisSinkTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_redis.start(), m_redis.output().c_str()); }

    void init() {
        RedisClient c(parseRedisUrl(m_redis.url()));
        c.command({"FLUSHALL"});
    }

    void twoInstancesGiveTheExactGlobalCountAndTopK() {
        const Timestamp now = unixNow();
        auto a = sinkFor(m_redis.url(), "a");
        auto b = sinkFor(m_redis.url(), "b");
        a->add(spread("g.hits", 1000, now));
        b->add(spread("g.hits", 1000, now));
        a->add(spread("p.one", 30, now));
        b->add(spread("p.two", 20, now));
        b->add(spread("p.one", 5, now));
        a->add({{now - 400, "g.hits", "", 9}});  // outside the 300 s window
        a->stop();
        b->stop();
        QCOMPARE(a->stats().droppedHits, Count(0));
        const ItemAnswer g = ask(m_redis, "g.hits", now);
        QCOMPARE(g.allTime, Count(2009));
        QCOMPARE(g.window, Count(2000));
        QCOMPARE(g.uniques, Count(7));
        QCOMPARE(ask(m_redis, "g.hits", now, 600).window, Count(2009));
        QCOMPARE(ask(m_redis, "g.hits", now, 5).window, Count(1000));  // seconds now-4..now
        RedisClient c(parseRedisUrl(m_redis.url()));
        const auto top = FleetReader(c).top(2, 300, now);
        QCOMPARE(top.size(), std::size_t(2));
        QCOMPARE(top[0].key, std::string("g.hits"));
        QCOMPARE(top[0].count, Count(2000));
        QCOMPARE(top[1].key, std::string("p.one"));
        QCOMPARE(top[1].count, Count(35));
    }

    void aSingleServerIsNotACluster() {
        RedisClient c(parseRedisUrl(m_redis.url()));
        QVERIFY(!c.cluster());
        QCOMPARE(c.masters(),
                 std::vector<std::string>{"127.0.0.1:" + std::to_string(m_redis.port())});
    }

    void hotItemsOnOneServerAreSummedToo() {
        const Timestamp now = unixNow();
        RedisSinkOptions o = optionsFor(m_redis.url(), "hot-single");
        o.hotShards = 4;
        o.hotMinHits = 10;
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        sink.add(spread("hot", 300, now, 30));
        sink.add(spread("cold", 3, now));
        sink.stop();
        QCOMPARE(sink.stats().hotItems, std::size_t(1));
        QCOMPARE(sink.stats().cluster, false);
        const ItemAnswer a = ask(m_redis, "hot", now);
        QCOMPARE(a.allTime, Count(300));
        QCOMPARE(a.window, Count(300));
        QCOMPARE(a.uniques, Count(30));
        QCOMPARE(a.instances, std::vector<std::string>{"hot-single"});
        RedisClient c(parseRedisUrl(m_redis.url()));
        QCOMPARE(c.command({"GET", totalKey("hot")}).type, RedisReply::Type::Nil);  // sub-item
        QCOMPARE(ask(m_redis, "cold", now).allTime, Count(3));
    }

    void topIsExactWhenWholeMinutesOverstateTheWindow() {
        // The window (T - 300, T] starts 31 s into its first minute. 20 decoys have 100 hits
        // in that minute's first 31 s (outside the window) and 1 inside: their per-minute
        // bound is 101, their count 1. `winner` has 50 hits inside. A reader that re-ranks
        // only the best max(4k, k + 16) bounds never looks at `winner`.
        const Timestamp now = unixNow();
        const Timestamp t = now - now % 60 - 30;  // second 30 of a past minute
        const Timestamp first = t - 299;
        RedisSinkOptions o = optionsFor(m_redis.url(), "bounds");
        o.flushInterval = 1h;  // one flush, at stop()
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        HitBatch batch;
        for (int d = 0; d < 20; ++d) {
            const std::string decoy = "decoy" + std::to_string(d);
            batch.push_back({first - 1, decoy, "", 100});
            batch.push_back({first, decoy, "", 1});
        }
        batch.push_back({t, "winner", "", 50});
        sink.add(batch);
        sink.stop();
        RedisClient c(parseRedisUrl(m_redis.url()));
        FleetReader reader(c);
        const auto top = reader.top(2, 300, t);
        QCOMPARE(top.size(), std::size_t(2));
        QCOMPARE(top[0].key, std::string("winner"));
        QCOMPARE(top[0].count, Count(50));
        QCOMPARE(top[1].key, std::string("decoy0"));  // 20 ties at 1: by key
        QCOMPARE(top[1].count, Count(1));
        QCOMPARE(reader.top(1, 360, t).front().key, std::string("decoy0"));  // 101 each
    }

    void anItemWrittenByManyInstancesIsSplitByAllOfThem() {
        const Timestamp now = unixNow();
        std::vector<std::unique_ptr<RedisSink>> sinks;
        for (int i = 0; i < 4; ++i) {
            RedisSinkOptions o = optionsFor(m_redis.url(), "rate" + std::to_string(i));
            o.hotShards = 4;
            o.hotWrites = 30;  // 4 instances x 20 flushes/s write `busy` 80 times a second
            o.hotShare = 0;    // the fleet's write rate alone decides
            sinks.push_back(std::make_unique<RedisSink>(o, std::make_unique<RedisClient>(o.url)));
        }
        Count busy = 0, quiet = 0;
        const auto allSplit = [&] {
            for (const auto& sink : sinks)
                if (sink->stats().hotItemsNow != 1)
                    return false;
            return true;
        };
        for (int round = 0; round < 500 && !allSplit(); ++round) {
            for (auto& sink : sinks) {
                sink->add(spread("busy", 3, now));
                busy += 3;
            }
            sinks[0]->add(spread("quiet", 2, now));  // 20 writes a second: stays whole
            quiet += 2;
            QTest::qWait(20);
        }
        QVERIFY(allSplit());
        for (int round = 0; round < 5; ++round) {  // now written under the sub-items
            for (auto& sink : sinks) {
                sink->add(spread("busy", 3, now));
                busy += 3;
            }
            QTest::qWait(60);
        }
        std::set<std::string> subItems;
        for (auto& sink : sinks) {
            sink->stop();
            QCOMPARE(sink->stats().droppedHits, Count(0));
            QCOMPARE(sink->stats().hotItems, std::size_t(1));
        }
        RedisClient c(parseRedisUrl(m_redis.url()));
        QCOMPARE(c.command({"ZSCORE", hotShardsKey("busy"), "shards"}).text, std::string("4"));
        QCOMPARE(c.command({"HGET", heatKey("busy"), "a"}).text, std::string("4"));
        QCOMPARE(c.command({"EXISTS", hotShardsKey("quiet")}).integer, 0LL);
        QCOMPARE(c.command({"GET", totalKey("busy")}).type, RedisReply::Type::String);  // before
        for (int k = 0; k < 4; ++k)
            if (c.command({"EXISTS", totalKey(hotSubItem("busy", k))}).integer == 1)
                subItems.insert(hotSubItem("busy", k).text());
        QVERIFY(!subItems.empty());
        const ItemAnswer a = ask(m_redis, "busy", now);
        QCOMPARE(a.allTime, busy);
        QCOMPARE(a.window, busy);
        QCOMPARE(a.uniques, Count(3));
        QCOMPARE(a.instances.size(), std::size_t(4));
        QCOMPARE(ask(m_redis, "quiet", now).allTime, quiet);
    }

    void aSplitItemThatCoolsDownMergesBack() {
        const Timestamp now = unixNow();
        std::vector<std::unique_ptr<RedisSink>> sinks;
        for (int i = 0; i < 3; ++i) {
            RedisSinkOptions o = optionsFor(m_redis.url(), "wave" + std::to_string(i));
            o.hotShards = 2;
            o.hotWrites = 40;  // 3 x 20 writes a second split it; below 10 a second is cool
            o.hotShare = 0;
            o.hotCoolFor = 1s;
            sinks.push_back(std::make_unique<RedisSink>(o, std::make_unique<RedisClient>(o.url)));
        }
        Count sent = 0;
        for (int round = 0; round < 500 && sinks[0]->stats().hotItemsNow == 0; ++round) {
            for (auto& sink : sinks) {
                sink->add(spread("wave", 2, now));
                sent += 2;
            }
            QTest::qWait(20);
        }
        QCOMPARE(sinks[0]->stats().hotItemsNow, std::size_t(1));
        // Now only instance 0 writes it, 4 times a second: the touches (every 2nd write,
        // weight 2) measure 4 a second, below a quarter of 40; after 1 s the split is lifted.
        for (int round = 0; round < 60 && sinks[0]->stats().hotMerges == 0; ++round) {
            sinks[0]->add(spread("wave", 1, now));
            sent += 1;
            QTest::qWait(250);
        }
        QCOMPARE(sinks[0]->stats().hotMerges, std::uint64_t(1));
        QCOMPARE(sinks[0]->stats().hotItemsNow, std::size_t(0));
        sinks[0]->add(spread("wave", 5, now));  // written under its own name again
        sent += 5;
        for (auto& sink : sinks)
            sink->stop();
        RedisClient c(parseRedisUrl(m_redis.url()));
        QCOMPARE(c.command({"HGET", heatKey("wave"), "a"}).text, std::string("0"));
        QCOMPARE(c.command({"ZSCORE", hotShardsKey("wave"), "shards"}).text, std::string("2"));
        const ItemAnswer a = ask(m_redis, "wave", now);
        QCOMPARE(a.allTime, sent);  // the item and its sub-items, before and after
        QCOMPARE(a.window, sent);
    }

    void aPinnedItemIsSplitAtOnceAndTheOthersFollow() {
        const Timestamp now = unixNow();
        RedisSinkOptions pinning = optionsFor(m_redis.url(), "pinning");
        pinning.hotShards = 3;
        pinning.hotPinned = {"pin"};
        RedisSinkOptions following = optionsFor(m_redis.url(), "following");
        following.hotShards = 3;
        auto a = std::make_unique<RedisSink>(pinning, std::make_unique<RedisClient>(pinning.url));
        a->add(spread("pin", 10, now));
        QTRY_VERIFY_WITH_TIMEOUT(a->stats().flushes >= 1, 5000);
        RedisClient c(parseRedisUrl(m_redis.url()));
        QCOMPARE(c.command({"GET", totalKey("pin")}).type, RedisReply::Type::Nil);  // sub-item
        QCOMPARE(c.command({"ZSCORE", hotShardsKey("pin"), "shards"}).text, std::string("3"));
        auto b =
            std::make_unique<RedisSink>(following, std::make_unique<RedisClient>(following.url));
        b->add(spread("pin", 20, now));  // its first write learns the split ...
        QTRY_VERIFY_WITH_TIMEOUT(b->stats().flushes >= 1, 5000);
        QCOMPARE(b->stats().hotItemsNow, std::size_t(1));  // learnt before the flush counted
        b->add(spread("pin", 30, now));                    // ... and its next goes to its sub-item
        a->stop();
        b->stop();
        QCOMPARE(c.command({"GET", totalKey("pin")}).text, std::string("20"));
        QCOMPARE(ask(m_redis, "pin", now).allTime, Count(60));
        QCOMPARE(ask(m_redis, "pin", now).window, Count(60));
    }

    // Regression (issue 30, item 4): a client's name "ITEM\x1fK" was the sub-item K of the
    // hot ITEM: its hits were added to ITEM, and the two shared one guard, so the second
    // script of a flush skipped the other's hits. Each is its own item now.
    void aNameWithTheSubItemSeparatorIsItsOwnItem() {
        const Timestamp now = unixNow();
        RedisSinkOptions o = optionsFor(m_redis.url(), "separator");
        o.hotShards = 2;
        o.hotPinned = {"g.hits"};
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        const std::string forged[2] = {std::string("g.hits\x1f"
                                                   "0"),
                                       std::string("g.hits\x1f"
                                                   "1")};
        HitBatch batch = spread("g.hits", 7, now);
        for (const HitEvent& e : spread(forged[0], 5, now))
            batch.push_back(e);
        for (const HitEvent& e : spread(forged[1], 3, now))
            batch.push_back(e);
        sink.add(batch);
        sink.stop();
        QCOMPARE(sink.stats().droppedHits, Count(0));
        QCOMPARE(sink.stats().duplicatesSkipped, std::uint64_t(0));
        QCOMPARE(sink.stats().hotItems, std::size_t(1));
        const ItemAnswer hot = ask(m_redis, "g.hits", now);
        QCOMPARE(hot.allTime, Count(7));
        QCOMPARE(hot.window, Count(7));
        QCOMPARE(ask(m_redis, forged[0], now).allTime, Count(5));
        QCOMPARE(ask(m_redis, forged[1], now).window, Count(3));
        RedisClient c(parseRedisUrl(m_redis.url()));
        const auto top = FleetReader(c).top(3, 300, now);
        QCOMPARE(top.size(), std::size_t(3));
        QCOMPARE(top[0].key, std::string("g.hits"));
        QCOMPARE(top[0].count, Count(7));
    }

    // Regression (issue 30, items 3 and 5): a time Redis cannot expire (|T4611686018427387903)
    // failed the item script half-way (its total and that flush's top-K lost, "0 dropped");
    // a time decades ahead made keys that lived for decades. Such hits are not sent now.
    void timesFarFromNowAreNotSentAndTheRestIsExact() {
        const Timestamp now = unixNow();
        RedisSinkOptions o = optionsFor(m_redis.url(), "times");
        o.acceptedTimes = AcceptedTimes{3600, 60};
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        const Timestamp decade = 10 * 365 * 86400;
        sink.add({{now, "x", "", 3},
                  {4611686018427387903, "x", "", 1},
                  {now + decade, "y", "", 1},
                  {now - 2 * 86400, "x", "", 1},
                  {now + 30, "w", "", 2},
                  {now - 3000, "w", "", 1}});
        sink.stop();
        const RedisSinkStats s = sink.stats();
        QCOMPARE(s.outOfWindowHits, Count(3));
        QCOMPARE(s.droppedHits, Count(0));
        QCOMPARE(s.retries, std::uint64_t(0));
        QCOMPARE(ask(m_redis, "x", now).allTime, Count(3));
        QCOMPARE(ask(m_redis, "x", now).window, Count(3));
        QCOMPARE(ask(m_redis, "y", now).allTime, Count(0));
        QCOMPARE(ask(m_redis, "w", now).allTime, Count(3));
        QCOMPARE(ask(m_redis, "w", now + 30).window, Count(2));
        // No key outlives the data's own retention after the newest accepted time.
        RedisClient c(parseRedisUrl(m_redis.url()));
        for (const std::string& key : c.scan(std::string(kCountPattern))) {
            const RedisReply at = c.command({"EXPIRETIME", key});
            QVERIFY2(at.integer <= now + std::max(kGuardRetention, 120 + kMinutesRetention) + 60,
                     key.c_str());
        }
    }

    // Each script applies all of its flush or nothing: bad arguments (a time that slipped
    // past the sink's window, as from an old log) are refused before the first write, and a
    // count that would overflow Redis' integers saturates instead of failing half-way.
    void scriptsApplyAllOrNothing() {
        const Timestamp now = unixNow();
        RedisClient c(parseRedisUrl(m_redis.url()));
        const ScriptShas shas = loadScripts(c);
        FlushBatch bad;
        bad.add({now, "half", "v", 2});
        bad.add({4611686018427387903, "half", "v", 1});
        const FlushIdentity id{"direct", "run1", 1, now};
        for (const RedisReply& reply : c.pipeline(applyCommands(bad, id, shas)))
            QVERIFY(reply.isError());
        for (const std::string& key :
             {itemGuardKey("half", "direct", "run1"), totalKey("half"),
              secondsKey("half", minuteOf(now)), topGuardKey("direct", "run1"),
              topKey(topShardOf("run1"), minuteOf(now))})
            QVERIFY2(c.command({"EXISTS", key}).integer == 0, key.c_str());
        for (std::uint64_t seq = 1; seq <= 2; ++seq) {
            FlushBatch big;
            big.add({now, "big", "", kRedisMaxCount});
            for (const RedisReply& reply :
                 c.pipeline(applyCommands(big, {"direct", "run2", seq, now}, shas))) {
                QVERIFY2(!reply.isError(), reply.text.c_str());
                QCOMPARE(reply.integer, 1LL);
            }
        }
        const std::string max = std::to_string(kRedisMaxCount);
        QCOMPARE(c.command({"GET", totalKey("big")}).text, max);
        QCOMPARE(
            c.command({"HGET", secondsKey("big", minuteOf(now)), std::to_string(now % 60)}).text,
            max);
    }

    void aliveInstancesAreListed() {
        const Timestamp now = unixNow();
        auto a = sinkFor(m_redis.url(), "alive-a");
        auto b = sinkFor(m_redis.url(), "alive-b");
        a->add(spread("k", 3, now));
        b->add(spread("other", 3, now));
        a->stop();
        b->stop();
        QCOMPARE(ask(m_redis, "k", now).instances, std::vector<std::string>{"alive-a"});
        RedisClient c(parseRedisUrl(m_redis.url()));
        c.command({"DEL", heartbeatKey("alive-a")});  // as if its heartbeat had expired
        QVERIFY(ask(m_redis, "k", now).instances.empty());
    }

    void commandsPerFlushDoNotGrowWithTheHitRate() {
        const Timestamp now = unixNow();
        std::uint64_t commands[2] = {};
        const int rates[2] = {10, 100000};
        for (int r = 0; r < 2; ++r) {
            RedisSinkOptions o = optionsFor(m_redis.url(), "rate" + std::to_string(r));
            o.flushInterval = 1h;  // only the stop() flush
            RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
            for (const char* key : {"x", "y", "z"}) {
                HitBatch batch;
                for (int i = 0; i < rates[r]; ++i)
                    batch.push_back({now - i % 2, key, "", 1});
                sink.add(batch);
            }
            sink.stop();
            QCOMPARE(sink.stats().flushes, std::uint64_t(1));
            commands[r] = sink.stats().commands;
        }
        QCOMPARE(commands[1], commands[0]);
        QCOMPARE(commands[0], std::uint64_t(3 + 1 + 1 + 2));  // 3 items, top, log, heartbeat
        QCOMPARE(ask(m_redis, "x", now).window, Count(100010));
    }

    void aRetryAfterALostReplyDoesNotCountTwice() {
        const Timestamp now = unixNow();
        CutProxy proxy(m_redis.port());
        const std::string url = "redis://127.0.0.1:" + std::to_string(proxy.port());
        auto sink = sinkFor(url, "cut");
        proxy.armCut("EVALSHA");
        sink->add(spread("once", 500, now));
        sink->add(spread("twice", 20, now));
        sink->stop();
        const RedisSinkStats s = sink->stats();
        QCOMPARE(proxy.cuts(), 1);
        QVERIFY(s.retries >= 1);
        QCOMPARE(s.duplicatesSkipped, std::uint64_t(3));  // both items and the top-K applied
        QCOMPARE(s.flushes, std::uint64_t(1));
        QCOMPARE(ask(m_redis, "once", now).allTime, Count(500));
        QCOMPARE(ask(m_redis, "once", now).window, Count(500));
        QCOMPARE(ask(m_redis, "twice", now).window, Count(20));
        RedisClient c(parseRedisUrl(m_redis.url()));
        QCOMPARE(FleetReader(c).top(1, 300, now).front().count, Count(500));
    }

    void aFullBufferDropsAndCountsWhileRedisIsDown() {
        RedisSinkOptions o =
            optionsFor("redis://127.0.0.1:" + std::to_string(RedisServer::freePort()), "down");
        o.bufferEntries = 4;
        o.acceptedTimes.reset();  // the seconds 1000.. below are not about accepted times
        RedisSink sink(o, nullptr);
        HitBatch batch;
        for (int s = 0; s < 10; ++s)
            batch.push_back({1000 + s, "k", "", Count(s + 1)});
        sink.add(batch);  // seconds 1000..1003 fit (1+2+3+4 hits), 6 are refused (45 hits)
        QCOMPARE(sink.stats().droppedHits, Count(45));
        sink.stop(300ms);  // nothing reachable: the rest is dropped too, and stop() ends
        QCOMPARE(sink.stats().droppedHits, Count(55));
        QVERIFY(sink.stats().retries >= 1);
        QVERIFY(!sink.stats().connected);
        QVERIFY(!sink.stats().lastError.empty());
    }

    // #30 item 6: during an outage the open batch is bounded in bytes too: 900-byte names
    // fill 1 MiB after about 850 items, not after bufferEntries.
    void anOutageBufferIsBoundedInBytes() {
        RedisSinkOptions o =
            optionsFor("redis://127.0.0.1:" + std::to_string(RedisServer::freePort()), "bytes");
        o.bufferBytes = 1 << 20;
        RedisSink sink(o, nullptr);
        const Timestamp now = unixNow();
        HitBatch batch;
        for (int i = 0; i < 5000; ++i)
            batch.push_back({now, std::string(896, 'k') + std::to_string(1000 + i), "", 1});
        sink.add(batch);
        const std::size_t kept =
            o.bufferBytes / (FlushBatch::kItemBytes + FlushBatch::kSecondBytes + 900);
        QCOMPARE(sink.stats().droppedHits, Count(5000 - kept));
        sink.stop(300ms);
        QCOMPARE(sink.stats().droppedHits, Count(5000));
    }

    // #30 item 6: stop(d) waits for no reply past d, whatever the timeouts. Before, the drain's
    // attempt at a server that accepts but never answers waited the whole command timeout (5 s
    // here) after the bound.
    void aStopWaitsForNoReplyPastItsBound() {
        const std::uint16_t port = RedisServer::freePort();
        RedisSinkOptions o =
            fastSinkOptions("redis://127.0.0.1:" + std::to_string(port), "mute", {5000ms, 5000ms});
        o.minBackoff = o.maxBackoff = 10s;  // the one attempt after the first is the drain's
        RedisSink sink(o, nullptr);
        sink.add(spread("m", 10, unixNow()));
        QTRY_VERIFY_WITH_TIMEOUT(sink.stats().retries >= 1, 10000);  // nothing listened yet
        const int mute = mutePort(port);
        QVERIFY(mute >= 0);
        QElapsedTimer timer;
        timer.start();
        sink.stop(300ms);
        const qint64 stopped = timer.elapsed();
        ::close(mute);
        QVERIFY2(stopped < 2500, qPrintable(QString("stop took %1 ms").arg(stopped)));
        QCOMPARE(sink.stats().droppedHits, Count(10));
        QVERIFY2(sink.stats().lastError.find("deadline") != std::string::npos ||
                     sink.stats().lastError.find("timeout") != std::string::npos,
                 sink.stats().lastError.c_str());
    }

    void rebuildAfterAWipeEqualsLive() {
        const Timestamp now = unixNow();
        auto a = sinkFor(m_redis.url(), "ra");
        auto b = sinkFor(m_redis.url(), "rb");
        for (int round = 0; round < 3; ++round) {
            a->add(spread("r.one", 100, now, 50));
            b->add(spread("r.two", 70 + round, now, 1000));
            QTest::qWait(60);  // several flushes, so several log entries
        }
        a->stop();
        b->stop();
        QVERIFY(a->stats().flushes >= 2);
        RedisClient c(parseRedisUrl(m_redis.url()));
        FleetReader reader(c);
        const ItemAnswer one = reader.item("r.one", 300, now);
        const ItemAnswer two = reader.item("r.two", 3600, now);
        const auto top = reader.top(5, 300, now);
        QVERIFY(reader.wipeCounts() > 0);
        QCOMPARE(reader.item("r.one", 300, now).allTime, Count(0));
        const RebuildResult rebuilt = reader.rebuild();
        QCOMPARE(rebuilt.logs, std::size_t(2));
        QVERIFY(rebuilt.applied > 0);
        for (const auto& [before, window] : {std::pair{one, Timestamp(300)}, {two, 3600}}) {
            const ItemAnswer after = reader.item(before.key, window, now);
            QCOMPARE(after.allTime, before.allTime);
            QCOMPARE(after.window, before.window);
            QCOMPARE(after.uniques, before.uniques);
            QCOMPARE(after.instances, before.instances);
        }
        QCOMPARE(one.allTime, Count(300));
        QVERIFY2(two.uniques >= 70 && two.uniques <= 74,  // v0..v71: HyperLogLog, near 72
                 qPrintable(QString::number(two.uniques)));
        const auto topAfter = reader.top(5, 300, now);
        QCOMPARE(topAfter.size(), top.size());
        for (std::size_t i = 0; i < top.size(); ++i) {
            QCOMPARE(topAfter[i].key, top[i].key);
            QCOMPARE(topAfter[i].count, top[i].count);
        }
        // A second rebuild changes nothing: every flush is already applied.
        QCOMPARE(reader.rebuild().applied, std::size_t(0));
        QCOMPARE(reader.item("r.one", 300, now).allTime, Count(300));
    }

    // Issue 30, item 8: an outage is reported once when it begins and once when it ends, with
    // what was held meanwhile, however many attempts fail in between.
    void anOutageIsReportedOnceAtEachEnd() {
        RedisServer redis;
        QVERIFY(redis.start());
        const Timestamp now = unixNow();
        std::mutex guard;
        std::vector<OutageNotice> notices;
        RedisSinkOptions o = optionsFor(redis.url(), "outage");
        o.onOutage = [&](const OutageNotice& n) {
            std::lock_guard lock(guard);
            notices.push_back(n);
        };
        const auto seen = [&] {
            std::lock_guard lock(guard);
            return notices;
        };
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        sink.add(spread("before", 10, now));
        QTRY_VERIFY_WITH_TIMEOUT(sink.stats().flushes >= 1, 5000);
        QVERIFY(seen().empty());  // no outage, no notice
        redis.kill();
        QTRY_VERIFY_WITH_TIMEOUT(!seen().empty(), 10000);  // the heartbeat's attempt fails
        QVERIFY(seen()[0].down);
        QVERIFY(!seen()[0].error.empty());
        QCOMPARE(seen()[0].bufferedHits, Count(0));  // everything was flushed before
        sink.add(spread("during", 25, now));
        QTRY_VERIFY_WITH_TIMEOUT(sink.stats().retries >= 3, 10000);
        QCOMPARE(seen().size(), std::size_t(1));  // once, not once per attempt
        const std::uint64_t failed = sink.stats().retries;
        QVERIFY(redis.start());
        QTRY_VERIFY_WITH_TIMEOUT(seen().size() == 2, 10000);
        const OutageNotice up = seen()[1];
        QVERIFY(!up.down);
        QCOMPARE(up.bufferedHits, Count(25));
        QCOMPARE(up.droppedHits, Count(0));
        QVERIFY(up.failedAttempts >= failed);
        QVERIFY(up.seconds > 0);
        sink.stop();
        QCOMPARE(seen().size(), std::size_t(2));
    }

    void redisKilledAndRestartedMidRunLosesAndDoublesNothing() {
        // Persistence on (every write synced), so a restart keeps what was acknowledged.
        RedisServer durable({"--appendonly", "yes", "--appendfsync", "always"});
        QVERIFY(durable.start());
        const Timestamp now = unixNow();
        auto sink = sinkFor(durable.url(), "phoenix");
        Count sent = 0;
        const auto feed = [&](int hits) {
            sink->add(spread("live", hits, now));
            sent += Count(hits);
            QTest::qWait(80);
        };
        feed(100);
        feed(100);
        durable.kill();
        feed(100);  // Redis down: held and retried
        feed(100);
        QVERIFY(!sink->stats().connected);
        QVERIFY(durable.start());
        for (int i = 0; i < 100 && !sink->stats().connected; ++i)
            QTest::qWait(20);  // resumes by itself
        QVERIFY(sink->stats().connected);
        feed(100);
        sink->stop();
        const RedisSinkStats s = sink->stats();
        QVERIFY(s.retries >= 1);
        QCOMPARE(s.droppedHits, Count(0));
        QCOMPARE(s.sentHits, sent);
        QCOMPARE(ask(durable, "live", now).allTime, sent);
        QCOMPARE(ask(durable, "live", now).window, sent);
    }

    // #30 item 2: a flush whose log entry alone exceeds proto-max-bulk-len (1 MB here) was
    // refused with a protocol error on every resend, for good. It is cut into flushes that fit
    // (half of what Redis says it accepts), all acknowledged, and the next flush goes on.
    void aFlushLargerThanRedisAcceptsIsCutAndAcknowledged() {
        RedisServer small({"--proto-max-bulk-len", "1mb"});
        QVERIFY2(small.start(), small.output().c_str());
        const Timestamp now = unixNow();
        RedisSinkOptions o = optionsFor(small.url(), "bulky");
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        HitBatch batch;
        for (int i = 0; i < 3000; ++i)  // about 1.9 MB of item names in one log entry
            batch.push_back({now, std::string(600, 'n') + std::to_string(i), "", 1});
        sink.add(batch);
        QTRY_VERIFY_WITH_TIMEOUT(sink.stats().sentHits == 3000, 30000);
        sink.add({{now, "after", "", 2}});
        QTRY_VERIFY_WITH_TIMEOUT(sink.stats().sentHits == 3002, 30000);
        sink.stop();
        const RedisSinkStats s = sink.stats();
        QCOMPARE(s.flushBytes, std::size_t(512 * 1024));
        QVERIFY(s.flushes >= 5);
        QCOMPARE(s.droppedHits, Count(0));
        QCOMPARE(s.refusedHits, Count(0));
        QCOMPARE(s.refusedFlushes, std::uint64_t(0));
        RedisClient c(parseRedisUrl(small.url()));
        QCOMPARE(std::uint64_t(c.command({"XLEN", logKey("bulky")}).integer), s.flushes);
        std::vector<RedisConnection::Command> totals;
        for (const HitEvent& e : batch)
            totals.push_back({"GET", totalKey(e.key)});
        for (const RedisReply& total : c.pipeline(totals))
            QCOMPARE(total.text, std::string("1"));
        QCOMPARE(ask(small, "after", now).allTime, Count(2));
    }

    // #30 item 7: one flush of many items is sent as flushes of at most flushEntries entries,
    // so that no script call (the top-K's above all) keeps Redis from other clients for long.
    void aFlushOfManyItemsIsSentAsScriptCallsOfBoundedWork() {
        const Timestamp now = unixNow();
        RedisSinkOptions o = optionsFor(m_redis.url(), "wide");
        o.flushInterval = 1h;  // one seal, at stop()
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        HitBatch batch;
        for (int i = 0; i < 10'000; ++i)
            batch.push_back({now - i % 3, "w" + std::to_string(i), "", 1});
        sink.add(batch);
        sink.stop(30s);
        QCOMPARE(sink.stats().sentHits, Count(10'000));
        QCOMPARE(sink.stats().flushes, std::uint64_t(10));  // 9 x 1024 + 784 entries
        RedisClient c(parseRedisUrl(m_redis.url()));
        const RedisReply log = c.command({"XRANGE", logKey("wide"), "-", "+"});
        QCOMPARE(log.elements.size(), std::size_t(10));
        Count logged = 0;
        for (const RedisReply& entry : log.elements) {
            const auto& f = entry.elements[1].elements;
            for (std::size_t i = 0; i + 1 < f.size(); i += 2)
                if (f[i].text == "data") {
                    const FlushBatch part = FlushBatch::decode(f[i + 1].text);
                    QVERIFY(part.entries() <= FlushLimits::kDefaultEntries);
                    logged += part.hits();
                }
        }
        QCOMPARE(logged, Count(10'000));
        const auto top = FleetReader(c).top(10'000, 300, now);
        QCOMPARE(top.size(), std::size_t(10'000));
    }

    // A seal cut into flushes (some holding only visitors of an item) is rebuilt from its log
    // entries to what the live flushes wrote.
    void aSealCutIntoFlushesIsRebuiltExactly() {
        const Timestamp now = unixNow();
        RedisSinkOptions o = optionsFor(m_redis.url(), "cut-seal");
        o.flushInterval = 1h;  // one seal, at stop()
        o.flushEntries = 16;
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        sink.add(spread("c.one", 200, now, 90));
        sink.add(spread("c.two", 30, now, 3));
        sink.stop();
        QVERIFY(sink.stats().flushes >= 6);
        RedisClient c(parseRedisUrl(m_redis.url()));
        FleetReader reader(c);
        const ItemAnswer one = reader.item("c.one", 300, now);
        const ItemAnswer two = reader.item("c.two", 300, now);
        QCOMPARE(one.allTime, Count(200));
        QVERIFY2(one.uniques >= 88 && one.uniques <= 92, qPrintable(QString::number(one.uniques)));
        QVERIFY(reader.wipeCounts() > 0);
        QVERIFY(reader.rebuild().applied > 0);
        for (const ItemAnswer& before : {one, two}) {
            const ItemAnswer after = reader.item(before.key, 300, now);
            QCOMPARE(after.allTime, before.allTime);
            QCOMPARE(after.window, before.window);
            QCOMPARE(after.uniques, before.uniques);
        }
    }

    // #30 item 2: a flush Redis refuses (here: its guard key was made a hash, WRONGTYPE) is
    // reported once, its hits counted as refused, and never resent: the next flushes go on.
    void aFlushRedisRefusesIsReportedOnceAndNeverBlocksTheNext() {
        const Timestamp now = unixNow();
        std::mutex guard;
        std::vector<RefusedNotice> notices;
        RedisSinkOptions o = optionsFor(m_redis.url(), "refused");
        o.onRefused = [&](const RefusedNotice& n) {
            std::lock_guard lock(guard);
            notices.push_back(n);
        };
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        RedisClient c(parseRedisUrl(m_redis.url()));
        c.command({"HSET", itemGuardKey("bad", "refused", sink.run()), "x", "1"});
        sink.add({{now, "bad", "", 5}, {now, "good", "", 3}});
        QTRY_VERIFY_WITH_TIMEOUT(sink.stats().refusedFlushes == 1, 10000);
        sink.add({{now, "good", "", 4}});
        QTRY_VERIFY_WITH_TIMEOUT(sink.stats().sentHits == 7, 10000);
        sink.stop();
        const RedisSinkStats s = sink.stats();
        QCOMPARE(s.refusedFlushes, std::uint64_t(1));
        QCOMPARE(s.refusedHits, Count(5));
        QCOMPARE(s.droppedHits, Count(0));
        QCOMPARE(s.retries, std::uint64_t(0));
        std::lock_guard lock(guard);
        QCOMPARE(notices.size(), std::size_t(1));
        QCOMPARE(notices[0].hits, Count(5));
        QVERIFY2(notices[0].error.find("WRONGTYPE") != std::string::npos, notices[0].error.c_str());
        QCOMPARE(ask(m_redis, "good", now).allTime, Count(7));
        QCOMPARE(c.command({"GET", totalKey("bad")}).type, RedisReply::Type::Nil);
    }

    // #30 item 2: a second whose item name alone needs more than a flush may have is refused
    // before it is sent (counted, reported), and the rest of its flush is sent.
    void hitsTooBigForAnyFlushAreRefusedAndTheRestIsSent() {
        const Timestamp now = unixNow();
        std::mutex guard;
        std::vector<RefusedNotice> notices;
        RedisSinkOptions o = optionsFor(m_redis.url(), "toobig");
        o.flushBytes = 16 * 1024;
        o.onRefused = [&](const RefusedNotice& n) {
            std::lock_guard lock(guard);
            notices.push_back(n);
        };
        RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
        sink.add({{now, std::string(20'000, 'x'), "", 6}, {now, "fits", "", 2}});
        sink.stop();
        const RedisSinkStats s = sink.stats();
        QCOMPARE(s.flushBytes, std::size_t(16 * 1024));
        QCOMPARE(s.refusedHits, Count(6));
        QCOMPARE(s.sentHits, Count(2));
        QCOMPARE(s.droppedHits, Count(0));
        std::lock_guard lock(guard);
        QCOMPARE(notices.size(), std::size_t(1));
        QCOMPARE(notices[0].hits, Count(6));
        QCOMPARE(ask(m_redis, "fits", now).allTime, Count(2));
    }

private:
    RedisServer m_redis;
};

HITCOUNTER_TEST_GUILESS_MAIN(RedisSinkTest)
#include "tst_redis_sink.moc"
