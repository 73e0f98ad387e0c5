// TraceIndex: a sparse index of a trace file by time, built in one pass while a replay
// loads, so a seek reads only the rows it needs instead of the file from the start.
//
// Not thread-safe; built and used by the replay worker.
//
// Terms: a trace is played in file order; its "head" after a row is the largest time of
// that row and all rows before it (rows may be late: older than the head). An entry marks
// the start of a row: its byte offset, its row number and the head just before it. Entries
// are added every kStride rows, so headBefore never decreases along the index.
// locate(x) returns the last entry whose headBefore <= x: every row before it has a head
// <= x, and fewer than kStride rows after it the head is still <= x (the next entry's head
// is > x), so a reader resumed there finds the first row with head > x quickly.
//
// Memory: one entry (32 bytes) per kStride rows (10 million rows: about 300 KiB).
// locate: O(log entries).
#pragma once

#include <cstdint>
#include <vector>

#include "core/counters/window_counter.h"

namespace hitcounter {

struct TraceIndexEntry {
    Timestamp headBefore = 0;  // the largest time of the rows before this one (or min())
    std::uint64_t offset = 0;  // byte offset where reading resumes (before comments, if any)
    std::uint64_t line = 0;    // physical lines before the offset
    std::uint64_t row = 0;     // good rows before this one
};

class TraceIndex {
public:
    static constexpr std::uint64_t kStride = 1024;

    void clear() { m_entries.clear(); }
    // Entries must come in file order with headBefore non-decreasing.
    void add(const TraceIndexEntry& entry) { m_entries.push_back(entry); }
    // Whether the row with this number should get an entry.
    static bool wants(std::uint64_t row) { return row % kStride == 0; }

    // The last entry whose headBefore <= x; the first entry if none (or an empty index).
    TraceIndexEntry locate(Timestamp x) const;
    std::size_t size() const { return m_entries.size(); }

private:
    std::vector<TraceIndexEntry> m_entries;
};

}  // namespace hitcounter
