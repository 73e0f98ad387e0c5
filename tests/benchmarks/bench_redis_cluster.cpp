// Fleet mode on real Redis Clusters started here (tests/fleet/redis_cluster.h), each master
// with one replica:
// - flush of 100 000 items (one second of traffic) by one instance, on one plain redis-server
//   and on clusters of 1, 3 and 6 masters: time, items/s, commands per node;
// - a hot item (most of the hits and visitors) from 8 instances, with and without
//   --hot-shards: commands and main-thread CPU per node;
// - failover gap: the longest time without an acknowledged flush (100 ms interval) around a
//   SIGKILLed master, with the automatic failover (cluster-node-timeout 1000 ms) and with an
//   operator's CLUSTER FAILOVER TAKEOVER on its replica.
// Medians of `runs` runs (argument 1, default 3). Run:
//   build/default/tests/benchmarks/bench_redis_cluster [runs]   (numbers: docs/benchmarks.md)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/fleet/fleet_keys.h"
#include "core/fleet/fleet_reader.h"
#include "core/fleet/redis_sink.h"
#include "tests/fleet/redis_cluster.h"
#include "tests/fleet/sink_test_options.h"

using namespace std::chrono_literals;
using namespace hitcounter;
using namespace hitcounter::fleet;
using hitcounter::fleet::testing::unixNow;

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty()      ? 0
           : v.size() % 2 ? v[v.size() / 2]
                          : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

RedisSinkOptions options(const std::string& url, const std::string& instance) {
    RedisSinkOptions o;
    o.url = parseRedisUrl(url);
    o.instance = instance;
    o.version = "bench";
    o.flushInterval = 1h;  // only the stop() flush, unless changed
    o.timeouts = {1000ms, 20000ms};
    return o;
}

double infoNumber(const std::string& info, const std::string& field) {
    const auto at = info.find(field + ":");
    return at == std::string::npos ? 0 : std::stod(info.substr(at + field.size() + 1));
}

// Main-thread CPU seconds and commands processed of each master, by "host:port".
std::map<std::string, std::pair<double, double>> nodeLoad(RedisClient& client) {
    std::map<std::string, std::pair<double, double>> load;
    for (const std::string& address : client.masters()) {
        RedisUrl url = client.url();
        url.host = address.substr(0, address.rfind(':'));
        url.port = std::stoi(address.substr(address.rfind(':') + 1));
        RedisConnection c(url);
        const std::string info = c.command({"INFO", "all"}).text;
        load[address] = {infoNumber(info, "used_cpu_sys_main_thread") +
                             infoNumber(info, "used_cpu_user_main_thread"),
                         infoNumber(info, "total_commands_processed")};
    }
    return load;
}

struct FlushResult {
    double seconds = 0;
    std::map<std::string, std::uint64_t> perNode;
};

FlushResult flushItems(const std::string& url, int items) {
    RedisSink sink(options(url, "bench"), std::make_unique<RedisClient>(parseRedisUrl(url)));
    HitBatch batch;
    const Timestamp now = unixNow();
    for (int i = 0; i < items; ++i)
        batch.push_back({now, "/page/" + std::to_string(i), "", Count(1 + i % 7)});
    sink.add(batch);
    const auto start = Clock::now();
    sink.stop(120s);
    FlushResult r;
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    r.perNode = sink.stats().commandsPerNode;
    if (sink.stats().droppedHits != 0)
        std::printf("  (dropped %llu hits!)\n", (unsigned long long)sink.stats().droppedHits);
    return r;
}

void printFlush(const char* label, const std::vector<FlushResult>& runs, int items) {
    std::vector<double> seconds;
    for (const auto& r : runs)
        seconds.push_back(r.seconds);
    const double s = median(seconds);
    std::uint64_t low = ~0ull, high = 0, total = 0;
    for (const auto& [node, n] : runs.back().perNode) {
        low = std::min(low, n);
        high = std::max(high, n);
        total += n;
    }
    std::printf("| %s | %.2f | %.0f | %zu | %llu | %llu .. %llu |\n", label, s, items / s,
                runs.back().perNode.size(), (unsigned long long)total, (unsigned long long)low,
                (unsigned long long)high);
    std::fflush(stdout);
}

