// TraceRecorder: records hits to a trace CSV file (TraceWriter's format) so that a crash
// never leaves a half-written file under the final name.
//
// Not thread-safe; one owner thread at a time: the EngineWorker's thread (the GUI's recording
// tap, engine_worker.h), RecordingSource's worker (the CLI's `simulate --record`) or the CLI
// `listen --record`'s counting loop.
//
// Semantics:
//  - FILE is checked and opened by OutputFile (output_file.h), which the constructor's
//    errors come from: a bad name (empty, a directory, a dangling link...) throws at once.
//    A regular file: lines go to FILE.partial (partialPath()) and FILE itself is not
//    touched until finish(). A link is followed; a FIFO or character device is written
//    through, never replaced.
//  - write() buffers in memory; flush() hands the buffer to the kernel (write(2)), so a
//    crash or kill of the process after a flush loses nothing flushed. The owner calls
//    flushIfDue(now) often: it flushes when a second has passed since the last flush (or
//    the buffer passed kFlushBytes), so data is flushed at least once a second.
//  - finish(): flush, fsync the file, rename FILE.partial -> FILE (atomic: FILE is then the
//    previous complete file or the new complete one, never a mix), fsync the directory.
//  - discard(): for a recording that must not be kept (an interrupted `gen`): removes
//    FILE.partial.
//  - Without finish() (destruction after an error, or a crash) FILE.partial stays: a
//    clearly named partial recording, readable by TraceReader up to its last flushed line.
//  - Events a trace cannot hold (time outside [0, 2^62), count 0) are skipped and counted.
//  - I/O errors (disk full) do not throw from write/flush: error() names the file and the
//    problem and later writes are dropped; finish() then throws and leaves FILE.partial.
//
// Example: TraceRecorder rec("run.csv");  rec.write(batch);  rec.flushIfDue(now);
//          rec.finish();   // run.csv complete; run.csv.partial gone
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>

#include "core/io/output_file.h"
#include "core/io/trace_writer.h"

namespace hitcounter {

class TraceRecorder {
public:
    static constexpr std::chrono::seconds kFlushInterval{1};
    static constexpr std::size_t kFlushBytes = 1 << 20;

    static std::filesystem::path partialPath(const std::filesystem::path& file);

    // Creates (truncates) FILE.partial, or opens a device or FIFO, and writes the header;
    // throws OutputFileError (an Error) naming the file and the reason if it cannot.
    explicit TraceRecorder(std::filesystem::path file, TraceColumns columns = {});
    ~TraceRecorder();

    TraceRecorder(const TraceRecorder&) = delete;
    TraceRecorder& operator=(const TraceRecorder&) = delete;

    void write(const HitBatch& batch);
    // Writes "# text" (TraceWriter::writeComment).
    void writeComment(std::string_view text);
    // Flushes if kFlushInterval has passed since the last flush (now from any steady clock).
    // The first call only starts the interval (the constructor flushed the header).
    void flushIfDue(std::chrono::nanoseconds now);
    void flush();
    // Throws Error naming the file if the recording could not be completed.
    void finish();
    // Drops what is buffered and removes FILE.partial (write-through: closes only).
    void discard();

    bool finished() const { return m_finished; }
    const std::string& error() const { return m_error; }
    std::uint64_t eventsWritten() const { return m_events; }
    std::uint64_t hitsWritten() const { return m_hits; }
    std::uint64_t eventsSkipped() const { return m_skipped; }
    std::uint64_t bytesFlushed() const { return m_bytesFlushed; }
    const std::filesystem::path& file() const { return m_out.file(); }
    // The number of bytes written so far, flushed or not.
    std::uint64_t bytesWritten() const;

private:
    void setError(const std::string& what);

    OutputFile m_out;
    mutable std::ostringstream m_buffer;  // mutable: tellp() is not const
    TraceWriter m_writer;                 // writes into m_buffer
    std::chrono::nanoseconds m_lastFlush{std::chrono::nanoseconds::min()};
    bool m_finished = false;
    std::string m_error;
    std::uint64_t m_events = 0;
    std::uint64_t m_hits = 0;
    std::uint64_t m_skipped = 0;
    std::uint64_t m_bytesFlushed = 0;
};

}  // namespace hitcounter
