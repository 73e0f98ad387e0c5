// SlowCounter: a policy that is slow on purpose, for the engine and cost-meter tests: an exact
// ring that spins for `spin` of its thread's CPU time (what the CostMeter measures, so a busy
// machine does not shorten it) in its hit() calls: every call, or only the `onlyCall`-th (a
// stall). With `calls` shared between instances, the `onlyCall`-th call of them all (a
// measurement makes a fresh instance per sample: one stall in one sample).
// SleepingCounter: an exact ring whose hit() sleeps for `sleep` of wall time, using almost no
// CPU: what a measure of thread CPU time must not charge it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string_view>
#include <thread>

#include <time.h>

#include "core/counters/ring_counter.h"
#include "core/counters/window_counter.h"

namespace hitcounter::testing {

class SlowCounter final : public CopyableCounter<SlowCounter> {
public:
    explicit SlowCounter(std::chrono::nanoseconds spin, std::uint64_t onlyCall = 0,
                         std::shared_ptr<std::uint64_t> calls = nullptr)
        : m_spin(spin),
          m_onlyCall(onlyCall),
          m_calls(calls ? std::move(calls) : std::make_shared<std::uint64_t>(0)) {}
    void hit(Timestamp t, Count n) override {
        if (++*m_calls == m_onlyCall || m_onlyCall == 0) {
            const auto until = cpuNow() + m_spin;
            while (cpuNow() < until) {
            }
        }
        m_ring.hit(t, n);
    }
    Count count(Timestamp t) override { return m_ring.count(t); }
    std::chrono::seconds window() const override { return m_ring.window(); }
    std::size_t memoryBytes() const override { return m_ring.memoryBytes(); }
    bool isExact() const override { return true; }
    std::string_view name() const override { return "slow"; }
    Count droppedLate() const override { return m_ring.droppedLate(); }

private:
    static std::chrono::nanoseconds cpuNow() {
        timespec now{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
    }

    std::chrono::nanoseconds m_spin;
    std::uint64_t m_onlyCall;
    std::shared_ptr<std::uint64_t> m_calls;
    RingCounter m_ring;
};

class SleepingCounter final : public CopyableCounter<SleepingCounter> {
public:
    explicit SleepingCounter(std::chrono::nanoseconds sleep) : m_sleep(sleep) {}
    void hit(Timestamp t, Count n) override {
        std::this_thread::sleep_for(m_sleep);
        m_ring.hit(t, n);
    }
    Count count(Timestamp t) override { return m_ring.count(t); }
    std::chrono::seconds window() const override { return m_ring.window(); }
    std::size_t memoryBytes() const override { return m_ring.memoryBytes(); }
    bool isExact() const override { return true; }
    std::string_view name() const override { return "sleeping"; }
    Count droppedLate() const override { return m_ring.droppedLate(); }

private:
    std::chrono::nanoseconds m_sleep;
    RingCounter m_ring;
};

}  // namespace hitcounter::testing
