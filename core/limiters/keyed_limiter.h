// KeyedLimiter<Algorithm>: a RateLimiter (rate_limiter.h, whose contract applies) giving every
// key its own Algorithm::State in a KeyTable, with the clock and the idle-key eviction shared
// by the four algorithms (fixed_window.h, sliding_log.h, sliding_counter.h, token_bucket.h).
//
// Not thread-safe; owned by one thread.
//
// Cost: admit() is one hash lookup plus the algorithm's O(1) rule (amortized O(1) for `log`)
// plus O(1) per evicted key. Memory: see rate_limiter.h; state(key) exposes a key's state for
// the views that draw it (nullptr for a key in its fresh state: never seen or evicted).
//
// Example, L = 2, W = 60, KeyedLimiter<SlidingLog>:
//     admit("a", 58) == 1, admit("a", 59) == 1, admit("a", 60) == 0, admit("b", 60, 5) == 2
//     liveKeys() == 2; advance(119): "a" (last accepted at 59) evicted; advance(120): "b" too
#pragma once

#include <string_view>

#include "core/limiters/key_table.h"
#include "core/limiters/rate_limiter.h"

namespace hitcounter {

// Throws std::invalid_argument naming the value unless 1 <= L <= kMaxRateLimit and
// 1 s <= W <= kMaxRatePeriod.
void checkRateLimit(const RateLimit& limit);

template <typename Algorithm>
class KeyedLimiter final : public RateLimiter {
public:
    using State = typename Algorithm::State;

    explicit KeyedLimiter(RateLimit limit)
        : m_limit((checkRateLimit(limit), limit)), m_table(Algorithm::idleHorizon(limit)) {}

    Count admit(std::string_view key, Timestamp t, Count n = 1) override {
        advance(t);
        if (n == 0)
            return 0;
        auto* entry = m_table.find(key);
        if (entry == nullptr)
            entry = &m_table.insert(key, m_now);
        const Count accepted = Algorithm::admit(entry->state, m_now, n, m_limit);
        if (accepted > 0)
            m_table.touch(*entry, m_now);
        return accepted;
    }

    void advance(Timestamp now) override {
        if (now > m_now)
            m_now = now;
        m_table.evictIdle(m_now);
    }

    std::string_view name() const override { return Algorithm::kName; }
    RateLimit limit() const override { return m_limit; }
    std::chrono::seconds idleHorizon() const override {
        return std::chrono::seconds{Algorithm::idleHorizon(m_limit)};
    }
    std::size_t liveKeys() const override { return m_table.size(); }
    Count evictedKeys() const override { return m_table.evicted(); }
    std::size_t memoryBytes() const override {
        return sizeof(*this) + m_table.memoryBytes(&Algorithm::heapBytes);
    }

    // The limiter's clock: the newest second seen.
    Timestamp now() const { return m_now; }
    const State* state(std::string_view key) const {
        const auto* entry = m_table.find(key);
        return entry == nullptr ? nullptr : &entry->state;
    }

private:
    RateLimit m_limit;
    KeyTable<State> m_table;
    Timestamp m_now = 0;
};

}  // namespace hitcounter
