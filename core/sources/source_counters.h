// SourceCounters: the live counters behind Source::stats().
//
// Thread-safe: each counter is an atomic the worker adds to and any thread reads; a snapshot
// is not one instant across counters (each is exact on its own), which is what a status bar
// needs. Counts saturate at UINT64_MAX (addSaturating), never wrap.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/base/saturating.h"

#include "core/sources/source.h"

namespace hitcounter {

// counter += n, clamped at UINT64_MAX; relaxed, like every counter here.
inline void addSaturating(std::atomic<std::uint64_t>& counter, std::uint64_t n) {
    std::uint64_t now = counter.load(std::memory_order_relaxed);
    while (!counter.compare_exchange_weak(now, saturatingAdd(now, n), std::memory_order_relaxed)) {
    }
}

struct SourceCounters {
    std::atomic<std::uint64_t> packets{0};
    std::atomic<std::uint64_t> lines{0};
    std::atomic<std::uint64_t> hits{0};
    std::atomic<std::uint64_t> badLines{0};
    std::atomic<std::uint64_t> ignoredLines{0};
    std::atomic<std::uint64_t> dropped{0};
    std::atomic<std::uint64_t> lateHits{0};

    SourceStats snapshot() const {
        constexpr auto r = std::memory_order_relaxed;
        return SourceStats{packets.load(r),      lines.load(r),   hits.load(r),    badLines.load(r),
                           ignoredLines.load(r), dropped.load(r), lateHits.load(r)};
    }
};

}  // namespace hitcounter
