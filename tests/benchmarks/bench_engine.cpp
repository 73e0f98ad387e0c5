// The engine's ingest throughput on statsd traffic: batches of 4096 events as the UDP
// listener pushes them ("page.N:1|c" lines, N uniform over 1000 keys, no visitor), the time
// moving on by one second every 10^6 lines (10^6 lines per second). One iteration ingests one
// batch; items/s is hits/s. Results and the machine are in docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/engine/engine.h"

using namespace hitcounter;

namespace {

constexpr std::size_t kBatch = 4096;

void statsdLinesIntoEngine(benchmark::State& state) {
    const std::int64_t linesPerSecond = state.range(0);
    const auto keys = static_cast<std::uint64_t>(state.range(1));
    std::mt19937_64 rng(42);
    std::vector<HitBatch> batches(64);
    for (HitBatch& batch : batches) {
        for (std::size_t i = 0; i < kBatch; ++i) {
            batch.push_back(HitEvent{0, "page." + std::to_string(rng() % keys), "", 1});
        }
    }
    Engine engine;
    Timestamp t = 1'700'000'000;
    std::int64_t inSecond = 0;
    std::size_t next = 0;
    for (auto _ : state) {
        HitBatch& batch = batches[next++ % batches.size()];
        for (HitEvent& e : batch) {
            e.time = t;
            if (++inSecond == linesPerSecond) {
                inSecond = 0;
                ++t;
            }
        }
        engine.ingest(batch);
    }
    benchmark::DoNotOptimize(engine.snapshot().windowCount);
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
}

}  // namespace

BENCHMARK(statsdLinesIntoEngine)->Args({1'000'000, 1000})->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
