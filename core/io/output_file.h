// OutputFile: the one place that decides how an output file named by the user is written
// (hitcounter-cli --record FILE and gen --out FILE, the GUI's recordings, via TraceRecorder).
//
// Not thread-safe; one owner.
//
// Semantics, checked when the OutputFile is made (before any work), each refusal an
// OutputFileError naming the file and the reason (the CLI's exit code 2):
//  - refused: an empty name, a name ending in '/', a directory, a block device, a socket, a
//    symbolic link to nothing, a FIFO with no reader (start the reader first), a missing or
//    unwritable directory, and a FILE.partial that exists but is not a regular file.
//  - a regular file, or a name not taken yet, is written atomically: the bytes go to
//    FILE.partial (created and truncated here, opened without following a link), commit()
//    fsyncs it, renames it to FILE and fsyncs the directory. FILE is the previous file or the
//    complete new one, never a mix.
//  - a symbolic link is followed deliberately: the file it points to is the one replaced
//    (atomically, its .partial beside it), the link itself stays a link.
//  - a character device (/dev/null, a terminal) or a FIFO is written through: opened as it
//    is, never truncated, renamed, replaced or removed; commit() only closes it.
//  - discard() removes FILE.partial (atomic mode only); destruction without commit() or
//    discard() just closes it, so a crash or an error leaves a readable FILE.partial.
//  - write() errors (disk full) do not throw: write() returns false and error() says why.
//
// Example: OutputFile out("run.csv");      // run.csv.partial created
//          out.write("timestamp\n1\n");    // true
//          out.commit();                   // run.csv complete, run.csv.partial gone
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/base/error.h"

namespace hitcounter {

// A file name that cannot be written; what() names the file and the reason. A failure after
// the file was accepted (commit()) is a plain Error: the CLI tells the two apart (exit code 2
// for the name, 1 for the write).
class OutputFileError : public Error {
public:
    using Error::Error;
};

class OutputFile {
public:
    // Checks `file` and opens where its bytes go; throws OutputFileError if it cannot.
    explicit OutputFile(std::filesystem::path file);
    ~OutputFile();

    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // FILE + ".partial", the name atomic mode writes first.
    static std::filesystem::path partialPath(const std::filesystem::path& file);

    // Writes all of `data` (retrying short writes and EINTR). False on an error (error()).
    bool write(std::string_view data);
    // Atomic mode: fsync, rename FILE.partial to FILE, fsync the directory. Write-through:
    // close. Throws Error naming the file on an error (FILE.partial then stays).
    void commit();
    // Closes and removes FILE.partial (atomic mode); closes only (write-through).
    void discard();

    // Whether FILE is written through (a device or FIFO) rather than replaced atomically.
    bool writesThrough() const { return m_through; }
    // The path the bytes go to now: FILE.partial, or FILE itself when written through.
    const std::filesystem::path& writePath() const { return m_writePath; }
    const std::filesystem::path& file() const { return m_file; }
    // The first error, "<path>: <problem>"; empty while all is well.
    const std::string& error() const { return m_error; }

private:
    void setError(const std::string& problem);
    void close();

    std::filesystem::path m_file;       // as given
    std::filesystem::path m_target;     // the file replaced: m_file, or a link's target
    std::filesystem::path m_writePath;  // m_target.partial, or m_target when written through
    bool m_through = false;
    int m_fd = -1;
    std::string m_error;
};

}  // namespace hitcounter
