// What the fleet view reads (core/fleet/fleet_poll.h, FleetReader's series and heartbeats)
// against a real redis-server started by the test (redis_server.h); outages and lost counts
// (a restart without persistence, a wipe) as the view is told of them.
#include <QTest>
#include <chrono>
#include <memory>
#include <numeric>

#include "core/fleet/fleet_keys.h"
#include "core/fleet/fleet_poll.h"
#include "core/fleet/redis_info.h"
#include "core/fleet/redis_sink.h"
#include "tests/fleet/redis_server.h"
#include "tests/fleet/sink_test_options.h"
#include "tests/test_main.h"

using namespace std::chrono_literals;
using namespace hitcounter;
using namespace hitcounter::fleet;
using hitcounter::fleet::testing::fastSinkOptions;
using hitcounter::fleet::testing::unixNow;

namespace {

bool flushedPast(const RedisSink& sink, std::uint64_t flushes) {
    for (int waited = 0; waited < 5000; waited += 10) {
        if (sink.stats().flushes > flushes)
            return true;
        QTest::qWait(10);
    }
    return false;
}

// A poller of `url` reading every 100 ms (a test sees a change within a few reads).
FleetPollOptions everyTenthOfASecond(const std::string& url) {
    FleetPollOptions options;
    options.url = parseRedisUrl(url);
    options.interval = 100ms;
    return options;
}

Count sum(const std::vector<Count>& v) {
    return std::accumulate(v.begin(), v.end(), Count(0));
}

}  // namespace

class FleetPollTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_redis.start(), m_redis.output().c_str()); }
    void init() { RedisConnection(parseRedisUrl(m_redis.url())).command({"FLUSHALL"}); }

    void theFleetsHitsPerSecondSumEveryItemOnceAndSurviveARebuild() {
        const Timestamp now = unixNow();
        auto a = std::make_unique<RedisSink>(fastSinkOptions(m_redis.url(), "a"), nullptr);
        auto b = std::make_unique<RedisSink>(fastSinkOptions(m_redis.url(), "b"), nullptr);
        a->add({{now - 5, "x", "v1", 3}, {now - 2, "x", "v1", 2}});
        b->add({{now - 5, "y", "v2", 4}, {now - 400, "y", "v2", 100}});  // outside 300 s
        a->stop();
        b->stop();
        RedisClient client(parseRedisUrl(m_redis.url()));
        FleetReader reader(client);
        const auto live = reader.fleetSeries(300, now);
        QCOMPARE(live.size(), std::size_t(300));
        QCOMPARE(live[294], Count(7));  // now - 5: both items
        QCOMPARE(live[297], Count(2));
        QCOMPARE(sum(live), Count(9));
        QCOMPARE(sum(reader.itemSeries("x", 300, now)), Count(5));
        QCOMPARE(reader.itemSeries("y", 300, now)[294], Count(4));
        QCOMPARE(sum(reader.fleetSeries(600, now)), Count(109));
        // The total is written by the guarded top-K script: a rebuild restores it, twice
        // changes nothing.
        QVERIFY(reader.wipeCounts() > 0);
        QCOMPARE(sum(reader.fleetSeries(300, now)), Count(0));
        reader.rebuild();
        reader.rebuild();
        QCOMPARE(reader.fleetSeries(300, now), live);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, reader.fleetSeries(601, now));
    }

    void heartbeatsNameAliveInstancesWithTheirDrops() {
        RedisSinkOptions o = fastSinkOptions(m_redis.url(), "dropper");
        o.bufferEntries = 1;
        RedisSink dropper(o, nullptr);
        RedisSink quiet(fastSinkOptions(m_redis.url(), "quiet"), nullptr);
        const Timestamp now = unixNow();
        dropper.add({{now, "k", "", 2}, {now - 1, "k", "", 3}});  // the second entry is refused
        QCOMPARE(dropper.stats().droppedHits, Count(3));
        QVERIFY(flushedPast(dropper, 0));
        QVERIFY(QTest::qWaitFor(
            [&] {
                RedisClient client(parseRedisUrl(m_redis.url()));
                const auto alive = FleetReader(client).instances();
                return alive.size() == 2 && alive[0].name == "dropper" && alive[0].droppedHits == 3;
            },
            5000));
        RedisClient client(parseRedisUrl(m_redis.url()));
        const auto alive = FleetReader(client).instances();
        QCOMPARE(alive[1].name, std::string("quiet"));
        QCOMPARE(alive[1].droppedHits, Count(0));
        QCOMPARE(alive[0].version, std::string("test"));
        QVERIFY(std::abs(alive[0].lastFlush - double(unixNow())) < 5);
        QCOMPARE(client.command({"HGET", heartbeatKey("dropper"), "dropped_hits"}).text,
                 std::string("3"));
    }

    void thePollerReadsAServerAsOneNodeAndFollowsTheSelection() {
        const Timestamp now = unixNow();
        auto a = std::make_unique<RedisSink>(fastSinkOptions(m_redis.url(), "a"), nullptr);
        a->add(
            {{now - 3, "big", "u1", 30}, {now - 3, "big", "u2", 1}, {now - 2, "small", "u3", 4}});
        QVERIFY(flushedPast(*a, 0));
        FleetPoller poller(everyTenthOfASecond(m_redis.url()));
        QVERIFY(QTest::qWaitFor(
            [&] {
                const auto s = poller.latest();
                return s && s->totalWindow == 35 && !s->instances.empty();
            },
            3000));
        auto s = poller.latest();
        QVERIFY(s->connected && !s->dataStale && s->problem.empty());
        QVERIFY(!s->cluster);
        QCOMPARE(s->nodes.size(), std::size_t(1));
        QCOMPARE(s->nodes[0].role, std::string("master"));
        QCOMPARE(s->nodes[0].slots, kClusterSlots);
        QCOMPARE(s->nodes[0].state, std::string("ok"));
        QVERIFY(s->nodes[0].usedMemory > 0);
        QCOMPARE(s->top.size(), std::size_t(2));
        QCOMPARE(s->top[0].key, std::string("big"));
        QCOMPARE(s->top[0].window, Count(31));
        QCOMPARE(s->top[0].uniques, Count(2));
        QCOMPARE(s->selected, std::string("big"));  // the top item by default
        QCOMPARE(s->selectedWindow, Count(31));
        poller.setSelected("small");
        QVERIFY(QTest::qWaitFor([&] { return poller.latest()->selected == "small"; }, 3000));
        QCOMPARE(poller.latest()->selectedWindow, Count(4));
        // The window ends 2 s back by default (the newest seconds are still being flushed).
        QVERIFY(poller.latest()->now <= unixNow() - 2);
        QCOMPARE(poller.latest()
                     ->selectedSeries[std::size_t(300 - 1 - (poller.latest()->now - (now - 2)))],
                 Count(4));
        a->stop();
    }

    void anUnreachableServerIsReportedAndRetried() {
        FleetPollOptions options;
        options.url = parseRedisUrl("redis://127.0.0.1:" + std::to_string(RedisServer::freePort()));
        options.interval = 50ms;
        FleetPoller poller(options);
        QVERIFY(QTest::qWaitFor([&] { return poller.latest() && poller.latest()->sequence >= 3; },
                                5000));
        const auto s = poller.latest();
        QVERIFY(!s->connected);
        QVERIFY(!s->problem.empty());
        poller.requestStop();
        QVERIFY(QTest::qWaitFor([&] { return poller.finished(); }, 3000));
    }

    // Issue 23 item 8: Redis killed and restarted without persistence. While it is down the
    // snapshot says so (an outage going on, instances not known); back, the outage is closed
    // as a restart and the counts it lost are named: the window count before (42), after, the
    // hits gone, and that the instances' logs went with it.
    void aRestartWithoutPersistenceIsAnOutageAndALoss() {
        RedisServer server;
        QVERIFY(server.start());
        auto sink = std::make_unique<RedisSink>(fastSinkOptions(server.url(), "solo"), nullptr);
        sink->add({{unixNow() - 3, "item", "v", 42}});
        QVERIFY(flushedPast(*sink, 0));
        FleetPoller poller(everyTenthOfASecond(server.url()));
        QVERIFY(QTest::qWaitFor(
            [&] { return poller.latest() && poller.latest()->totalWindow == 42; }, 5000));
        QVERIFY(poller.latest()->instancesKnown);
        QVERIFY(poller.latest()->outages.empty());
        QVERIFY(!poller.latest()->loss);
        server.kill();
        QVERIFY(QTest::qWaitFor(
            [&] {
                const auto s = poller.latest();
                return !s->outages.empty() && s->outages.back().to == 0;
            },
            5000));
        QVERIFY(!poller.latest()->instancesKnown);
        QCOMPARE(poller.latest()->instances.size(), std::size_t(1));  // the last known
        QVERIFY(server.start());                                      // empty
        sink->add({{unixNow(), "item", "v", 5}});
        QVERIFY(QTest::qWaitFor(
            [&] {
                const auto s = poller.latest();
                return s->connected && s->outages.back().to > 0 && s->loss.has_value();
            },
            8000));
        const auto s = poller.latest();
        QCOMPARE(s->outages.size(), std::size_t(1));
        QVERIFY(s->outages.back().restarted);
        QVERIFY(s->outages.back().to > s->outages.back().from);
        QCOMPARE(s->loss->before, Count(42));
        QCOMPARE(s->loss->lostHits, Count(42));
        QVERIFY(s->loss->after <= Count(5));
        QCOMPARE(s->loss->at, s->outages.back().from);
        QVERIFY(!s->loss->logsLeft);  // the logs lived in the same Redis
        QVERIFY(QTest::qWaitFor([&] { return poller.latest()->instancesKnown; }, 5000));
    }

    // The counting keys wiped, the logs kept (as `rebuild --wipe-first` leaves them): a loss
    // whose notice can promise a rebuild, and that ends when the rebuild has restored them.
    void aWipeWithTheLogsLeftIsALossThatARebuildEnds() {
        auto sink = std::make_unique<RedisSink>(fastSinkOptions(m_redis.url(), "w"), nullptr);
        sink->add({{unixNow() - 4, "item", "v", 30}});
        sink->stop();
        FleetPoller poller(everyTenthOfASecond(m_redis.url()));
        QVERIFY(QTest::qWaitFor(
            [&] { return poller.latest() && poller.latest()->totalWindow == 30; }, 5000));
        RedisClient client(parseRedisUrl(m_redis.url()));
        FleetReader reader(client);
        QVERIFY(reader.wipeCounts() > 0);
        QVERIFY(QTest::qWaitFor([&] { return poller.latest()->loss.has_value(); }, 5000));
        const auto s = poller.latest();
        QCOMPARE(s->loss->before, Count(30));
        QCOMPARE(s->loss->after, Count(0));
        QCOMPARE(s->loss->lostHits, Count(30));
        QVERIFY(s->loss->logsLeft);
        QVERIFY(s->outages.empty());  // the same process: no outage
        reader.rebuild();
        QVERIFY(QTest::qWaitFor(
            [&] {
                const auto now = poller.latest();
                return !now->loss && now->totalWindow == 30;
            },
            5000));
    }

    void clusterNodesAreParsedWithRolesSlotsAndFailures() {
        const std::string text =
            "a1 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460\n"
            "b2 127.0.0.1:7001@17001 master - 0 0 2 connected 5461-10922 [5462->-c3]\n"
            "c3 127.0.0.1:7002@17002,host master,fail - 0 0 3 disconnected 10923-16382 16383\n"
            "d4 127.0.0.1:7003@17003 slave a1 0 0 1 connected\n"
            "e5 127.0.0.1:7004@17004 slave,fail? b2 0 0 2 connected\n";
        const auto nodes = parseClusterNodes(text);
        QCOMPARE(nodes.size(), std::size_t(4 + 1));
        QCOMPARE(nodes[0].address, std::string("127.0.0.1:7000"));
        QCOMPARE(nodes[0].slots, 5461);
        QCOMPARE(nodes[1].slots, 5462);
        QCOMPARE(nodes[2].address, std::string("127.0.0.1:7002"));
        QCOMPARE(nodes[2].slots, 5461);
        QCOMPARE(nodes[2].state, std::string("failing"));
        QCOMPARE(nodes[3].role, std::string("replica"));
        QCOMPARE(nodes[3].masterAddress, std::string("127.0.0.1:7000"));
        QCOMPARE(nodes[3].state, std::string("ok"));
        QCOMPARE(nodes[4].state, std::string("failing"));
        QCOMPARE(nodes[4].masterAddress, std::string("127.0.0.1:7001"));
    }

    // INFO fields as the server writes them: CRLF lines under "# Section" headers. A field is
    // found only by its whole name at a line start (used_cpu_sys, not used_cpu_sys_children),
    // the first line included; an absent or non-numeric field is 0.
    void infoFieldsAreReadByWholeNameFromCrlfLines() {
        const std::string info =
            "used_cpu_sys_children:9.00\r\n# CPU\r\nused_cpu_sys:1.50\r\n"
            "used_cpu_user:2.25\r\nrole:master\r\nnote:x";
        QCOMPARE(infoField(info, "used_cpu_sys_children"), std::string("9.00"));
        QCOMPARE(infoNumber(info, "used_cpu_sys"), 1.5);
        QCOMPARE(infoNumber(info, "used_cpu_user"), 2.25);
        QCOMPARE(infoField(info, "role"), std::string("master"));
        QCOMPARE(infoField(info, "note"), std::string("x"));
        QCOMPARE(infoField(info, "cpu_sys"), std::string());
        QCOMPARE(infoNumber(info, "role"), 0.0);
        QCOMPARE(infoNumber(info, "absent"), 0.0);
    }

private:
    RedisServer m_redis;
};

HITCOUNTER_TEST_MAIN(FleetPollTest)
#include "tst_fleet_poll.moc"
