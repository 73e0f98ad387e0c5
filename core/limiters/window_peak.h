// WindowPeak: the largest number of accepted requests of one key in any window (t - W, t],
// the `max_in_any_window` of `hitcounter-cli limit --json` and of the Rate limits view. Fed a
// limiter's accepted requests, it shows the boundary burst: up to 2L for `fixed`, at most L for
// `log`.
//
// Not thread-safe; owned by one thread.
//
// Semantics: record(key, t, n) adds n accepted requests of key at t (a late t counts at the
// newest second seen, as the limiters decide it) and returns the key's accepted requests in
// (now - W, now] after it (the Rate limits view marks a boundary burst where that passes L;
// 0 for n == 0). peak() is the maximum over keys and over
// every window ending at a recorded second (a window's count only grows at those seconds, so
// that is the maximum over all windows). Counts saturate.
// Memory: like the sliding log (one run per key per distinct second in the window; keys idle
// for W seconds evicted). Cost: O(1) amortized per record().
//
// Example, W = 60: record("a", 58) record("a", 59) record("a", 60, 2): peak() == 4;
//     record("a", 118): 58 leaves, 59..118 holds 4; peak() stays 4.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "core/limiters/key_table.h"
#include "core/limiters/run_log.h"

namespace hitcounter {

class WindowPeak {
public:
    // Throws std::invalid_argument if per < 1 s.
    explicit WindowPeak(std::chrono::seconds per);

    Count record(std::string_view key, Timestamp t, Count n = 1);

    Count peak() const { return m_peak; }
    // The key and second where the peak was first reached.
    std::string_view peakKey() const { return m_peakKey; }
    Timestamp peakTime() const { return m_peakTime; }
    std::size_t liveKeys() const { return m_table.size(); }
    std::size_t memoryBytes() const;

private:
    std::int64_t m_per;
    KeyTable<RunLog> m_table;
    Timestamp m_now = 0;
    Count m_peak = 0;
    std::string m_peakKey;
    Timestamp m_peakTime = 0;
};

}  // namespace hitcounter