void benchFlush(int runs) {
    constexpr int kItems = 100000;
    std::printf("\n### Flush of %d items by one instance (median of %d runs)\n\n", kItems, runs);
    std::printf("| Redis | flush s | items/s | nodes | commands | commands per node |\n");
    std::printf("|---|---|---|---|---|---|\n");
    {
        RedisServer single;
        if (!single.start())
            return;
        std::vector<FlushResult> results;
        for (int i = 0; i < runs; ++i) {
            RedisConnection(parseRedisUrl(single.url())).command({"FLUSHALL"});
            results.push_back(flushItems(single.url(), kItems));
        }
        printFlush("single redis-server", results, kItems);
    }
    for (int masters : {1, 3, 6}) {
        RedisCluster cluster(masters);
        if (!cluster.start(60000)) {
            std::printf("| %d masters | cluster did not start: %s |\n", masters,
                        cluster.error().c_str());
            continue;
        }
        std::vector<FlushResult> results;
        for (int i = 0; i < runs; ++i)
            results.push_back(flushItems(cluster.url(0), kItems));
        const std::string label = std::to_string(masters) + " master" + (masters > 1 ? "s" : "") +
                                  " + " + std::to_string(masters) + " replica" +
                                  (masters > 1 ? "s" : "");
        printFlush(label.c_str(), results, kItems);
    }
}

void benchHot(int runs) {
    std::printf("\n### Hot item, 8 instances, 3 masters (median of %d runs)\n\n", runs);
    std::printf(
        "| hot-shards | CPU s: hot item's master | CPU s: other masters (min .. max) | "
        "server calls: hot item's master | other masters (max) | commands sent per "
        "master (min .. max) | hot item exact |\n|---|---|---|---|---|---|---|\n");
    for (int shards : {0, 3, 16}) {
        std::vector<double> hotCpu, otherLo, otherHi, hotCalls, otherCalls, sentLo, sentHi;
        bool exact = true;
        for (int run = 0; run < runs; ++run) {
            RedisCluster cluster(3);
            if (!cluster.start(60000))
                return;
            RedisClient admin(parseRedisUrl(cluster.url(0)));
            const int hotNode = cluster.masterOf(keySlot("hot"));
            const std::string hotAddress =
                "127.0.0.1:" + std::to_string(cluster.node(hotNode).port());
            const auto before = nodeLoad(admin);
            std::vector<std::unique_ptr<RedisSink>> sinks;
            for (int i = 0; i < 8; ++i) {
                RedisSinkOptions o = options(cluster.url(i % 6), "i" + std::to_string(i));
                o.flushInterval = 200ms;
                o.hotShards = shards;
                sinks.push_back(
                    std::make_unique<RedisSink>(o, std::make_unique<RedisClient>(o.url)));
            }
            const Timestamp now = unixNow();
            Count hot = 0;
            for (int round = 0; round < 10; ++round) {
                for (std::size_t i = 0; i < sinks.size(); ++i) {
                    HitBatch batch;
                    // The hot item: 4 000 new visitors per instance and round (PFADD work).
                    for (int v = 0; v < 4000; ++v)
                        batch.push_back(
                            {now, "hot",
                             "v" + std::to_string(i) + "-" + std::to_string(round * 4000 + v), 5});
                    hot += 4000 * 5;
                    for (int k = 0; k < 30; ++k)
                        batch.push_back({now, "cold" + std::to_string(k), "c", 1});
                    sinks[i]->add(batch);
                }
                std::this_thread::sleep_for(200ms);
            }
            std::map<std::string, std::uint64_t> sent;
            for (auto& s : sinks) {
                s->stop(60s);
                for (const auto& [node, n] : s->stats().commandsPerNode)
                    sent[node] += n;
            }
            const auto after = nodeLoad(admin);
            double lo = 1e18, hi = 0, calls = 0;
            for (const auto& [node, load] : after) {
                const double cpu = load.first - before.at(node).first;
                const double cmd = load.second - before.at(node).second;
                if (node == hotAddress) {
                    hotCpu.push_back(cpu);
                    hotCalls.push_back(cmd);
                    continue;
                }
                lo = std::min(lo, cpu);
                hi = std::max(hi, cpu);
                calls = std::max(calls, cmd);
            }
            otherLo.push_back(lo);
            otherHi.push_back(hi);
            otherCalls.push_back(calls);
            double slo = 1e18, shi = 0;
            for (const auto& [node, n] : sent) {
                slo = std::min(slo, double(n));
                shi = std::max(shi, double(n));
            }
            sentLo.push_back(slo);
            sentHi.push_back(shi);
            exact = exact && FleetReader(admin).item("hot", 300, now).allTime == hot;
        }
        std::printf("| %d | %.3f | %.3f .. %.3f | %.0f | %.0f | %.0f .. %.0f | %s |\n", shards,
                    median(hotCpu), median(otherLo), median(otherHi), median(hotCalls),
                    median(otherCalls), median(sentLo), median(sentHi), exact ? "yes" : "NO");
        std::fflush(stdout);
    }
}

