// FileFollower: `tail -F` for one file. Reads the lines appended to a file that is being
// written, and keeps reading across rotation by rename (the path gets a new file) and by
// truncation (logrotate's copytruncate). Linux: inotify wakes it early; it also polls, so a
// file system without inotify (NFS, some containers) works at the poll interval.
//
// Not thread-safe; one owner (a source's worker thread). No thread of its own.
//
// Semantics:
//  - Starts at the file's end (lines already there are not read; a partial last line is
//    skipped up to its line break), or at its start with fromStart.
//  - readNew() hands every complete new line (without '\n') to the callback. A partial last
//    line waits until its line break arrives. A line longer than maxLineBytes is dropped as it
//    streams past (counted in stats().tooLongLines), never held.
//  - Truncation: the file's size dropped below the read position, or its first bytes (up to
//    kHeadBytes, as seen when read) changed: it was cut and written again, even past the old
//    size between two reads. Reading restarts at 0; a partial line held is lost
//    (stats().lostPartialLines). A file cut and refilled with the same first bytes past the
//    read position looks unchanged.
//  - Rotation: the path names another file (new inode), or names none for a while. The new one
//    is read from its start; the old one stays open and is read too, until it has not grown for
//    rotatedQuiet (a writer that has not reopened yet still appends there, as `tail -F` reads
//    it). At most kMaxDraining old files are read so; a partial line left at the end of an old
//    file when it is closed is lost (stats().lostPartialLines).
//  - A missing file at construction is an error; a missing file later (between a rename and
//    the new file's creation) is waited for.
//  - Only a regular file is read (regular_file.h): a FIFO, a device (a symlink to /dev/zero)
//    or a directory is refused at construction (an error) and at every reopen after a rotation
//    (counted in stats().refusedFiles, named by problem(); the old file stays open, and the
//    path is checked again once another file is there). Nothing blocks and nothing spins.
//  - A new file at the path that cannot be opened (no permission) is counted once in
//    stats().unreadableFiles and named by problem(); it is tried again at every readNew().
// Memory: one 64 KiB read buffer plus at most maxLineBytes of a partial line per open file.
//
// Example:
//     FileFollower f("/var/log/nginx/access.log", {});
//     for (;;) { f.waitForChange(200ms); f.readNew([](std::string_view line) { ... }); }
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hitcounter {

struct FileFollowerOptions {
    bool fromStart = false;
    bool useInotify = true;  // false: poll only (tests of the fallback)
    std::size_t maxLineBytes = 64 * 1024;
    std::chrono::milliseconds rotatedQuiet{5000};  // an old file is read until quiet this long
};

struct FileFollowerStats {
    std::uint64_t bytes = 0;             // bytes read
    std::uint64_t lines = 0;             // complete lines handed out
    std::uint64_t rotations = 0;         // new files at the path
    std::uint64_t truncations = 0;       // restarts at 0 after the file shrank
    std::uint64_t tooLongLines = 0;      // lines dropped for exceeding maxLineBytes
    std::uint64_t lostPartialLines = 0;  // partial lines a rotation or truncation cut off
    std::uint64_t refusedFiles = 0;      // files at the path that were not regular (a FIFO, ...)
    std::uint64_t unreadableFiles = 0;   // regular files at the path that could not be opened
};

class FileFollower {
public:
    using LineFn = std::function<void(std::string_view line)>;
    static constexpr std::size_t kHeadBytes = 256;
    static constexpr std::size_t kMaxDraining = 4;

    // Throws RegularFileError (an Error) naming the file and the problem when it
    // cannot be opened or is not a regular file.
    FileFollower(std::filesystem::path file, FileFollowerOptions options);
    ~FileFollower();
    FileFollower(const FileFollower&) = delete;
    FileFollower& operator=(const FileFollower&) = delete;

    // Waits until the file (or its folder) changes or `timeout` passes (at most 100 ms while an
    // old file is still read: its writes do not wake the wait).
    void waitForChange(std::chrono::milliseconds timeout);
    // Reads everything new, handling truncation and rotation; calls onLine per complete line.
    void readNew(const LineFn& onLine);

    // The file's first bytes (up to `max`), for format detection; empty if it has none yet.
    std::string head(std::size_t max) const;
    const FileFollowerStats& stats() const { return m_stats; }
    // Why the file now at the path is not read ("cannot follow 'P': it is a character device
    // (a regular file is needed)"), or empty.
    const std::string& problem() const { return m_problem; }
    bool usingInotify() const { return m_inotify >= 0; }

private:
    using Clock = std::chrono::steady_clock;
    struct FileId {
        std::uint64_t device = 0;
        std::uint64_t inode = 0;
        bool operator==(const FileId&) const = default;
    };
    // One open file being read: where, and the line it is in the middle of.
    struct Reading {
        int fd = -1;
        FileId id;
        std::uint64_t offset = 0;
        std::string head;  // its first bytes as last seen (up to kHeadBytes)
        std::string partial;
        bool discarding = false;  // inside a line being skipped (too long, or cut at the start)
        Clock::time_point grew;   // when it last gave bytes (old files only)
    };

    // Throws RegularFileError naming the path and the problem.
    Reading open(bool atEnd) const;
    void watchFile();
    // Reads `r` from its offset to its end; the bytes read.
    std::uint64_t readToEnd(Reading& r, const LineFn& onLine);
    void consume(Reading& r, std::string_view chunk, const LineFn& onLine);
    // Cut and written again: its size below the offset, or other first bytes.
    bool rewritten(Reading& r) const;
    void losePartialLine(Reading& r);
    void close(Reading& r);
    void readOldFiles(const LineFn& onLine);
    // The path names another file: start reading it, keep the current one as an old file.
    void switchToNewFile(const LineFn& onLine);

    std::filesystem::path m_path;
    FileFollowerOptions m_options;
    Reading m_current;
    std::vector<Reading> m_old;  // rotated away, read until quiet (at most kMaxDraining)
    FileId m_refused;            // the file at the path refused last (not a regular file), if any
    FileId m_unreadable;         // the file at the path that could not be opened last, if any
    std::string m_problem;
    int m_inotify = -1;
    int m_fileWatch = -1;
    FileFollowerStats m_stats;
};

}  // namespace hitcounter
