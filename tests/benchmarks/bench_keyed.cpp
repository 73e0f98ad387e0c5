// The keyed core under Google Benchmark: KeyedCounter hits on a hot key set and on one-off keys
// (with the memory each key costs), per-key window queries, exact top-K over 1k and 100k live
// keys, and KeyedMonitor's record() with visitors. Results: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/keyed/keyed_counter.h"
#include "core/keyed/keyed_monitor.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> keyNames(std::size_t n) {
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < n; ++i) {
        keys.push_back("/page/" + std::to_string(i));
    }
    return keys;
}

// Hits on range(0) keys, skewed (key index = min of two uniform draws), 1000 hits a second.
void keyedHitHotKeys(benchmark::State& state) {
    const auto keys = keyNames(static_cast<std::size_t>(state.range(0)));
    KeyedCounter counter;
    std::mt19937_64 random(1);
    std::vector<std::uint32_t> picks(65536);
    for (auto& p : picks) {
        p = static_cast<std::uint32_t>(std::min(random() % keys.size(), random() % keys.size()));
    }
    std::uint64_t i = 0;
    for (auto _ : state) {
        counter.hit(static_cast<Timestamp>(i / 1000), keys[picks[i & 65535]]);
        ++i;
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["bytes_per_key"] =
        static_cast<double>(counter.memoryBytes()) / static_cast<double>(counter.liveKeys());
}

// Every hit a new key, 1000 a second, evicted to a callback after 600 s idle: the cost of a
// key's whole life, and what a live one-off key holds (range(0): with a visitor or not).
void keyedHitOneOffKeys(benchmark::State& state) {
    const bool withVisitor = state.range(0) != 0;
    KeyedCounter counter(KeyedOptions{300s, 300s, 600s, [](EvictedKey&&) {}});
    std::uint64_t i = 0;
    std::string key = "one-off-";
    const std::size_t prefix = key.size();
    for (auto _ : state) {
        key.resize(prefix);
        key += std::to_string(i);
        counter.hit(static_cast<Timestamp>(i / 1000), key, withVisitor ? "visitor" : "");
        ++i;
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["bytes_per_key"] =
        static_cast<double>(counter.memoryBytes()) / static_cast<double>(counter.liveKeys());
    state.counters["live_keys"] = static_cast<double>(counter.liveKeys());
}

KeyedCounter& filledCounter(std::size_t keys) {
    static std::unique_ptr<KeyedCounter> counter;
    static std::size_t filledWith = 0;
    if (filledWith != keys) {
        counter = std::make_unique<KeyedCounter>();
        const auto names = keyNames(keys);
        std::mt19937_64 random(2);
        for (Timestamp t = 0; t < 300; ++t) {
            for (std::size_t j = 0; j < std::max<std::size_t>(keys / 50, 20); ++j) {
                counter->hit(t, names[random() % keys]);
            }
        }
        filledWith = keys;
    }
    return *counter;
}

void keyedCountOneKey(benchmark::State& state) {
    KeyedCounter& counter = filledCounter(1000);
    const auto keys = keyNames(1000);
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(counter.count(keys[i++ % keys.size()], 299));
    }
}

void keyedTopTen(benchmark::State& state) {
    KeyedCounter& counter = filledCounter(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        benchmark::DoNotOptimize(counter.top(10, 299));
    }
    state.counters["live_keys"] = static_cast<double>(counter.liveKeys());
}

void monitorRecordWithVisitors(benchmark::State& state) {
    const auto keys = keyNames(1000);
    KeyedMonitor monitor;
    std::mt19937_64 random(3);
    HitEvent event;
    std::uint64_t i = 0;
    for (auto _ : state) {
        event.time = static_cast<Timestamp>(i / 1000);
        event.key = keys[random() % keys.size()];
        event.visitor = "v" + std::to_string(random() % 100'000);
        monitor.record(event);
        ++i;
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["bytes"] = static_cast<double>(monitor.memoryBytes());
}

void monitorStatsOneKey(benchmark::State& state) {
    const auto keys = keyNames(1000);
    KeyedMonitor monitor;
    std::mt19937_64 random(4);
    for (Timestamp t = 0; t < 3600; ++t) {
        for (int j = 0; j < 20; ++j) {
            monitor.record(HitEvent{t, keys[random() % keys.size()],
                                    "v" + std::to_string(random() % 1000), 1});
        }
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(monitor.stats(keys[i++ % keys.size()], 3599));
    }
}

}  // namespace

BENCHMARK(keyedHitHotKeys)->Arg(1000)->Arg(100'000);
BENCHMARK(keyedHitOneOffKeys)->Arg(0)->Arg(1);
BENCHMARK(keyedCountOneKey);
BENCHMARK(keyedTopTen)->Arg(1000)->Arg(100'000)->Unit(benchmark::kMicrosecond);
BENCHMARK(monitorRecordWithVisitors);
BENCHMARK(monitorStatsOneKey)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
