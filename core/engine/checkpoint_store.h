// CheckpointStore: the counting thread's copies of its state at points of a replay's first
// pass, for seeks (the protocol: core/sources/seek_checkpoints.h). The EngineWorker adds one
// whenever its head has moved `spacing()` seconds of trace time past every one it holds; a
// seek restores the newest at or before its target and fast-forwards at most about that far.
//
// Bounds: the checkpoints of one stream are kept (a checkpoint of another stream replaces
// them), at most budgetBytes() in all: when one more would pass the budget, the spacing
// doubles and the checkpoints closer together than it are dropped (so they thin out evenly,
// each seek fast-forwarding at most twice as far). A state larger than the budget is not kept.
//
// Validity: a checkpoint holds the state counted with the options in force when it was taken.
// invalidate() (new engine or limits options) forgets every checkpoint and starts a new
// generation; checkpoints of an older generation are refused by add() and never returned.
//
// Threading: thread-safe (one mutex); the checkpoints themselves are immutable once added.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/engine/engine.h"
#include "core/sources/seek_checkpoints.h"

namespace hitcounter {

// The Engine's state at a point of the stream, counted in `generation`.
class CountingCheckpoint final : public SeekCheckpoint {
public:
    CountingCheckpoint(StreamPoint point, std::uint64_t generation, std::unique_ptr<Engine> engine)
        : SeekCheckpoint(point),
          m_generation(generation),
          m_bytes(engine->memoryBytes()),
          m_engine(std::move(engine)) {}
    std::uint64_t generation() const { return m_generation; }
    std::size_t bytes() const { return m_bytes; }
    const Engine& engine() const { return *m_engine; }

private:
    std::uint64_t m_generation;
    std::size_t m_bytes;
    std::unique_ptr<const Engine> m_engine;
};

class CheckpointStore final : public SeekCheckpoints {
public:
    static constexpr Timestamp kFirstSpacing = 60;  // seconds of trace time
    static constexpr std::size_t kDefaultBudgetBytes = std::size_t{64} << 20;
    static constexpr std::size_t kMaxBudgetBytes = std::size_t{256} << 20;
    // The budget for a replay of a file of `fileBytes`: a tenth of it, at least the default,
    // at most kMaxBudgetBytes (a 2 GB log: 205 MB; a large engine, many keys with their
    // sketches, leaves fewer checkpoints in a small budget and longer fast-forwards).
    static std::size_t budgetForFile(std::uintmax_t fileBytes);

    explicit CheckpointStore(std::size_t budgetBytes = kDefaultBudgetBytes);

    std::shared_ptr<const SeekCheckpoint> newestAtOrBefore(std::uint64_t stream,
                                                           Timestamp t) const override;
    // Whether a checkpoint of `stream` at `head`, holding about `bytes`, would be kept: of
    // `generation`, within the budget, and no checkpoint of the stream within spacing() of it.
    // Lets the counting thread copy its state only when it will be kept.
    bool wants(std::uint64_t stream, std::uint64_t generation, Timestamp head,
               std::size_t bytes) const;
    // Keeps `checkpoint` if wants() says so (else drops it).
    void add(std::uint64_t stream, std::shared_ptr<const CountingCheckpoint> checkpoint);

    // Forgets every checkpoint; returns the new generation.
    std::uint64_t invalidate();
    std::uint64_t generation() const;
    void setBudget(std::size_t bytes);
    std::size_t budgetBytes() const;

    struct Stats {
        std::size_t checkpoints = 0;
        std::size_t bytes = 0;
        Timestamp spacing = kFirstSpacing;
    };
    Stats stats() const;

private:
    bool wantsLocked(std::uint64_t stream, std::uint64_t generation, Timestamp head,
                     std::size_t bytes) const;
    // Doubles the spacing and drops checkpoints closer together than it until within budget.
    void thinLocked();

    mutable std::mutex m_mutex;
    std::size_t m_budget;                                           // guarded by m_mutex
    std::uint64_t m_generation = 1;                                 // guarded by m_mutex
    std::uint64_t m_stream = 0;                                     // guarded by m_mutex
    Timestamp m_spacing = kFirstSpacing;                            // guarded by m_mutex
    std::size_t m_bytes = 0;                                        // guarded by m_mutex
    std::vector<std::shared_ptr<const CountingCheckpoint>> m_kept;  // by head; guarded
};

}  // namespace hitcounter
