// BadLineLog: the newest bad lines a source met (a statsd line of an unknown type, an access-log
// line that does not parse, a trace row without a time), each with when, where and why, so
// that the window can list them in one table for every source (Source::recentBadLines()).
//
// Threading: add() from the source's worker, recent() and total() from any thread; m_mutex
// guards m_lines and m_total. Memory: at most kMaxLines lines of at most kMaxLineBytes bytes
// (older ones are only counted).
//
// Example: log.add({1700000000, "statsd udp 127.0.0.1:8125", "127.0.0.1:4711",
//                   "unknown type", quoteLine("home:1|zz")});
//          log.recent().back().origin == "127.0.0.1:4711"
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/types.h"

namespace hitcounter {

struct BadLine {
    Timestamp time = 0;   // when it was met: unix seconds of the source's clock (wall time)
    std::string source;   // the source: "statsd udp 127.0.0.1:8125", "follow access.log"
    std::string origin;   // the sender ("127.0.0.1:4711") or the place ("access.log:1204")
    std::string problem;  // why it is bad: "unknown type", "expected a quoted request …"
    std::string line;     // the line as quoteLine() writes it; empty if not kept
    bool operator==(const BadLine&) const = default;
};

class BadLineLog {
public:
    static constexpr std::size_t kMaxLines = 200;
    static constexpr std::size_t kMaxLineBytes = 200;

    void add(BadLine line);
    // The kept lines, oldest first.
    std::vector<BadLine> recent() const;
    // Every line added (saturating).
    std::uint64_t total() const;

private:
    mutable std::mutex m_mutex;
    std::deque<BadLine> m_lines;  // guarded by m_mutex
    std::uint64_t m_total = 0;    // guarded by m_mutex
};

// A bad line made readable for a log or a table: at most `limit` bytes, '"' and '\' escaped,
// non-printable bytes as \xHH, quoted ("..." after a cut).
std::string quoteLine(std::string_view line, std::size_t limit = 80);

}  // namespace hitcounter
