// SourceCounters: the live counters behind Source::stats().
//
// Thread-safe: each counter is an atomic the worker adds to and any thread reads; a snapshot
// is not one instant across counters (each is exact on its own), which is what a status bar
// needs.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/sources/source.h"

namespace hitcounter {

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
