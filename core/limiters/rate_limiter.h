// RateLimiter: the one interface of the per-key rate limiters ("should this request be let
// in?"), each key limited to L requests per W seconds on its own.
//
// Not thread-safe; owned by one thread (the CLI's main, the GUI's rate-limit feed, a lesson).
//
// Contract (shared by every algorithm; each algorithm's header gives its own rule):
//  - Time is whole seconds (Timestamp, 0 <= t < 2^62), passed in. The limiter's clock is the
//    newest second it has seen; a late request (t older than that) is decided at the newest
//    second, as a real limiter would decide it on arrival.
//  - admit(key, t, n) decides n requests of `key` arriving together at second t, one after the
//    other, and returns how many were accepted. They are always the first ones: once a request
//    is rejected, the same key at the same second rejects the rest too.
//  - Rejected requests change no state (only accepted ones count against the limit).
//  - Decisions use integer arithmetic only (128-bit where products can exceed 64 bits): no
//    floating-point drift at any t, L or W the limits below allow.
//  - Per key: each key has its own state. A key is evicted once its state equals a fresh
//    key's (its last accepted request is idleHorizon() seconds old: W, or 2W for `counter`),
//    so eviction never changes a decision. Memory bound: the live keys are at most the keys
//    with an accepted request in the last idleHorizon() seconds (the oldest is evicted first,
//    O(1) each, during admit() and advance()); each costs a fixed few dozen bytes plus its key
//    (and, for `log`, one 16-byte run per distinct second it accepted in the window, at most
//    min(L, W) runs).
//  - memoryBytes() is what the limiter holds now (map buckets, nodes, keys, logs), O(keys).
//
// Example, L = 2 per W = 60, one key, requests at 58, 59, 60, 61:
//     fixed    accept accept accept accept   windows [0, 60) and [60, 120) each take 2: the
//                                            boundary burst lets 4 through in 4 seconds
//     log      accept accept reject reject   58 and 59 are still in (t - 60, t]
//     counter  accept accept reject accept   at 60: 2 x (60 - 0) + 0 x 60 = 120, not < 120;
//                                            at 61: 2 x (60 - 1) = 118 < 120
//     bucket   accept accept reject reject   2 tokens at 58; 1/30 token per second refills
//                                            too slowly for 60 and 61
#pragma once

#include <chrono>
#include <cstddef>
#include <string_view>

#include "core/base/types.h"

namespace hitcounter {

// L requests per W seconds.
struct RateLimit {
    Count limit = 1;              // L, in [1, kMaxRateLimit]
    std::chrono::seconds per{1};  // W, in [1 s, kMaxRatePeriod]

    friend bool operator==(const RateLimit&, const RateLimit&) = default;
};

inline constexpr Count kMaxRateLimit = (Count{1} << 62) - 1;
inline constexpr std::chrono::seconds kMaxRatePeriod{(std::int64_t{1} << 62) - 1};

class RateLimiter {
public:
    virtual ~RateLimiter() = default;

    // Decides n requests (n = 0 decides nothing and returns 0). Returns the number accepted.
    virtual Count admit(std::string_view key, Timestamp t, Count n = 1) = 0;
    // Moves the clock to now (if newer) and evicts idle keys, without a request.
    virtual void advance(Timestamp now) = 0;

    bool allow(std::string_view key, Timestamp t) { return admit(key, t, 1) == 1; }

    // The factory name ("fixed", "log", "counter", "bucket").
    virtual std::string_view name() const = 0;
    virtual RateLimit limit() const = 0;
    // A key idle this long (no accepted request) is in its fresh state and is evicted.
    virtual std::chrono::seconds idleHorizon() const = 0;
    virtual std::size_t liveKeys() const = 0;
    virtual Count evictedKeys() const = 0;
    virtual std::size_t memoryBytes() const = 0;
};

}  // namespace hitcounter
