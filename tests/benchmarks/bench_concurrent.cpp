// Thread scaling of the thread-safe counters (core/concurrent/): aggregate hits per second with
// 1, 2 and 4 writer threads on one shared counter, plus the cost of a read. All writers follow
// one shared clock that thread 0 moves on every 4096 of its hits, as a wall clock would, so
// slots are reset for new seconds during the run and no hit is late.
#include <benchmark/benchmark.h>

#include <atomic>
#include <memory>

#include "core/concurrent/locked_counter.h"
#include "core/concurrent/striped_atomic_counter.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

std::atomic<Timestamp> g_now{1'000'000};

template <typename Counter>
void hitFromThreads(benchmark::State& state) {
    static std::unique_ptr<Counter> counter;
    if (state.thread_index() == 0) {
        counter = std::make_unique<Counter>(300s);
        g_now.store(1'000'000);
    }
    std::uint64_t i = 0;
    for (auto _ : state) {
        if (state.thread_index() == 0 && (++i & 4095) == 0) {
            g_now.fetch_add(1, std::memory_order_relaxed);
        }
        counter->hit(g_now.load(std::memory_order_relaxed));
    }
    state.SetItemsProcessed(state.iterations());
    if (state.thread_index() == 0) {
        state.counters["dropped"] = static_cast<double>(counter->droppedLate());
        state.counters["bytes"] = static_cast<double>(counter->memoryBytes());
    }
}

template <typename Counter>
void countWholeWindow(benchmark::State& state) {
    Counter counter(300s);
    for (Timestamp t = 0; t < 300; ++t) {
        counter.hit(t, 3);
    }
    Timestamp t = 299;
    for (auto _ : state) {
        benchmark::DoNotOptimize(counter.count(t));
    }
}

}  // namespace

BENCHMARK(hitFromThreads<LockedCounter>)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();
BENCHMARK(hitFromThreads<StripedAtomicCounter>)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();
BENCHMARK(countWholeWindow<LockedCounter>);
BENCHMARK(countWholeWindow<StripedAtomicCounter>);

BENCHMARK_MAIN();
