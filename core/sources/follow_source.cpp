#include "core/sources/follow_source.h"

#include <chrono>
#include <vector>

#include "core/io/file_follower.h"
#include "core/io/gzip_streambuf.h"
#include "core/sources/batch_sender.h"

namespace hitcounter {

namespace {

constexpr std::size_t kDetectionBytes = 64 * 1024;

}  // namespace

FollowSource::FollowSource(FollowOptions options) : m_options(std::move(options)) {}

FollowSource::~FollowSource() {
    stop();
}

std::optional<AccessLogParser> FollowSource::parserFor(std::string_view sample) const {
    const std::string name = m_options.file.string();
    HitFileFormat format =
        m_options.format.logFormat.empty() ? m_options.format.format : HitFileFormat::LogFormat;
    if (format == HitFileFormat::Auto) {
        if (sample.empty())
            return std::nullopt;
        std::string problem;
        const auto detected = detectHitFileFormat(sample, problem);
        if (!detected)
            throw SourceError(name + ": " + problem);
        format = *detected;
    }
    if (format == HitFileFormat::Trace)
        throw SourceError(name +
                          ": is a trace CSV; follow reads web server access logs "
                          "(replay a trace instead)");
    try {
        return accessLogParserFor(format, m_options.format);
    } catch (const std::invalid_argument& e) {
        throw SourceError(name + ": " + e.what());
    }
}

std::unique_ptr<FileFollower> FollowSource::open(std::optional<AccessLogParser>& parser) const {
    const std::string name = m_options.file.string();
    std::unique_ptr<FileFollower> follower;
    try {
        follower = std::make_unique<FileFollower>(
            m_options.file, FileFollowerOptions{.fromStart = m_options.fromStart,
                                                .useInotify = m_options.useInotify});
    } catch (const std::runtime_error& e) {
        throw SourceError(e.what());
    }
    auto head = follower->head(kDetectionBytes);
    if (GzipStreambuf::looksGzipped(head))
        throw SourceError(name +
                          ": is gzip-compressed; a live log is plain text (replay a "
                          ".gz rotation instead)");
    // Only whole lines are a fair sample.
    head.resize(head.rfind('\n') == std::string::npos ? 0 : head.rfind('\n') + 1);
    parser = parserFor(head);  // throws SourceError for a file that is not an access log
    return follower;
}

void FollowSource::check() const {
    std::optional<AccessLogParser> parser;
    open(parser);
}

void FollowSource::start(BatchQueue& out) {
    stop();
    m_follower = open(m_parser);
    m_description = "follow " + m_options.file.string();
    m_newest = kNoTime;
    m_running = true;
    m_worker = std::jthread([this, &out](std::stop_token stop) { run(stop, out); });
}

void FollowSource::stop() {
    if (m_worker.joinable()) {
        m_worker.request_stop();
        m_worker.join();
    }
    m_running = false;
}

std::string FollowSource::describe() const {
    return m_description;
}

std::optional<Timestamp> FollowSource::newestTime() const {
    const Timestamp newest = m_newest.load(std::memory_order_relaxed);
    return newest == kNoTime ? std::nullopt : std::optional(newest);
}

FollowStats FollowSource::followStats() const {
    return {m_rotations.load(), m_truncations.load(), m_lostPartialLines.load(),
            m_refusedFiles.load()};
}

std::string FollowSource::refusal() const {
    std::lock_guard lock(m_refusalMutex);
    return m_refusal;
}

void FollowSource::run(std::stop_token stop, BatchQueue& out) {
    BatchSender sender(out, m_counters);
    std::optional<AccessLogParser>& parser = m_parser;
    std::vector<std::string> undetected;  // first lines of a file that was empty at start
    std::string problem;
    HitBatch batch;
    HitEvent event;
    // The line number in the file being read: known from its start (--from-start, or a file
    // that a rotation or truncation began anew), else counted from where following began.
    std::uint64_t fileLine = 0;
    bool lineKnown = m_options.fromStart;
    std::uint64_t restarts = 0;  // rotations + truncations seen
    const auto parse = [&](std::string_view line) {
        m_counters.lines.fetch_add(1, std::memory_order_relaxed);
        ++fileLine;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.find_first_not_of(" \t") == std::string_view::npos)
            return;
        const auto kind = parser->parse(line, event, problem);
        if (kind == TraceErrorKind::Filtered) {
            m_counters.ignoredLines.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        if (kind == TraceErrorKind::None) {
            if (event.time > m_newest.load(std::memory_order_relaxed))
                m_newest.store(event.time, std::memory_order_relaxed);
            batch.push_back(event);
            return;
        }
        m_counters.badLines.fetch_add(1, std::memory_order_relaxed);
        const auto now = std::chrono::system_clock::now().time_since_epoch();
        m_badLines.add({std::chrono::duration_cast<std::chrono::seconds>(now).count(),
                        m_description,
                        m_options.file.filename().string() + (lineKnown ? ":" : ":+") +
                            std::to_string(fileLine),
                        problem, quoteLine(line, BadLineLog::kMaxLineBytes)});
    };
    for (bool last = false; !last;) {
        // After a stop request, one last read takes what was written before it.
        last = stop.stop_requested();
        if (!last)
            m_follower->waitForChange(m_options.pollInterval);
        const auto before = m_follower->stats();
        if (before.rotations + before.truncations != restarts) {
            restarts = before.rotations + before.truncations;
            fileLine = 0;  // a new file, read from its start
            lineKnown = true;
        }
        m_follower->readNew([&](std::string_view line) {
            if (parser) {
                parse(line);
                return;
            }
            undetected.emplace_back(line);
        });
        if (!parser && !undetected.empty()) {
            std::string sample;
            for (const auto& line : undetected)
                sample.append(line).append("\n");
            try {
                parser = parserFor(sample);
            } catch (const SourceError&) {
                m_counters.badLines.fetch_add(undetected.size(), std::memory_order_relaxed);
                m_counters.lines.fetch_add(undetected.size(), std::memory_order_relaxed);
                undetected.clear();
            }
            if (parser) {
                for (const auto& line : undetected)
                    parse(line);
                undetected.clear();
            }
        }
        const auto& after = m_follower->stats();
        const std::uint64_t refused = after.refusedFiles + after.unreadableFiles;
        if (refused != before.refusedFiles + before.unreadableFiles) {
            // A FIFO, a device or an unreadable file now at the path is not read: shown where
            // bad lines are.
            const auto now = std::chrono::system_clock::now().time_since_epoch();
            m_badLines.add({std::chrono::duration_cast<std::chrono::seconds>(now).count(),
                            m_description,
                            m_options.file.filename().string(),
                            m_follower->problem(),
                            {}});
            {
                std::lock_guard lock(m_refusalMutex);
                m_refusal = m_follower->problem();
            }
            m_refusedFiles = refused;
        }
        m_counters.badLines.fetch_add(after.tooLongLines - before.tooLongLines,
                                      std::memory_order_relaxed);
        m_rotations = after.rotations;
        m_truncations = after.truncations;
        m_lostPartialLines = after.lostPartialLines;
        if (after.lines != before.lines)
            m_counters.packets.fetch_add(1, std::memory_order_relaxed);
        if (!batch.empty())
            sender.send(std::exchange(batch, {}), false, stop);
    }
    m_running = false;
}

}  // namespace hitcounter
