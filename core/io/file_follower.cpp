#include "core/io/file_follower.h"

#include <algorithm>
#include <array>
#include <optional>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/io/regular_file.h"

namespace hitcounter {

namespace {

constexpr std::size_t kReadBytes = 64 * 1024;
constexpr std::chrono::milliseconds kOldFilePoll{100};

// The file at `path`, or nullopt when there is none.
std::optional<std::pair<std::uint64_t, std::uint64_t>> idAtPath(const std::filesystem::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    return std::pair{std::uint64_t(st.st_dev), std::uint64_t(st.st_ino)};
}

std::string readHead(int fd, std::size_t max) {
    std::string bytes(max, '\0');
    const auto got = ::pread(fd, bytes.data(), max, 0);
    bytes.resize(got > 0 ? std::size_t(got) : 0);
    return bytes;
}

}  // namespace

FileFollower::FileFollower(std::filesystem::path file, FileFollowerOptions options)
    : m_path(std::move(file)), m_options(options), m_current(open(!m_options.fromStart)) {
    if (m_options.useInotify) {
        m_inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (m_inotify >= 0) {
            const auto folder = m_path.has_parent_path() ? m_path.parent_path() : ".";
            inotify_add_watch(m_inotify, folder.c_str(), IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM);
            watchFile();
        }
    }
}

FileFollower::~FileFollower() {
    close(m_current);
    for (Reading& old : m_old)
        close(old);
    if (m_inotify >= 0)
        ::close(m_inotify);
}

FileFollower::Reading FileFollower::open(bool atEnd) const {
    Reading r;
    r.fd = openRegularFile(m_path, "follow");
    struct stat st {};
    ::fstat(r.fd, &st);
    r.id = {std::uint64_t(st.st_dev), std::uint64_t(st.st_ino)};
    r.offset = atEnd ? std::uint64_t(st.st_size) : 0;
    r.head = readHead(r.fd, kHeadBytes);
    if (atEnd && r.offset > 0) {
        // Starting inside a line would hand out its tail as a line: skip to its break.
        char last = '\n';
        if (::pread(r.fd, &last, 1, off_t(r.offset - 1)) == 1 && last != '\n')
            r.discarding = true;
    }
    return r;
}

void FileFollower::close(Reading& r) {
    if (r.fd >= 0)
        ::close(r.fd);
    r.fd = -1;
}

void FileFollower::watchFile() {
    if (m_inotify < 0)
        return;
    if (m_fileWatch >= 0)
        inotify_rm_watch(m_inotify, m_fileWatch);
    m_fileWatch = inotify_add_watch(m_inotify, m_path.c_str(),
                                    IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF);
}

void FileFollower::waitForChange(std::chrono::milliseconds timeout) {
    if (!m_old.empty())
        timeout = std::min(timeout, kOldFilePoll);
    if (m_inotify < 0) {
        std::this_thread::sleep_for(timeout);
        return;
    }
    pollfd pfd{m_inotify, POLLIN, 0};
    if (::poll(&pfd, 1, int(timeout.count())) > 0) {
        alignas(inotify_event) std::array<char, 4096> events{};
        while (::read(m_inotify, events.data(), events.size()) > 0) {
        }
    }
}

std::string FileFollower::head(std::size_t max) const {
    return readHead(m_current.fd, max);
}

void FileFollower::losePartialLine(Reading& r) {
    if (!r.partial.empty())
        ++m_stats.lostPartialLines;
    r.partial.clear();
    r.discarding = false;
}

void FileFollower::consume(Reading& r, std::string_view chunk, const LineFn& onLine) {
    while (!chunk.empty()) {
        const auto newline = chunk.find('\n');
        const auto part = chunk.substr(0, newline);
        if (!r.discarding) {
            if (r.partial.size() + part.size() > m_options.maxLineBytes) {
                ++m_stats.tooLongLines;
                r.partial.clear();
                r.discarding = true;
            } else if (newline != std::string_view::npos && r.partial.empty()) {
                ++m_stats.lines;
                onLine(part);
            } else {
                r.partial.append(part);
                if (newline != std::string_view::npos) {
                    ++m_stats.lines;
                    onLine(r.partial);
                    r.partial.clear();
                }
            }
        }
        if (newline == std::string_view::npos)
            return;
        r.discarding = false;
        chunk.remove_prefix(newline + 1);
    }
}

std::uint64_t FileFollower::readToEnd(Reading& r, const LineFn& onLine) {
    std::array<char, kReadBytes> buffer;
    std::uint64_t total = 0;
    for (;;) {
        const auto got = ::pread(r.fd, buffer.data(), buffer.size(), off_t(r.offset));
        if (got <= 0)
            return total;
        if (r.offset == r.head.size() && r.offset < kHeadBytes)
            r.head.append(buffer.data(), std::min(std::size_t(got), kHeadBytes - r.head.size()));
        r.offset += std::uint64_t(got);
        total += std::uint64_t(got);
        m_stats.bytes += std::uint64_t(got);
        consume(r, {buffer.data(), std::size_t(got)}, onLine);
    }
}

bool FileFollower::rewritten(Reading& r) const {
    struct stat st {};
    if (::fstat(r.fd, &st) != 0)
        return false;
    if (std::uint64_t(st.st_size) < r.offset)
        return true;
    if (r.head.empty())
        return false;
    const std::string now = readHead(r.fd, r.head.size());
    return now != r.head;
}

void FileFollower::readOldFiles(const LineFn& onLine) {
    const auto now = Clock::now();
    for (auto old = m_old.begin(); old != m_old.end();) {
        if (readToEnd(*old, onLine) > 0)
            old->grew = now;
        if (now - old->grew < m_options.rotatedQuiet) {
            ++old;
            continue;
        }
        losePartialLine(*old);
        close(*old);
        old = m_old.erase(old);
    }
}

void FileFollower::readNew(const LineFn& onLine) {
    if (rewritten(m_current)) {
        ++m_stats.truncations;
        losePartialLine(m_current);
        m_current.offset = 0;
        m_current.head.clear();
    }
    readToEnd(m_current, onLine);
    readOldFiles(onLine);
    const auto atPath = idAtPath(m_path);
    if (!atPath)
        return;
    const FileId id{atPath->first, atPath->second};
    if (id == m_current.id || id == m_refused)
        return;
    switchToNewFile(onLine);
}

void FileFollower::switchToNewFile(const LineFn& onLine) {
    Reading next;
    try {
        next = open(false);
    } catch (const RegularFileError& e) {
        // Gone again before it could be opened (the next call retries), not a regular file
        // (a FIFO, /dev/zero: refused, and not tried again until another file is there), or a
        // regular file this process may not read (named once, tried again every call).
        struct stat now {};
        if (::stat(m_path.c_str(), &now) != 0)
            return;
        const FileId id{std::uint64_t(now.st_dev), std::uint64_t(now.st_ino)};
        if (!fileKindName(now.st_mode).empty()) {
            m_refused = id;
            ++m_stats.refusedFiles;
            m_problem = e.what();
        } else if (id != m_unreadable) {
            m_unreadable = id;
            ++m_stats.unreadableFiles;
            m_problem =
                std::string(e.what()) + "; reading the old file meanwhile, and trying again";
        }
        return;
    }
    m_refused = {};
    m_unreadable = {};
    m_problem.clear();
    ++m_stats.rotations;
    if (m_old.size() == kMaxDraining) {
        losePartialLine(m_old.front());
        close(m_old.front());
        m_old.erase(m_old.begin());
    }
    m_current.grew = Clock::now();
    m_old.push_back(std::move(m_current));
    m_current = std::move(next);
    watchFile();
    readToEnd(m_current, onLine);
}

}  // namespace hitcounter
