// Fleet mode against a real redis-server started here (tests/fleet/redis_server.h):
// - commands one instance sends per second (one flush) as the hit rate grows, at 10, 1 000
//   and 100 000 items, next to the textbook one INCR per hit and its measured ceiling;
// - the cost of aggregating one hit; end-to-end lag from hit to visible in a query;
// - query latency for a 300 s and a 1 h window; Redis memory per item per hour;
// - another client's PING latency while one flush of 500 000 items is applied, in one script
//   call per flush (ENTRIES 0, as before #30 item 7) and cut into flushes of ENTRIES entries.
// Run: build/default/tests/benchmarks/bench_redis (numbers in docs/benchmarks.md).
#include <benchmark/benchmark.h>

#include <QThread>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stop_token>
#include <thread>
#include <vector>

#include "core/fleet/fleet_keys.h"
#include "core/fleet/fleet_reader.h"
#include "core/fleet/redis_sink.h"
#include "tests/fleet/redis_server.h"
#include "tests/fleet/sink_test_options.h"

using namespace std::chrono_literals;
using namespace hitcounter;
using namespace hitcounter::fleet;
using hitcounter::fleet::testing::unixNow;

namespace {

RedisServer* g_redis = nullptr;

RedisUrl url() {
    return parseRedisUrl(g_redis->url());
}

void flushAll() {
    RedisConnection(url()).command({"FLUSHALL"});
}

RedisSinkOptions sinkOptions(std::chrono::milliseconds interval) {
    RedisSinkOptions o;
    o.url = url();
    o.instance = "bench";
    o.flushInterval = interval;
    return o;
}

// One second of traffic at `rate` hits/s over `items` items (Zipf-free: even), given to the
// sink pre-aggregated per item (the sink's output does not depend on how hits were split).
HitBatch oneSecond(long long rate, long long items, Timestamp second) {
    HitBatch batch;
    const long long used = std::min(rate, items);
    for (long long i = 0; i < used; ++i)
        batch.push_back({second, "/page/" + std::to_string(i), "",
                         Count(rate / used + (i < rate % used ? 1 : 0))});
    return batch;
}

void BM_SinkCommandsPerSecond(benchmark::State& state) {
    const long long rate = state.range(0);
    const long long items = state.range(1);
    std::uint64_t commands = 0;
    double flushSeconds = 0;
    for (auto _ : state) {
        state.PauseTiming();
        flushAll();
        RedisSink sink(sinkOptions(1h), std::make_unique<RedisClient>(url()));
        sink.add(oneSecond(rate, items, unixNow()));
        state.ResumeTiming();
        const auto start = std::chrono::steady_clock::now();
        sink.stop(60s);  // the one flush of that second
        flushSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        commands = sink.stats().commands;
        if (sink.stats().sentHits != Count(rate))
            state.SkipWithError("hits lost");
    }
    state.counters["hits_per_s"] = double(rate);
    state.counters["commands_per_s"] = double(commands);
    state.counters["incr_per_hit_commands_per_s"] = double(rate);
    state.counters["flush_ms"] = flushSeconds * 1000;
}
BENCHMARK(BM_SinkCommandsPerSecond)
    ->ArgsProduct({{1'000, 10'000, 100'000, 1'000'000, 10'000'000}, {10, 1'000, 100'000}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

// The textbook design's ceiling: INCR per hit, pipelined 1024 at a time (its best case) and
// one round trip each.
void BM_TextbookIncrPerHit(benchmark::State& state) {
    const bool pipelined = state.range(0) == 1;
    const std::size_t hits = pipelined ? 200'000 : 20'000;
    RedisClient c(url());
    std::vector<RedisConnection::Command> chunk(1024, {"INCR", "hc:textbook"});
    for (auto _ : state) {
        if (pipelined) {
            for (std::size_t sent = 0; sent < hits; sent += chunk.size())
                c.pipeline(chunk);
        } else {
            for (std::size_t i = 0; i < hits; ++i)
                c.command(chunk.front());
        }
    }
    state.SetItemsProcessed(std::int64_t(state.iterations() * hits));
}
BENCHMARK(BM_TextbookIncrPerHit)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_AggregateOneHit(benchmark::State& state) {
    const long long items = state.range(0);
    std::vector<std::string> keys;
    for (long long i = 0; i < items; ++i)
        keys.push_back("/page/" + std::to_string(i));
    FlushBatch batch;
    std::size_t i = 0;
    const auto now = std::chrono::steady_clock::now();
    for (auto _ : state) {
        batch.add({1000, keys[i], "", 1}, now);
        i = i + 1 == keys.size() ? 0 : i + 1;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AggregateOneHit)->Arg(10)->Arg(1000)->Arg(100'000);

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

// From add() of a hit to the moment a reader polling every 2 ms sees it (flush interval 1 s,
// hits at random moments of the interval).
void BM_EndToEndLag(benchmark::State& state) {
    const auto interval = std::chrono::milliseconds(state.range(0));
    std::vector<double> lags;
    for (auto _ : state) {
        flushAll();
        RedisSink sink(sinkOptions(interval), std::make_unique<RedisClient>(url()));
        RedisClient reader(url());
        FleetReader fleet(reader);
        for (int sample = 0; sample < 20; ++sample) {
            QThread::msleep(std::uint64_t(37 * sample % interval.count()));
            const Timestamp now = unixNow();
            const auto added = std::chrono::steady_clock::now();
            sink.add({{now, "lag", "", 1}});
            while (fleet.item("lag", 300, unixNow()).allTime < Count(sample + 1))
                QThread::msleep(2);
            lags.push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - added).count());
        }
        state.SetIterationTime(lags.back());
    }
    state.counters["median_ms"] = percentile(lags, 0.5) * 1000;
    state.counters["p99_ms"] = percentile(lags, 0.99) * 1000;
}
BENCHMARK(BM_EndToEndLag)->Arg(1000)->Arg(200)->Iterations(1)->UseManualTime();

// One item with a hit in every second of the last hour (and visitors), then query latency.
void BM_QueryLatency(benchmark::State& state) {
    const Timestamp window = state.range(0);
    flushAll();
    const Timestamp now = unixNow();
    {
        RedisSink sink(sinkOptions(1h), std::make_unique<RedisClient>(url()));
        HitBatch batch;
        for (Timestamp s = now - 3599; s <= now; ++s)
            batch.push_back({s, "q", "v" + std::to_string(s % 500), 3});
        sink.add(batch);
        sink.stop(60s);
    }
    RedisClient c(url());
    FleetReader reader(c);
    for (auto _ : state)
        benchmark::DoNotOptimize(reader.item("q", window, now));
    if (reader.item("q", window, now).window == 0)
        state.SkipWithError("nothing counted");
}
BENCHMARK(BM_QueryLatency)->Arg(300)->Arg(3600)->Unit(benchmark::kMicrosecond);

// Redis memory of one item with a hit in every second of an hour (and one visitor a second).
void BM_MemoryPerItemHour(benchmark::State& state) {
    for (auto _ : state) {
        flushAll();
        RedisClient c(url());
        const long long before = c.command({"MEMORY", "STATS"}).elements.at(3).integer;
        const Timestamp now = unixNow();
        RedisSink sink(sinkOptions(1h), std::make_unique<RedisClient>(url()));
        HitBatch batch;
        for (long long item = 0; item < 100; ++item)
            for (Timestamp s = now - 3599; s <= now; ++s)
                batch.push_back({s, "/page/" + std::to_string(item), "v" + std::to_string(s), 5});
        sink.add(batch);
        sink.stop(60s);
        c.command({"DEL", logKey("bench"), topGuardKey("bench", sink.run())});
        const long long after = c.command({"MEMORY", "STATS"}).elements.at(3).integer;
        state.counters["bytes_per_item_hour_with_visitors"] = double(after - before) / 100;
        state.SetIterationTime(1);
    }
}
BENCHMARK(BM_MemoryPerItemHour)->Iterations(1)->UseManualTime();

}  // namespace

// PING round trips of another client while the sink applies one seal of 500 000 items.
void BM_OtherClientDuringABigFlush(benchmark::State& state) {
    const auto entries = std::size_t(state.range(0));
    for (auto _ : state) {
        flushAll();
        RedisSinkOptions o = sinkOptions(1h);  // one seal, at stop()
        o.flushEntries = entries;
        if (entries == 0) {  // one call per script, whatever its size
            o.flushEntries = std::size_t(-1);
            o.flushBytes = std::size_t(-1) / 4;
        }
        RedisSink sink(o, std::make_unique<RedisClient>(o.url));
        sink.add(oneSecond(500'000, 500'000, unixNow()));
        std::vector<double> pings;
        std::jthread pinger([&pings](std::stop_token stop) {
            RedisConnection c(url(), {1000ms, 60'000ms});
            while (!stop.stop_requested()) {
                const auto start = std::chrono::steady_clock::now();
                c.command({"PING"});
                pings.push_back(std::chrono::duration<double, std::milli>(
                                    std::chrono::steady_clock::now() - start)
                                    .count());
            }
        });
        const auto start = std::chrono::steady_clock::now();
        sink.stop(600s);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        pinger.request_stop();
        pinger.join();
        std::sort(pings.begin(), pings.end());
        state.SetIterationTime(seconds);
        state.counters["flushes"] = double(sink.stats().flushes);
        state.counters["ping_max_ms"] = pings.empty() ? 0 : pings.back();
        state.counters["ping_p99_ms"] = pings.empty() ? 0 : pings[pings.size() * 99 / 100];
        state.counters["ping_median_ms"] = pings.empty() ? 0 : pings[pings.size() / 2];
    }
}
BENCHMARK(BM_OtherClientDuringABigFlush)
    ->Arg(0)
    ->Arg(4096)
    ->Arg(1024)
    ->Unit(benchmark::kSecond)
    ->Iterations(1)
    ->UseManualTime();

int main(int argc, char** argv) {
    RedisServer redis;
    if (!redis.start()) {
        std::fprintf(stderr, "bench_redis: cannot start redis-server\n");
        return 1;
    }
    g_redis = &redis;
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
