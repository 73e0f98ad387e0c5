// Counting policies under Google Benchmark: hit and count per policy, in order and with late
// hits, query-heavy and hit-heavy streams, and memory held at 1k, 100k and 10M hits in the
// window. The window W is a run-time argument (never a compile-time 300), so no policy gets a
// constant divisor. The textbook answers to LeetCode 362 (a 300-slot ring and a queue, with
// their constant 300) run beside the ring on the same 20 M-hit streams as baselines.
// Results and the machine are in docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <queue>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/counters/counter_factory.h"
#include "core/counters/ring_counter.h"

using namespace hitcounter;

namespace {

// Calls through the WindowCounter interface (virtual), as the CLI and the engine make them.
struct ViaInterface {
    std::unique_ptr<WindowCounter> counter;
    ViaInterface(const std::string& policy, std::int64_t window)
        : counter(makeCounter(policy, CounterOptions{std::chrono::seconds{window}})) {}
    WindowCounter* operator->() const { return counter.get(); }
};

// Calls on the concrete RingCounter, which the compiler can inline.
struct DirectRing {
    std::unique_ptr<RingCounter> counter;
    DirectRing(const std::string&, std::int64_t window)
        : counter(std::make_unique<RingCounter>(std::chrono::seconds{window})) {}
    RingCounter* operator->() const { return counter.get(); }
};

// The textbook ring, as LeetCode 362 write-ups give it: two int[300] arrays, slot t % 300,
// the slot restarts when the second stored in it differs; getHits sums the slots of the last
// 300 seconds. No saturation, no late hits, W fixed at compile time.
class TextbookRing {
public:
    void hit(int timestamp) {
        const int i = timestamp % 300;
        if (m_times[i] != timestamp) {
            m_times[i] = timestamp;
            m_hits[i] = 1;
        } else {
            ++m_hits[i];
        }
    }
    int getHits(int timestamp) const {
        int total = 0;
        for (int i = 0; i < 300; ++i) {
            if (timestamp - m_times[i] < 300) {
                total += m_hits[i];
            }
        }
        return total;
    }

private:
    int m_times[300] = {};
    int m_hits[300] = {};
};

// The textbook queue: every hit's timestamp is queued; getHits pops those 300 s old or more.
class TextbookQueue {
public:
    void hit(int timestamp) { m_hits.push(timestamp); }
    int getHits(int timestamp) {
        while (!m_hits.empty() && timestamp - m_hits.front() >= 300) {
            m_hits.pop();
        }
        return static_cast<int>(m_hits.size());
    }

private:
    std::queue<int> m_hits;
};

// Adapts a textbook class to the harness (hit(t) and count(t)), called directly (inlined).
template <typename Textbook>
struct DirectTextbook {
    std::unique_ptr<Textbook> counter = std::make_unique<Textbook>();
    struct Calls {
        Textbook* textbook;
        void hit(Timestamp t) { textbook->hit(static_cast<int>(t)); }
        int count(Timestamp t) { return textbook->getHits(static_cast<int>(t)); }
        Calls* operator->() { return this; }
    };
    DirectTextbook(const std::string&, std::int64_t window) {
        if (window != 300) {
            throw std::invalid_argument("the textbook answers have W = 300 built in");
        }
    }
    Calls operator->() const { return Calls{counter.get()}; }
};

// Hits in order: `perSecond` hits share each second, then time moves on by one second.
template <typename Counter>
void hitInOrder(benchmark::State& state, const std::string& policy) {
    Counter counter(policy, state.range(0));
    const std::int64_t perSecond = state.range(1);
    Timestamp t = 1'000'000'000;
    std::int64_t inSecond = 0;
    for (auto _ : state) {
        counter->hit(t);
        if (++inSecond == perSecond) {
            inSecond = 0;
            ++t;
        }
    }
    state.SetItemsProcessed(state.iterations());
}

// The same stream as hitInOrder, handed over as the engine does: about 4096 hits at a time,
// coalesced into one run per second, in one hitRuns() call per iteration. Between calls the
// runs' seconds move on (one add per run, a fraction of a nanosecond per hit, counted in).
template <typename Counter>
void hitRunsInOrder(benchmark::State& state, const std::string& policy) {
    Counter counter(policy, state.range(0));
    const std::int64_t perSecond = state.range(1);
    const std::int64_t seconds = std::max<std::int64_t>(1, 4096 / perSecond);
    std::vector<SecondHits> runs;
    for (std::int64_t i = 0; i < seconds; ++i) {
        runs.push_back({1'000'000'000 + i, static_cast<Count>(perSecond)});
    }
    for (auto _ : state) {
        counter->hitRuns(runs);
        for (SecondHits& run : runs) {
            run.time += seconds;
        }
    }
    state.SetItemsProcessed(state.iterations() * seconds * perSecond);
}

// As hitInOrder, but one hit in ten arrives late, up to W - 1 seconds behind.
template <typename Counter>
void hitWithLateHits(benchmark::State& state, const std::string& policy) {
    const std::int64_t window = state.range(0);
    Counter counter(policy, window);
    std::mt19937_64 rng(7);
    std::vector<std::int64_t> lateness(4096);
    for (auto& l : lateness) {
        l = (rng() % 10 == 0)
                ? static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(window))
                : 0;
    }
    Timestamp t = 1'000'000'000;
    std::size_t i = 0;
    for (auto _ : state) {
        counter->hit(t - lateness[i & 4095]);
        if ((++i & 15) == 0) {
            ++t;
        }
    }
    state.SetItemsProcessed(state.iterations());
}

// count() at a non-decreasing time over a full window: time moves on one second (with one
// new hit) every 64 queries, so most queries ask at the head and some expire a slot.
template <typename Counter>
void countMonotonic(benchmark::State& state, const std::string& policy) {
    const std::int64_t window = state.range(0);
    Counter counter(policy, window);
    Timestamp t = 1'000'000'000;
    for (std::int64_t s = 0; s < window; ++s) {
        counter->hit(++t, 3);
    }
    std::int64_t i = 0;
    for (auto _ : state) {
        if ((++i & 63) == 0) {
            counter->hit(++t);
        }
        benchmark::DoNotOptimize(counter->count(t));
    }
    state.SetItemsProcessed(state.iterations());
}

// A stream of (hit, count) pairs with time moving on one second per pair: every count
// expires a slot. Time per operation = time per iteration / 2.
template <typename Counter>
void countAfterEveryHit(benchmark::State& state, const std::string& policy) {
    Counter counter(policy, state.range(0));
    Timestamp t = 1'000'000'000;
    for (auto _ : state) {
        counter->hit(++t);
        benchmark::DoNotOptimize(counter->count(t));
    }
    state.SetItemsProcessed(state.iterations() * 2);
}

// One getHits per hit; `perSecond` hits share each second.
template <typename Counter>
void countAfterEachHitAtRate(benchmark::State& state, const std::string& policy) {
    Counter counter(policy, state.range(0));
    const std::int64_t perSecond = state.range(1);
    Timestamp t = 1'000'000'000;
    std::int64_t inSecond = 0;
    for (auto _ : state) {
        counter->hit(t);
        benchmark::DoNotOptimize(counter->count(t));
        if (++inSecond == perSecond) {
            inSecond = 0;
            ++t;
        }
    }
    state.SetItemsProcessed(state.iterations() * 2);
}

// `hitsPerCount` hits, then one count; 50 hits share each second.
template <typename Counter>
void mixedStream(benchmark::State& state, const std::string& policy) {
    Counter counter(policy, state.range(0));
    const std::int64_t hitsPerCount = state.range(1);
    Timestamp t = 1'000'000'000;
    std::int64_t i = 0;
    for (auto _ : state) {
        for (std::int64_t h = 0; h < hitsPerCount; ++h) {
            counter->hit(t);
            if (++i % 50 == 0) {
                ++t;
            }
        }
        benchmark::DoNotOptimize(counter->count(t));
    }
    state.SetItemsProcessed(state.iterations() * (hitsPerCount + 1));
}

// Memory held with `hits` single hits spread evenly over one window.
template <typename Counter>
void memoryAtHits(benchmark::State& state, const std::string& policy) {
    const std::int64_t window = state.range(0);
    const std::int64_t hits = state.range(1);
    std::size_t bytes = 0;
    for (auto _ : state) {
        Counter counter(policy, window);
        for (std::int64_t i = 0; i < hits; ++i) {
            counter->hit(1'000'000'000 + i * window / hits);
        }
        benchmark::DoNotOptimize(counter->count(1'000'000'000 + window - 1));
        bytes = counter->memoryBytes();
    }
    state.counters["bytes"] = static_cast<double>(bytes);
}

template <typename Counter>
benchmark::internal::Benchmark* add(const std::string& what, const std::string& policy,
                                    void (*fn)(benchmark::State&, const std::string&)) {
    return benchmark::RegisterBenchmark((what + "/" + policy).c_str(),
                                        [fn, policy](benchmark::State& s) { fn(s, policy); });
}

// The ring against the textbook answers on one stream of 20 M hits per shape: hits only at
// 1, 1000 and 10^6 hits per second (ring_runs: the ring through hitRuns(), as the engine calls
// it, the hits coalesced per second 4096 at a time), then one getHits per hit (2 M pairs: the
// textbook ring's getHits scans 300 slots).
void registerTextbookComparison() {
    using I = ViaInterface;
    using D = DirectRing;
    using R = DirectTextbook<TextbookRing>;
    using Q = DirectTextbook<TextbookQueue>;
    for (std::int64_t rate : {1, 1'000, 1'000'000}) {
        add<I>("stream_hits", "ring", hitInOrder<I>)->Args({300, rate})->Iterations(20'000'000);
        add<D>("stream_hits", "ring_direct", hitInOrder<D>)
            ->Args({300, rate})
            ->Iterations(20'000'000);
        add<R>("stream_hits", "textbook_ring", hitInOrder<R>)
            ->Args({300, rate})
            ->Iterations(20'000'000);
        add<Q>("stream_hits", "textbook_queue", hitInOrder<Q>)
            ->Args({300, rate})
            ->Iterations(20'000'000);
        benchmark::RegisterBenchmark("stream_hits/ring_runs", [](benchmark::State& s) {
            hitRunsInOrder<I>(s, "ring");
        })->Args({300, rate});
    }
    for (std::int64_t rate : {1, 1'000}) {
        add<I>("stream_hit_then_count", "ring", countAfterEachHitAtRate<I>)
            ->Args({300, rate})
            ->Iterations(2'000'000);
        add<R>("stream_hit_then_count", "textbook_ring", countAfterEachHitAtRate<R>)
            ->Args({300, rate})
            ->Iterations(2'000'000);
        add<Q>("stream_hit_then_count", "textbook_queue", countAfterEachHitAtRate<Q>)
            ->Args({300, rate})
            ->Iterations(2'000'000);
    }
}

void registerAll() {
    const std::vector<std::int64_t> windows{300, 3600};
    for (std::string_view name : policyNames()) {
        const std::string policy(name);
        using I = ViaInterface;
        for (std::int64_t w : windows) {
            add<I>("hit_in_order", policy, hitInOrder<I>)->Args({w, 64});
            add<I>("hit_late", policy, hitWithLateHits<I>)->Args({w});
            if (policy == "naive") {
                continue;  // its count() scans every call ever made; measured below, once
            }
            add<I>("count_monotonic", policy, countMonotonic<I>)->Args({w});
            add<I>("count_after_every_hit", policy, countAfterEveryHit<I>)->Args({w});
            add<I>("query_heavy_1_count_per_10_hits", policy, mixedStream<I>)->Args({w, 10});
            add<I>("hit_heavy_1_count_per_1000_hits", policy, mixedStream<I>)->Args({w, 1000});
        }
        if (policy == "naive") {
            add<I>("count_monotonic", policy, countMonotonic<I>)->Args({300})->Iterations(20'000);
            add<I>("query_heavy_1_count_per_10_hits", policy, mixedStream<I>)
                ->Args({300, 10})
                ->Iterations(2'000);
        }
        for (std::int64_t hits : {1'000, 100'000, 10'000'000}) {
            add<I>("memory", policy, memoryAtHits<I>)
                ->Args({300, hits})
                ->Iterations(1)
                ->Unit(benchmark::kMillisecond);
        }
    }
    // The ring called directly (no virtual call), as a caller holding a RingCounter does.
    using D = DirectRing;
    for (std::int64_t w : windows) {
        add<D>("hit_in_order", "ring_direct", hitInOrder<D>)->Args({w, 64});
        add<D>("count_monotonic", "ring_direct", countMonotonic<D>)->Args({w});
        add<D>("count_after_every_hit", "ring_direct", countAfterEveryHit<D>)->Args({w});
    }
    registerTextbookComparison();
}

}  // namespace

int main(int argc, char** argv) {
    registerAll();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
