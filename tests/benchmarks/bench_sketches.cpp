// The sketches under Google Benchmark: HyperLogLog add (sparse and dense), estimate and merge,
// windowed uniques over a 300 s window, Space-Saving add, and the approximate windowed top-K.
// Results: docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/sketches/hyper_log_log.h"
#include "core/sketches/space_saving.h"
#include "core/sketches/windowed_top_k.h"
#include "core/sketches/windowed_uniques.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

std::vector<std::uint64_t> hashes(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<std::uint64_t> out(n);
    for (auto& h : out) {
        h = HyperLogLog::hashOf("visitor-" + std::to_string(random()));
    }
    return out;
}

void hashVisitor(benchmark::State& state) {
    const std::string visitor = "visitor-1234567";
    for (auto _ : state) {
        benchmark::DoNotOptimize(HyperLogLog::hashOf(visitor));
    }
}

// range(0) distinct values, added over and over: below 1,024 the sketch stays sparse.
void hllAdd(benchmark::State& state) {
    const auto values = hashes(static_cast<std::size_t>(state.range(0)), 1);
    HyperLogLog sketch;
    std::size_t i = 0;
    for (auto _ : state) {
        sketch.add(values[i]);
        i = i + 1 == values.size() ? 0 : i + 1;
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["bytes"] = static_cast<double>(sketch.memoryBytes());
    state.counters["sparse"] = sketch.isSparse() ? 1 : 0;
}

void hllEstimateDense(benchmark::State& state) {
    HyperLogLog sketch;
    for (const auto h : hashes(100'000, 2)) {
        sketch.add(h);
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(sketch.estimate());
    }
}

void hllMergeDense(benchmark::State& state) {
    HyperLogLog a;
    HyperLogLog b;
    for (const auto h : hashes(100'000, 3)) {
        a.add(h);
    }
    for (const auto h : hashes(100'000, 4)) {
        b.add(h);
    }
    for (auto _ : state) {
        HyperLogLog merged = a;
        merged.merge(b);
        benchmark::DoNotOptimize(merged);
    }
}

// A 300 s window with range(0) visitors a second (from a population of 10 M): one estimate
// merges 300 per-second sketches.
void windowedUniquesEstimate(benchmark::State& state) {
    WindowedUniques uniques(300s);
    std::mt19937_64 random(5);
    for (Timestamp t = 0; t < 300; ++t) {
        for (std::int64_t i = 0; i < state.range(0); ++i) {
            uniques.add(t, HyperLogLog::hashOf("v" + std::to_string(random() % 10'000'000)));
        }
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(uniques.estimate(-1, 299));
    }
    state.counters["bytes"] = static_cast<double>(uniques.memoryBytes());
}

// Steady state: range(0) visitors a second for 900 s, so old seconds have left and the back
// has become the front twice; then the window (now - 300, now].
void windowedUniquesEstimateSliding(benchmark::State& state) {
    WindowedUniques uniques(300s);
    std::mt19937_64 random(5);
    for (Timestamp t = 0; t < 900; ++t) {
        for (std::int64_t i = 0; i < state.range(0); ++i) {
            uniques.add(t, HyperLogLog::hashOf("v" + std::to_string(random() % 10'000'000)));
        }
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(uniques.estimate(899 - 300, 899));
    }
    state.counters["bytes"] = static_cast<double>(uniques.memoryBytes());
}

// add() with the time moving on one second every range(0) visits (oldest seconds leaving).
void windowedUniquesAdd(benchmark::State& state) {
    WindowedUniques uniques(300s);
    std::mt19937_64 random(8);
    std::vector<std::uint64_t> hashes(1 << 16);
    for (auto& hash : hashes) {
        hash = HyperLogLog::hashOf("v" + std::to_string(random() % 10'000'000));
    }
    Timestamp t = 0;
    std::int64_t inSecond = 0;
    std::size_t i = 0;
    for (auto _ : state) {
        uniques.add(t, hashes[i++ & 0xFFFF]);
        if (++inSecond == state.range(0)) {
            inSecond = 0;
            ++t;
        }
    }
}

// Memory of one key's window: range(0) distinct visitors spread evenly over each 300 s, after
// 600 s (the first window's seconds have left), before and after a window query.
void windowedUniquesMemory(benchmark::State& state) {
    const std::int64_t visitors = state.range(0);
    std::size_t bytes = 0;
    std::size_t queried = 0;
    for (auto _ : state) {
        WindowedUniques uniques(300s);
        for (std::int64_t v = 0; v < 2 * visitors; ++v) {
            uniques.add(v * 300 / visitors, HyperLogLog::hashOf("v" + std::to_string(v)));
        }
        uniques.advance(599);
        bytes = uniques.memoryBytes();
        benchmark::DoNotOptimize(uniques.estimate(299, 599));
        queried = uniques.memoryBytes();
    }
    state.counters["bytes"] = static_cast<double>(bytes);
    state.counters["bytes_queried"] = static_cast<double>(queried);
}

std::vector<std::string> skewedKeys(std::size_t n, std::size_t keys) {
    std::mt19937_64 random(6);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back("key" + std::to_string(std::min(random() % keys, random() % keys)));
    }
    return out;
}

void spaceSavingAdd(benchmark::State& state) {
    const auto keys = skewedKeys(65536, 100'000);
    SpaceSaving summary(static_cast<std::size_t>(state.range(0)));
    std::size_t i = 0;
    for (auto _ : state) {
        summary.add(keys[i++ & 65535]);
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["bytes"] = static_cast<double>(summary.memoryBytes());
}

// 300 s of 1000 hits a second over 100k keys, 64 counters a second: top-10 of the window.
void windowedTopKQuery(benchmark::State& state) {
    const auto keys = skewedKeys(300'000, 100'000);
    WindowedTopK top(300s, 64);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        top.add(static_cast<Timestamp>(i / 1000), keys[i]);
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(top.top(10, -1, 299));
    }
    state.counters["bytes"] = static_cast<double>(top.memoryBytes());
}

}  // namespace

BENCHMARK(hashVisitor);
BENCHMARK(hllAdd)->Arg(500)->Arg(1'000'000);
BENCHMARK(hllEstimateDense)->Unit(benchmark::kMicrosecond);
BENCHMARK(hllMergeDense)->Unit(benchmark::kMicrosecond);
BENCHMARK(windowedUniquesEstimate)->Arg(10)->Arg(3000)->Unit(benchmark::kMicrosecond);
BENCHMARK(windowedUniquesEstimateSliding)->Arg(10)->Arg(3000)->Unit(benchmark::kMicrosecond);
BENCHMARK(windowedUniquesAdd)->Arg(10)->Arg(3000);
BENCHMARK(windowedUniquesMemory)->Arg(1)->Arg(100)->Arg(100'000)->Iterations(1);
BENCHMARK(spaceSavingAdd)->Arg(64)->Arg(1024);
BENCHMARK(windowedTopKQuery)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
