// ProblemLog: the problems a listener has seen (bad lines, timed-out connections, ...), counted
// per kind, with the most recent of each kind and of all, each naming its origin; and the
// recent bad lines themselves (badLines(), the bad-lines table's rows).
//
// Thread-safe: every receiver thread of one listener may note problems into the same log
// while any thread reads it; m_mutex guards m_problems and m_last. Problems are the rare path
// (a good line never comes here), so one lock for all receivers is not a hot lock; even a
// flood of bad lines spends far more on building each message than on the lock.
//
// Bounded: at most kMaxKinds kinds are kept, the last of them being "other problems", which
// holds every kind that came after the others.
//
// Example: note("unknown type", "x1"); note("connection refused", "r1"); note("unknown type",
//          "x2") -> problems() == {{"unknown type", 2, "x2"}, {"connection refused", 1, "r1"}},
//          last() == "x2"
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/sources/bad_lines.h"

namespace hitcounter {

// One kind of problem (a bad line's reason, a timed-out connection, ...): how often it
// happened and the most recent one with its origin.
struct ProblemCount {
    std::string kind;  // e.g. "unknown type", "connection timed out"
    std::uint64_t count = 0;
    std::string last;  // e.g. `statsd udp 127.0.0.1:8125 from 127.0.0.1:4711: unknown type: "x"`
};

class ProblemLog {
public:
    static constexpr std::size_t kMaxKinds = 32;

    // Counts one problem of `kind` and keeps `message` (already naming its origin) as the most
    // recent of its kind and of all.
    void note(std::string_view kind, std::string message);

    // The most recent problem; "" if none.
    std::string last() const;
    // Every kind seen, in the order each first appeared.
    std::vector<ProblemCount> problems() const;
    // The recent bad lines of every receiver (thread-safe itself).
    BadLineLog& badLines() { return m_badLines; }
    const BadLineLog& badLines() const { return m_badLines; }

private:
    mutable std::mutex m_mutex;
    std::vector<ProblemCount> m_problems;  // guarded by m_mutex
    std::string m_last;                    // guarded by m_mutex
    BadLineLog m_badLines;
};

}  // namespace hitcounter
