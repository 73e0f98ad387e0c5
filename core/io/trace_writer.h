// TraceWriter: writes hits as trace CSV (trace_format.h, docs/formats.md) that TraceReader
// reads back unchanged.
//
// Not thread-safe; one owner thread calls it (e.g. a recorder draining a BatchQueue).
//
// Semantics: the constructor writes the header line for the chosen columns; write() appends
// one line per event, in the order given, and leaves buffering to the stream (call flush() at
// the points that must reach the file, e.g. after each batch). Keys and visitors cannot hold
// ',' '\r' '\n' (the format has no quoting) and are not trimmed on read, so those characters
// and surrounding spaces/tabs are replaced by '_'; an empty key stays empty. Events whose time
// is outside [0, kTraceMaxTimestamp], whose count is 0, or whose count is above 1 without a
// count column would not read back: write() rejects them with std::invalid_argument and writes
// nothing.
// good() is false once the stream has failed (disk full, closed pipe); nothing throws for I/O.
// Cost: O(length of the line) per event; no memory besides the stream's buffer.
//
// Example:
//     std::ostringstream out;
//     TraceWriter writer(out, TraceColumns{.key = true, .visitor = false, .count = true});
//     writer.write({5, "home", "u1", 2});  // out == "timestamp,key,count\n5,home,2\n"
#pragma once

#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>

#include "core/base/hit_event.h"
#include "core/io/trace_format.h"

namespace hitcounter {

class TraceWriter {
public:
    // Writes to `out`, which must outlive the writer.
    explicit TraceWriter(std::ostream& out, TraceColumns columns = {});
    // Creates (truncates) the file; throws Error naming it if it cannot be opened.
    explicit TraceWriter(const std::filesystem::path& file, TraceColumns columns = {});

    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    void write(const HitEvent& event);
    void write(const HitBatch& batch);
    // Writes "# text" (line breaks in text replaced by spaces).
    void writeComment(std::string_view text);
    void flush();

    bool good() const { return m_out->good(); }
    TraceColumns columns() const { return m_columns; }

private:
    void writeHeader();
    void writeField(std::string_view text);

    std::unique_ptr<std::ofstream> m_file;  // set when the writer owns the file
    std::ostream* m_out;
    TraceColumns m_columns;
};

}  // namespace hitcounter
