// TraceCursor: reads a trace file's rows from any TraceIndexEntry onwards, with the one CSV
// parser (TraceReader). Resuming mid-file needs the header: the cursor splices the file's
// first bytes (`prefix`: everything up to the end of the first row or bad row, which
// includes the header) in front of the resume offset, and skips that first row again.
//
// Not thread-safe; owned by the replay worker. Memory: the prefix plus two chunks.
//
// Example: file "timestamp\n1\n2\n3\n", prefix "timestamp\n1\n" (12 bytes); a cursor at
//          offset 14 (row 2) returns the row with time 3, then End.
#pragma once

#include <filesystem>
#include <fstream>
#include <istream>
#include <memory>
#include <optional>
#include <string>

#include "core/io/spliced_streambuf.h"
#include "core/io/trace_reader.h"
#include "core/sources/trace_index.h"

namespace hitcounter {

class TraceCursor {
public:
    // Offset 0 reads the file from its start. Throws std::runtime_error if the file cannot
    // be opened.
    TraceCursor(const std::filesystem::path& file, const std::string& prefix,
                const TraceIndexEntry& at);

    TraceCursor(const TraceCursor&) = delete;
    TraceCursor& operator=(const TraceCursor&) = delete;

    TraceStatus next(TraceRow& row) { return m_reader->next(row); }

private:
    std::ifstream m_file;
    std::unique_ptr<SplicedStreambuf> m_spliced;  // set when resuming mid-file
    std::unique_ptr<std::istream> m_stream;
    std::unique_ptr<TraceReader> m_reader;
};

}  // namespace hitcounter
