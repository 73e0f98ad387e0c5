#include "core/io/time_jump_check.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace hitcounter {

bool TimeJumpCheck::isJump(Timestamp time) const {
    // Times are at most kTraceMaxTimestamp (2^62 - 1) and m_maxJump is far below 2^62: no overflow.
    return m_maxJump > 0 && m_head && time - *m_head > m_maxJump;
}

TraceStatus TimeJumpCheck::next(TraceRow& row, const Read& read) {
    m_madeLast = false;
    TraceStatus status;
    if (m_pending) {
        status = *m_pending;
        m_pending.reset();
        if (status == TraceStatus::Row)
            row = std::move(m_pendingRow);
    } else {
        status = read(row);
    }
    if (status != TraceStatus::Row)
        return status;
    if (isJump(row.event.time)) {
        m_pending = read(m_pendingRow);
        const bool confirmed = *m_pending == TraceStatus::Row && isJump(m_pendingRow.event.time) &&
                               std::abs(m_pendingRow.event.time - row.event.time) <= m_maxJump;
        if (!confirmed) {
            ++m_badRows;
            m_madeLast = true;
            m_error = {row.line, TraceErrorKind::TimeTooFarAhead,
                       "time " + std::to_string(row.event.time) + " is " +
                           std::to_string(row.event.time - *m_head) +
                           " s ahead of the newest time so far (" + std::to_string(*m_head) +
                           ") and the next row does not confirm it (a jump of more than " +
                           std::to_string(m_maxJump) + " s needs the next row to follow it)",
                       false};
            return TraceStatus::BadRow;
        }
    }
    m_head = m_head ? std::max(*m_head, row.event.time) : row.event.time;
    return TraceStatus::Row;
}

}  // namespace hitcounter
