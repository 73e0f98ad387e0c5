// The rate limiters under Google Benchmark: ns per decision for each algorithm at 1, 10^4
// and 10^6 live keys, through the RateLimiter interface as the CLI and the GUI call it, and
// the memory each live key costs. Results: docs/benchmarks.md ("Rate limiters").
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "core/limiters/limiter_factory.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

constexpr std::uint64_t kDecisionsPerSecond = 1 << 16;
constexpr std::size_t kPicks = 1 << 16;

// range(0): algorithm index in limiterNames(); range(1): keys. L = 100 per W = 60; 65 536
// requests a second spread uniformly over the keys, so every key stays live (at 10^6 keys each
// sees about 4 requests a minute) and the one-key case is mostly rejections.
void decide(benchmark::State& state) {
    const auto name = limiterNames()[static_cast<std::size_t>(state.range(0))];
    const auto keyCount = static_cast<std::size_t>(state.range(1));
    state.SetLabel(std::string(name));
    std::vector<std::string> keys;
    keys.reserve(keyCount);
    for (std::size_t i = 0; i < keyCount; ++i)
        keys.push_back("/api/user/" + std::to_string(i));
    std::mt19937_64 random(1);
    std::vector<std::uint32_t> picks(kPicks);
    for (auto& p : picks)
        p = static_cast<std::uint32_t>(random() % keyCount);

    auto limiter = makeLimiter(name, {100, 60s});
    RateLimiter& rateLimiter = *limiter;
    for (const auto& key : keys)  // every key live before timing
        rateLimiter.admit(key, 0);
    std::uint64_t i = 0;
    Count accepted = 0;
    for (auto _ : state) {
        accepted += rateLimiter.admit(keys[picks[i % kPicks]],
                                      static_cast<Timestamp>(i / kDecisionsPerSecond));
        ++i;
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["accepted_pct"] =
        100.0 * static_cast<double>(accepted) / static_cast<double>(state.iterations());
    state.counters["live_keys"] = static_cast<double>(rateLimiter.liveKeys());
    state.counters["bytes_per_key"] = static_cast<double>(rateLimiter.memoryBytes()) /
                                      static_cast<double>(rateLimiter.liveKeys());
}

void decideArguments(benchmark::internal::Benchmark* benchmark) {
    for (std::int64_t algorithm = 0; algorithm < 4; ++algorithm)
        for (const std::int64_t keys : {1, 10'000, 1'000'000})
            benchmark->Args({algorithm, keys});
}

}  // namespace

BENCHMARK(decide)->Apply(decideArguments)->ArgNames({"algorithm", "keys"});

BENCHMARK_MAIN();
