// MultiLevelCounter under Google Benchmark: hit() in order, countLast() for a random w up to
// one hour, and the three levels at once. Results: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "core/multilevel/multi_level_counter.h"

using namespace hitcounter;

namespace {

void multiLevelHit(benchmark::State& state) {
    MultiLevelCounter counter;
    std::uint64_t i = 0;
    for (auto _ : state) {
        counter.hit(static_cast<Timestamp>(i++ / 100));
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["bytes"] = static_cast<double>(counter.memoryBytes());
}

MultiLevelCounter filledHour() {
    MultiLevelCounter counter;
    for (Timestamp t = 0; t < 3600; ++t) {
        counter.hit(t, static_cast<Count>(t % 7 + 1));
    }
    return counter;
}

void multiLevelCountAnyWindow(benchmark::State& state) {
    MultiLevelCounter counter = filledHour();
    std::mt19937_64 random(1);
    std::vector<std::chrono::seconds> windows(4096);
    for (auto& w : windows) {
        w = std::chrono::seconds{1 + static_cast<std::int64_t>(random() % 3600)};
    }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(counter.countLast(3599, windows[i++ & 4095]));
    }
}

void multiLevelAllLevels(benchmark::State& state) {
    MultiLevelCounter counter = filledHour();
    for (auto _ : state) {
        benchmark::DoNotOptimize(counter.levels(3599));
    }
}

}  // namespace

BENCHMARK(multiLevelHit);
BENCHMARK(multiLevelCountAnyWindow);
BENCHMARK(multiLevelAllLevels);

BENCHMARK_MAIN();
