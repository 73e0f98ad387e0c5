// The metrics endpoint's costs (docs/benchmarks.md, "Metrics"): counting into HotKeyWindows
// (keys with a series, keys summed in other), building and rendering a snapshot for K keys,
// and counting with and without a scraper rendering the latest snapshot at full speed on
// another thread, side by side in one run.
#include <benchmark/benchmark.h>

#include <atomic>
#include <thread>

#include "core/metrics/exposition.h"
#include "core/metrics/hot_key_windows.h"
#include "core/metrics/key_families.h"
#include "core/metrics/metrics_snapshot.h"

using namespace hitcounter;
using namespace hitcounter::metrics;

namespace {

constexpr Timestamp kStart = 1'700'000'000;

HitBatch batchOf(std::size_t keys, std::size_t size, std::size_t offset) {
    HitBatch batch;
    for (std::size_t i = 0; i < size; ++i)
        batch.push_back({.time = kStart,
                         .key = "page." + std::to_string((offset + i) % keys),
                         .visitor = {},
                         .count = 1});
    return batch;
}

std::shared_ptr<const MetricsSnapshot> snapshotOf(HotKeyWindows& windows, Timestamp now) {
    auto s = std::make_shared<MetricsSnapshot>();
    const auto rows = windows.rows(now);
    s->families =
        keyFamilies(rows, windows.other(now), windows.windows(), HotKeyOptions{}.uniquesWindow);
    s->published = std::chrono::steady_clock::now();
    return s;
}

// Hits per second into HotKeyWindows: arg 0 = distinct keys (100: all have rows; 10^6: most
// go to other and its sketch).
void BM_CountHits(benchmark::State& state) {
    const auto keys = std::size_t(state.range(0));
    HotKeyWindows windows({.maxKeys = 100});
    std::vector<HitBatch> batches;
    for (std::size_t b = 0; b < 64; ++b)
        batches.push_back(batchOf(keys, 4096, b * 4096 * 997));
    std::size_t next = 0;
    Timestamp now = kStart;
    for (auto _ : state) {
        windows.add(batches[next++ % batches.size()], now);
        if (next % 256 == 0)
            windows.rebalance(++now);
    }
    state.SetItemsProcessed(state.iterations() * 4096);
}
BENCHMARK(BM_CountHits)->Arg(100)->Arg(1'000'000);

// One scrape's work on the HTTP thread: rendering K keys' families (arg 0 = K).
void BM_RenderScrape(benchmark::State& state) {
    const auto k = std::size_t(state.range(0));
    HotKeyWindows windows({.maxKeys = k});
    windows.add(batchOf(k, k, 0), kStart);
    const auto snapshot = snapshotOf(windows, kStart);
    std::size_t bytes = 0;
    for (auto _ : state) {
        const std::string text = render(snapshot->families, ExpositionFormat::OpenMetrics100);
        bytes = text.size();
        benchmark::DoNotOptimize(text.data());
    }
    state.counters["bytes"] = double(bytes);
}
BENCHMARK(BM_RenderScrape)->Arg(100)->Arg(1000)->Arg(10000);

// The counting thread's snapshot, once a second: rows, families (arg 0 = K).
void BM_BuildSnapshot(benchmark::State& state) {
    const auto k = std::size_t(state.range(0));
    HotKeyWindows windows({.maxKeys = k});
    windows.add(batchOf(k, k, 0), kStart);
    for (auto _ : state)
        benchmark::DoNotOptimize(snapshotOf(windows, kStart).get());
}
BENCHMARK(BM_BuildSnapshot)->Arg(100)->Arg(1000)->Arg(10000);

// Counting with a snapshot published every 256 batches, arg 0 = 1: while another thread
// renders the latest snapshot in a loop (a scraper that never pauses), 0: without it.
void BM_CountWhileScraped(benchmark::State& state) {
    const bool scraped = state.range(0) == 1;
    HotKeyWindows windows({.maxKeys = 100});
    LatestSnapshot latest;
    latest.publish(snapshotOf(windows, kStart));
    std::atomic<bool> running{true};
    std::atomic<std::uint64_t> scrapes{0};
    std::thread scraper;
    if (scraped)
        scraper = std::thread([&] {
            while (running.load(std::memory_order_relaxed)) {
                const auto s = latest.latest();
                benchmark::DoNotOptimize(render(s->families, ExpositionFormat::Text004).size());
                scrapes.fetch_add(1, std::memory_order_relaxed);
            }
        });
    const HitBatch batch = batchOf(1000, 4096, 0);
    std::size_t n = 0;
    for (auto _ : state) {
        windows.add(batch, kStart);
        if (++n % 256 == 0)
            latest.publish(snapshotOf(windows, kStart));
    }
    running = false;
    if (scraper.joinable())
        scraper.join();
    state.SetItemsProcessed(state.iterations() * 4096);
    state.counters["scrapes"] = double(scrapes.load());
}
BENCHMARK(BM_CountWhileScraped)->Arg(0)->Arg(1)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
