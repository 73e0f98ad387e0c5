// Simulator and replay costs (issue 4): the traffic model per simulated second at 10^3..10^7
// hits/s, the simulator end to end as fast as possible, a replay's load pass (rows/s) and a
// seek's rebuild through the counting thread. Run by hand; numbers in docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "core/engine/engine_worker.h"
#include "core/sim/traffic_model.h"
#include "core/sources/replay_source.h"
#include "core/sources/simulator_source.h"
#include "core/time/manual_clock.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

void modelSecond(benchmark::State& state) {
    const TrafficModel model({.pattern = TrafficPattern::Poisson,
                              .rate = static_cast<double>(state.range(0)),
                              .keys = 1000,
                              .visitors = 100000,
                              .jitter = 5s});
    HitBatch batch;
    Timestamp t = 1'000'000;
    Count hits = 0;
    for (auto _ : state) {
        batch.clear();
        model.appendEventsAt(t++, batch);
        for (const HitEvent& e : batch) {
            hits += e.count;
        }
        benchmark::DoNotOptimize(batch.data());
    }
    state.counters["hits/s"] =
        benchmark::Counter(static_cast<double>(hits), benchmark::Counter::kIsRate);
    state.counters["events/second"] = static_cast<double>(batch.size());
}
BENCHMARK(modelSecond)->Arg(1000)->Arg(100000)->Arg(10'000'000)->Unit(benchmark::kMicrosecond);

// 1000 simulated seconds at 10^7 hits/s through SimulatorSource and its queue.
void simulatorAsFastAsPossible(benchmark::State& state) {
    ManualClock base(0s);
    for (auto _ : state) {
        BatchQueue queue(64);
        SimulatorSource sim(base, {.traffic = {.pattern = TrafficPattern::Steady, .rate = 1e7},
                                   .start = 0,
                                   .duration = 1000s,
                                   .speed = VirtualClock::kAsFastAsPossible});
        sim.start(queue);
        while (sim.running() || !queue.drain().empty()) {
            queue.popFor(1ms);
        }
        state.counters["simulated s/s"] =
            benchmark::Counter(1000, benchmark::Counter::kIsIterationInvariantRate);
    }
}
BENCHMARK(simulatorAsFastAsPossible)->Unit(benchmark::kMillisecond)->UseRealTime();

// A trace of `rows` rows (100 per second, 7 keys, 1000 visitors), written once.
std::filesystem::path traceFile(std::int64_t rows) {
    const auto path =
        std::filesystem::temp_directory_path() /
        ("hitcounter_bench_" + std::to_string(getpid()) + "_" + std::to_string(rows) + ".csv");
    if (!std::filesystem::exists(path)) {
        std::ofstream out(path, std::ios::binary);
        out << "timestamp,key,visitor\n";
        for (std::int64_t i = 0; i < rows; ++i) {
            out << 1'700'000'000 + i / 100 << ",/page/" << i % 7 << ",v" << i % 1000 << '\n';
        }
    }
    return path;
}

bool loaded(const ReplaySource& replay) {
    const ReplayState s = replay.progress().state;
    return s != ReplayState::Idle && s != ReplayState::Loading;
}

void replayLoad(benchmark::State& state) {
    const auto path = traceFile(state.range(0));
    ManualClock base(0s);
    for (auto _ : state) {
        BatchQueue queue;
        ReplaySource replay(base, path, {.startPaused = true});
        replay.start(queue);
        while (!loaded(replay)) {
            std::this_thread::sleep_for(1ms);
        }
    }
    state.counters["rows/s"] = benchmark::Counter(static_cast<double>(state.range(0)),
                                                  benchmark::Counter::kIsIterationInvariantRate);
    state.counters["MB/s"] =
        benchmark::Counter(static_cast<double>(std::filesystem::file_size(path)) / 1e6,
                           benchmark::Counter::kIsIterationInvariantRate);
    std::filesystem::remove(path);
}
BENCHMARK(replayLoad)
    ->Arg(1'000'000)
    ->Arg(10'000'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

// Seeks `replay` to `target` and waits until the counting thread has built a frame of the
// seek's epoch with nothing left queued; returns that frame's total hits.
Count seekAndSettle(ReplaySource& replay, EngineWorker& worker, Timestamp target) {
    replay.seek(target);
    const std::uint64_t epoch = replay.epoch();
    for (;;) {
        // Frames are asked for only once the rebuild is queued: they cost counting time.
        if (replay.progress().seeksApplied >= epoch) {
            const std::uint64_t ticket = worker.requestFrame();
            std::shared_ptr<const EngineFrame> frame;
            while (!(frame = worker.takeFrame()) || frame->ticket < ticket) {
                std::this_thread::sleep_for(1ms);
            }
            if (frame->idle && frame->streamEpoch == epoch) {
                return frame->snapshot.totalHits;
            }
        }
        std::this_thread::sleep_for(1ms);
    }
}

constexpr std::int64_t kSeekRows = 10'000'000;  // 100 rows a second over 100 000 s
constexpr Timestamp kSeekFirst = 1'700'000'000;

// A seek on a 10-million-row trace to `range(0)` percent of it, counted by the counting
// thread: from seek() until a frame of the seek's epoch is built with nothing left queued.
// `range(1)` 0: no checkpoints, the rebuild fast-forwards every row up to the target through
// every policy and the keyed monitor, so the cost grows with the target. 1: with the counting
// thread's checkpoints (seek_checkpoints.h), left by one seek to the end before the timed
// ones: only the rows after the nearest checkpoint are counted (the file is still read from
// its start).
void replaySeekCounted(benchmark::State& state) {
    const auto path = traceFile(kSeekRows);
    ManualClock base(0s);
    BatchQueue queue(4096);
    EngineWorker worker(queue);
    worker.start();
    ReplaySource replay(base, path, {.startPaused = true});
    const bool checkpoints = state.range(1) != 0;
    if (checkpoints) {
        replay.setCheckpoints(worker.checkpoints(), 1);
    }
    replay.start(queue);
    while (!loaded(replay)) {
        std::this_thread::sleep_for(1ms);
    }
    if (checkpoints) {
        seekAndSettle(replay, worker, kSeekFirst + kSeekRows / 100);
    }
    const Timestamp target = kSeekFirst + kSeekRows / 100 * state.range(0) / 100;
    Count hits = 0;
    for (auto _ : state) {
        hits = seekAndSettle(replay, worker, target);
    }
    state.counters["rows"] = static_cast<double>(hits);
    state.counters["rows/s"] = benchmark::Counter(static_cast<double>(hits),
                                                  benchmark::Counter::kIsIterationInvariantRate);
    const CheckpointStore::Stats kept = worker.checkpoints()->stats();
    state.counters["checkpoints"] = static_cast<double>(kept.checkpoints);
    state.counters["checkpoint_MB"] = static_cast<double>(kept.bytes) / (1 << 20);
    replay.stop();
    worker.stop();
    std::filesystem::remove(path);  // 240 MB: not left behind (each target writes it anew)
}
BENCHMARK(replaySeekCounted)
    ->ArgsProduct({{1, 10, 30, 50, 70, 90, 100}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(5);

}  // namespace

BENCHMARK_MAIN();
