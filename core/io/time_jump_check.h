// TimeJumpCheck: keeps one row dated far ahead of the rest of a file (a clock set to 2099 on one
// line) from becoming the replay's head, which would make every later row late. Used by HitFile
// on every row it reads, so the CLI's replay and limit and the GUI's replay judge alike.
//
// Not thread-safe; owned by one HitFile.
//
// The rule (docs/sources.md): the head is the newest time accepted so far. A row whose time is
// more than `maxJump` seconds ahead of the head is a jump. A jump is accepted (it becomes the
// head) only when the next row is confirmed by its neighbour: the next line that is a row is
// also more than `maxJump` ahead of the old head and within `maxJump` of the jump's time, as
// when a log resumes after a quiet week. Otherwise the jumped row is a bad row (kind
// TimeTooFarAhead, its line and both times named) and the head stays. The first row sets the
// head; maxJump 0 turns the check off. Rows behind the head are not this check's business (the
// counters count them late, or drop them).
// Cost: one row of lookahead (the row after a jump is read before the jump is returned).
//
// Example, maxJump 86400:
//     times 100, 4102444800, 101, 102  -> rows 100, 101, 102; line 2 a bad row
//     times 100, 900000, 900001        -> all three rows (the jump is confirmed)
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "core/io/trace_reader_types.h"

namespace hitcounter {

class TimeJumpCheck {
public:
    // The next row, bad row or end of the underlying reader.
    using Read = std::function<TraceStatus(TraceRow&)>;

    explicit TimeJumpCheck(std::chrono::seconds maxJump) : m_maxJump(maxJump.count()) {}

    // What `read` gives, with jumped rows turned into bad rows (error() then says why).
    TraceStatus next(TraceRow& row, const Read& read);
    // The error of the bad row next() just returned if this check made it; nullptr when the bad
    // row came from `read` (ask the reader).
    const TraceError* error() const { return m_madeLast ? &m_error : nullptr; }
    // Rows turned into bad rows so far.
    std::uint64_t badRows() const { return m_badRows; }
    // Goes on after rows read elsewhere (a reader that skipped them before any next()):
    // `head` is the newest time among them.
    void continueFrom(Timestamp head) { m_head = head; }

private:
    bool isJump(Timestamp time) const;

    std::int64_t m_maxJump;
    std::optional<Timestamp> m_head;
    std::optional<TraceStatus> m_pending;  // read ahead after a jump; `m_pendingRow` if a Row
    TraceRow m_pendingRow;
    TraceError m_error;
    bool m_madeLast = false;
    std::uint64_t m_badRows = 0;
};

}  // namespace hitcounter