// The longest time without an acknowledged flush while a master dies and is replaced.
double failoverGap(bool takeover) {
    RedisCluster cluster(3, 1000);
    if (!cluster.start(60000))
        return -1;
    const int victim = cluster.masterOf(0);
    const int heir = cluster.replicaOf(victim);
    const int entry = victim == 1 ? 2 : 1;
    RedisSinkOptions o = options(cluster.url(entry), "failover");
    o.flushInterval = 100ms;
    o.minBackoff = 20ms;
    o.maxBackoff = 200ms;
    o.timeouts = {200ms, 1000ms};
    RedisSink sink(o, std::make_unique<RedisClient>(o.url, o.timeouts));
    const Timestamp now = unixNow();
    auto last = Clock::now();
    std::uint64_t flushes = 0;
    double gap = 0;
    bool killed = false;
    const auto start = Clock::now();
    for (int tick = 0; Clock::now() - start < 12s; ++tick) {
        HitBatch batch;
        for (int k = 0; k < 100; ++k)  // items on every master
            batch.push_back({now, "item" + std::to_string(k), "", 1});
        sink.add(batch);
        std::this_thread::sleep_for(10ms);
        const auto n = sink.stats().flushes;
        const auto t = Clock::now();
        if (n != flushes) {
            flushes = n;
            if (killed)
                gap = std::max(gap, std::chrono::duration<double>(t - last).count());
            last = t;
        }
        if (!killed && t - start > 2s) {
            cluster.kill(victim);
            killed = true;
            if (takeover)
                cluster.on(heir, {"CLUSTER", "FAILOVER", "TAKEOVER"});
        }
    }
    sink.stop(10s);
    return gap;
}

void benchFailover(int runs) {
    std::printf("\n### Failover gap, flush interval 100 ms (median of %d runs)\n\n", runs);
    std::printf("| failover | gap s (median) | runs |\n|---|---|---|\n");
    for (bool takeover : {false, true}) {
        std::vector<double> gaps;
        std::string all;
        for (int i = 0; i < runs; ++i) {
            gaps.push_back(failoverGap(takeover));
            all += (all.empty() ? "" : ", ") + std::to_string(gaps.back()).substr(0, 4);
        }
        std::printf("| %s | %.2f | %s |\n",
                    takeover ? "CLUSTER FAILOVER TAKEOVER on the replica"
                             : "automatic (cluster-node-timeout 1000 ms)",
                    median(gaps), all.c_str());
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    const std::string only = argc > 2 ? argv[2] : "";
    if (only.empty() || only == "flush")
        benchFlush(runs);
    if (only.empty() || only == "hot")
        benchHot(runs);
    if (only.empty() || only == "failover")
        benchFailover(runs);
    return 0;
}
