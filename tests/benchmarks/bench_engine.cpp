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

// `stampOutsideTiming`: the loop that gives the events their times runs with the timer paused,
// so the figure is Engine::ingest alone (the pause costs a few hundred nanoseconds per batch
// of 4096, counted in); otherwise the loop is counted too (about a fifth of the time: it is
// where the batch's cache misses land, as they would when a batch arrives from the listener).
void statsdLines(benchmark::State& state, bool stampOutsideTiming) {
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
        if (stampOutsideTiming) {
            state.PauseTiming();
        }
        for (HitEvent& e : batch) {
            e.time = t;
            if (++inSecond == linesPerSecond) {
                inSecond = 0;
                ++t;
            }
        }
        if (stampOutsideTiming) {
            state.ResumeTiming();
        }
        engine.ingest(batch);
    }
    benchmark::DoNotOptimize(engine.snapshot().windowCount);
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBatch));
}

}  // namespace

void statsdLinesIntoEngine(benchmark::State& state) {
    statsdLines(state, false);
}

void statsdLinesIntoEngineOnlyIngestTimed(benchmark::State& state) {
    statsdLines(state, true);
}

BENCHMARK(statsdLinesIntoEngine)->Args({1'000'000, 1000})->Unit(benchmark::kMicrosecond);
BENCHMARK(statsdLinesIntoEngineOnlyIngestTimed)
    ->Args({1'000'000, 1000})
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
