// FollowSource: a live web server access log as a source, like `tail -F`: every line appended
// to the file is a hit, across rotation by rename and truncation (FileFollower), on a worker
// thread like every source.
//
// Threading: start() and stop() from the owner thread; stats(), followStats() and describe()
// from any thread (atomics; the description is fixed at start()).
//
// Semantics:
//  - Lines are parsed with AccessLogParser (format and key from HitFileOptions). With format
//    Auto the format is detected from the file's first lines (detectHitFileFormat); an empty
//    file is detected from its first complete lines when they arrive. Trace CSV is refused
//    (a recording is replayed, not followed), and so is a gzip file. With a filter
//    (HitFileOptions::filter) a line it refuses is counted in stats().ignoredLines.
//  - Every wake-up (a change seen by inotify, or pollInterval) the new lines go out as one
//    batch with tryPush: a full queue drops and counts, as for every live source.
//  - stats(): packets = wake-ups that found new lines, lines = complete lines, hits, badLines
//    (lines that do not parse, and lines over the length cap), lateHits, dropped.
//    followStats(): rotations and truncations seen, partial lines lost to them, files at the
//    path refused for not being regular files (a FIFO, a symlink to /dev/zero: FileFollower);
//    refusal() names the last one, and it is in recentBadLines() too.
//    newestTime(): the newest time of a line read so far (a log years off the clock shows it).
// Example:
//     FollowSource follow({.file = "access.log"});
//     follow.start(queue);   // appended lines arrive in the queue as hits
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/io/access_log_parser.h"
#include "core/io/hit_file.h"
#include "core/sources/source.h"
#include "core/sources/source_counters.h"

namespace hitcounter {

class FileFollower;

struct FollowOptions {
    std::filesystem::path file;
    HitFileOptions format{};
    bool fromStart = false;
    bool useInotify = true;
    std::chrono::milliseconds pollInterval{200};
};

struct FollowStats {
    std::uint64_t rotations = 0;
    std::uint64_t truncations = 0;
    std::uint64_t lostPartialLines = 0;
    // Files at the path not read: not regular (a FIFO, ...), or not readable (tried again).
    std::uint64_t refusedFiles = 0;
};

class FollowSource final : public Source {
public:
    explicit FollowSource(FollowOptions options);
    ~FollowSource() override;

    // Throws SourceError when the file cannot be opened or is not an access log.
    void start(BatchQueue& out) override;
    // The same checks without starting: SourceError if start() would refuse the file.
    void check() const override;
    void stop() override;
    bool running() const override { return m_running.load(); }
    SourceStats stats() const override { return m_counters.snapshot(); }
    std::string describe() const override;
    FollowStats followStats() const;
    // "cannot follow 'P': it is a character device (a regular file is needed)", the last file
    // refused since start(), or empty.
    std::string refusal() const;
    // The largest time of any hit line read since start(); nullopt before the first.
    std::optional<Timestamp> newestTime() const;
    // Lines that do not parse, with FILE:LINE (FILE:+N, the N-th line since following began,
    // while the lines before it are not counted) and the problem.
    std::vector<BadLine> recentBadLines() const override { return m_badLines.recent(); }

private:
    void run(std::stop_token stop, BatchQueue& out);
    // The parser for `format`; std::nullopt while an empty file's format is unknown.
    std::optional<AccessLogParser> parserFor(std::string_view sample) const;
    // Opens the file and sets `parser` from its first lines; throws SourceError (see start()).
    std::unique_ptr<FileFollower> open(std::optional<AccessLogParser>& parser) const;

    const FollowOptions m_options;
    std::unique_ptr<FileFollower> m_follower;  // used by the worker only while it runs
    std::optional<AccessLogParser> m_parser;   // likewise; nullopt until an empty file's
                                               // first lines tell its format
    std::string m_description;
    SourceCounters m_counters;
    BadLineLog m_badLines;
    std::atomic<std::uint64_t> m_rotations{0};
    std::atomic<std::uint64_t> m_truncations{0};
    std::atomic<std::uint64_t> m_lostPartialLines{0};
    std::atomic<std::uint64_t> m_refusedFiles{0};
    mutable std::mutex m_refusalMutex;
    std::string m_refusal;  // guarded by m_refusalMutex
    static constexpr Timestamp kNoTime = std::numeric_limits<Timestamp>::min();
    std::atomic<Timestamp> m_newest{kNoTime};  // the newest line's time
    std::atomic<bool> m_running{false};
    std::jthread m_worker;  // last: joined before the members it uses are destroyed
};

}  // namespace hitcounter
