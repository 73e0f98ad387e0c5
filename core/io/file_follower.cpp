#include "core/io/file_follower.h"

#include <array>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/io/regular_file.h"

namespace hitcounter {

namespace {

constexpr std::size_t kReadBytes = 64 * 1024;

struct FileId {
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
};

bool statPath(const std::filesystem::path& path, FileId& id) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return false;
    id = {std::uint64_t(st.st_dev), std::uint64_t(st.st_ino), std::uint64_t(st.st_size)};
    return true;
}

}  // namespace

FileFollower::FileFollower(std::filesystem::path file, FileFollowerOptions options)
    : m_path(std::move(file)), m_options(options) {
    openFile(!m_options.fromStart);
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
    if (m_fd >= 0)
        ::close(m_fd);
    if (m_inotify >= 0)
        ::close(m_inotify);
}

void FileFollower::openFile(bool atEnd) {
    const int fd = openRegularFile(m_path, "follow");
    struct stat st {};
    ::fstat(fd, &st);
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
    m_device = std::uint64_t(st.st_dev);
    m_inode = std::uint64_t(st.st_ino);
    m_offset = atEnd ? std::uint64_t(st.st_size) : 0;
    m_partial.clear();
    m_discarding = false;
    if (atEnd && m_offset > 0) {
        // Starting inside a line would hand out its tail as a line: skip to its break.
        char last = '\n';
        if (::pread(m_fd, &last, 1, off_t(m_offset - 1)) == 1 && last != '\n')
            m_discarding = true;
    }
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
    std::string bytes(max, '\0');
    const auto got = ::pread(m_fd, bytes.data(), max, 0);
    bytes.resize(got > 0 ? std::size_t(got) : 0);
    return bytes;
}

void FileFollower::losePartialLine() {
    if (!m_partial.empty())
        ++m_stats.lostPartialLines;
    m_partial.clear();
    m_discarding = false;
}

void FileFollower::consume(std::string_view chunk, const LineFn& onLine) {
    while (!chunk.empty()) {
        const auto newline = chunk.find('\n');
        const auto part = chunk.substr(0, newline);
        if (!m_discarding) {
            if (m_partial.size() + part.size() > m_options.maxLineBytes) {
                ++m_stats.tooLongLines;
                m_partial.clear();
                m_discarding = true;
            } else if (newline != std::string_view::npos && m_partial.empty()) {
                ++m_stats.lines;
                onLine(part);
            } else {
                m_partial.append(part);
                if (newline != std::string_view::npos) {
                    ++m_stats.lines;
                    onLine(m_partial);
                    m_partial.clear();
                }
            }
        }
        if (newline == std::string_view::npos)
            return;
        m_discarding = false;
        chunk.remove_prefix(newline + 1);
    }
}

void FileFollower::readToEnd(const LineFn& onLine) {
    std::array<char, kReadBytes> buffer;
    for (;;) {
        const auto got = ::pread(m_fd, buffer.data(), buffer.size(), off_t(m_offset));
        if (got <= 0)
            return;
        m_offset += std::uint64_t(got);
        m_stats.bytes += std::uint64_t(got);
        consume({buffer.data(), std::size_t(got)}, onLine);
    }
}

void FileFollower::readNew(const LineFn& onLine) {
    struct stat st {};
    if (::fstat(m_fd, &st) == 0 && std::uint64_t(st.st_size) < m_offset) {
        ++m_stats.truncations;
        losePartialLine();
        m_offset = 0;
    }
    readToEnd(onLine);
    FileId atPath;
    if (!statPath(m_path, atPath) || (atPath.device == m_device && atPath.inode == m_inode) ||
        (atPath.device == m_refused.device && atPath.inode == m_refused.inode))
        return;
    // Another file at the path: finish the old one, then start the new one from its start.
    readToEnd(onLine);
    losePartialLine();
    try {
        openFile(false);
    } catch (const RegularFileError& e) {
        // Gone again before it could be opened (the next call retries), or not a regular file
        // (a FIFO, /dev/zero: refused, and not tried again until another file is there).
        struct stat now {};
        if (::stat(m_path.c_str(), &now) == 0 && !fileKindName(now.st_mode).empty()) {
            m_refused = {std::uint64_t(now.st_dev), std::uint64_t(now.st_ino)};
            ++m_stats.refusedFiles;
            m_problem = e.what();
        }
        return;
    }
    m_refused = {};
    m_problem.clear();
    ++m_stats.rotations;
    watchFile();
    readToEnd(onLine);
}

}  // namespace hitcounter
