#include "core/io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace hitcounter {

namespace {

std::string systemError(int error = errno) {
    return std::strerror(error);
}

// What a file that is neither regular nor written through is called in a refusal.
const char* refusedKind(mode_t mode) {
    if (S_ISDIR(mode))
        return "is a directory; expected a file name";
    if (S_ISBLK(mode))
        return "is a block device; refusing to write to it (expected a regular file, a FIFO or "
               "a character device)";
    return "is a socket; expected a regular file, a FIFO or a character device";
}

void clearNonBlocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

}  // namespace

std::filesystem::path OutputFile::partialPath(const std::filesystem::path& file) {
    std::filesystem::path partial = file;
    partial += ".partial";
    return partial;
}

OutputFile::OutputFile(std::filesystem::path file) : m_file(std::move(file)), m_target(m_file) {
    const std::string name = m_file.string();
    const auto refuse = [&](const std::string& why) {
        throw OutputFileError("'" + name + "' " + why);
    };
    if (name.empty())
        throw OutputFileError(
            "the output file name is empty; expected a file name such as run.csv");
    if (!m_file.has_filename())
        refuse("ends in '/'; expected a file name, not a directory");

    struct stat link {};
    if (::lstat(name.c_str(), &link) == 0) {
        struct stat st {};
        if (::stat(name.c_str(), &st) != 0)
            refuse(S_ISLNK(link.st_mode) ? "is a symbolic link to nothing (" + systemError() +
                                               "); expected a link to a file"
                                         : "cannot be checked (" + systemError() + ")");
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            // O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of waiting forever.
            m_fd = ::open(name.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
            if (m_fd < 0)
                refuse(errno == ENXIO ? std::string("is a FIFO with no reader; start the reader "
                                                    "first")
                                      : "cannot be opened for writing (" + systemError() + ")");
            clearNonBlocking(m_fd);
            m_through = true;
            m_writePath = m_file;
            return;
        }
        if (!S_ISREG(st.st_mode))
            refuse(refusedKind(st.st_mode));
        if (S_ISLNK(link.st_mode)) {
            std::error_code error;
            m_target = std::filesystem::canonical(m_file, error);
            if (error)
                refuse("is a symbolic link that cannot be resolved (" + error.message() + ")");
        }
    } else if (errno != ENOENT) {
        refuse("cannot be checked (" + systemError() + ")");
    }

    m_writePath = partialPath(m_target);
    // O_NOFOLLOW: a link planted at FILE.partial must not redirect the truncation elsewhere.
    m_fd =
        ::open(m_writePath.c_str(),
               O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
    if (m_fd < 0)
        throw OutputFileError("'" + m_writePath.string() + "': cannot create (" + systemError() +
                              ")");
    struct stat partial {};
    if (::fstat(m_fd, &partial) != 0 || !S_ISREG(partial.st_mode)) {
        close();
        throw OutputFileError("'" + m_writePath.string() +
                              "' exists and is not a regular file; remove it first");
    }
    clearNonBlocking(m_fd);
}

OutputFile::~OutputFile() {
    close();
}

void OutputFile::close() {
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

void OutputFile::setError(const std::string& problem) {
    if (m_error.empty())
        m_error = m_writePath.string() + ": " + problem;
}

bool OutputFile::write(std::string_view data) {
    if (m_fd < 0 || !m_error.empty())
        return m_error.empty() && data.empty();
    while (!data.empty()) {
        const ssize_t n = ::write(m_fd, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            setError("cannot write (" + systemError() + ")");
            return false;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

void OutputFile::commit() {
    if (m_fd < 0 && m_error.empty())
        return;  // committed or discarded already
    if (m_through) {
        close();
        if (!m_error.empty())
            throw Error(m_error);
        return;
    }
    if (m_error.empty() && ::fsync(m_fd) != 0)
        setError("cannot sync to disk (" + systemError() + ")");
    close();
    if (!m_error.empty())
        throw Error(m_error);
    // Something may have taken FILE's name while we wrote: still never replace a non-file.
    struct stat now {};
    if (::lstat(m_target.c_str(), &now) == 0 && !S_ISREG(now.st_mode)) {
        setError("not renamed: " + m_target.string() + " is no longer a regular file");
        throw Error(m_error);
    }
    if (::rename(m_writePath.c_str(), m_target.c_str()) != 0) {
        setError("cannot rename into place as " + m_target.string() + " (" + systemError() + ")");
        throw Error(m_error);
    }
    // The rename itself must reach the disk, or a power cut could bring back the old name.
    const std::filesystem::path dir =
        m_target.has_parent_path() ? m_target.parent_path() : std::filesystem::path(".");
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
}

void OutputFile::discard() {
    const bool open = m_fd >= 0;
    close();
    if (open && !m_through)
        ::unlink(m_writePath.c_str());
}

}  // namespace hitcounter
