// RunLog: a log of accepted requests as runs (second, how many), oldest first, with their
// total. The sliding log limiter's per-key state and WindowPeak's.
//
// Not thread-safe; owned by its limiter.
//
// Semantics: append(t, n) adds n requests at t (t not older than the newest run; a run at the
// same second grows); expire(now, w) drops the runs with now - t >= w (outside (now - w, now]).
// total() is the sum of the live runs; it never exceeds what was appended, so it cannot wrap
// while callers append at most a limit's worth.
// Memory: one 16-byte run per distinct second live, plus at most as many dropped runs not yet
// compacted (the storage is compacted before it would grow); memoryBytes() is the heap part.
//
// Example: append(58, 1); append(59, 1); total() == 2; expire(118, 60): 58 dropped, total 1.
#pragma once

#include <cstddef>
#include <vector>

#include "core/base/types.h"

namespace hitcounter {

class RunLog {
public:
    struct Run {
        Timestamp time = 0;
        Count count = 0;
    };

    void append(Timestamp t, Count n) {
        if (n == 0)
            return;
        m_total += n;
        if (m_head < m_runs.size() && m_runs.back().time == t) {
            m_runs.back().count += n;
            return;
        }
        if (m_head > 0 && m_runs.size() == m_runs.capacity()) {
            m_runs.erase(m_runs.begin(), m_runs.begin() + static_cast<std::ptrdiff_t>(m_head));
            m_head = 0;
        }
        m_runs.push_back({t, n});
    }

    void expire(Timestamp now, Timestamp w) {
        while (m_head < m_runs.size() && now - m_runs[m_head].time >= w) {
            m_total -= m_runs[m_head].count;
            ++m_head;
        }
        if (m_head == m_runs.size()) {
            m_runs.clear();
            m_head = 0;
        }
    }

    Count total() const { return m_total; }
    bool empty() const { return m_head == m_runs.size(); }
    // The live runs, oldest first.
    const Run* begin() const { return m_runs.data() + m_head; }
    const Run* end() const { return m_runs.data() + m_runs.size(); }
    std::size_t heapBytes() const { return m_runs.capacity() * sizeof(Run); }

private:
    std::vector<Run> m_runs;
    std::size_t m_head = 0;  // runs before it have expired
    Count m_total = 0;
};

}  // namespace hitcounter
