#include "core/io/regular_file.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hitcounter {

namespace {

[[noreturn]] void refuse(const std::filesystem::path& path, std::string_view action,
                         const std::string& problem) {
    throw RegularFileError("cannot " + std::string(action) + " '" + path.string() +
                           "': " + problem);
}

void refuseUnlessRegular(const std::filesystem::path& path, std::string_view action,
                         unsigned mode) {
    if (const std::string_view kind = fileKindName(mode); !kind.empty())
        refuse(path, action, "it is " + std::string(kind) + " (a regular file is needed)");
}

}  // namespace

std::string_view fileKindName(unsigned mode) {
    if (S_ISREG(mode))
        return {};
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

int openRegularFile(const std::filesystem::path& path, std::string_view action) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0)
        refuseUnlessRegular(path, action, st.st_mode);
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        refuse(path, action, std::strerror(errno));
    if (::fstat(fd, &st) != 0) {
        const int error = errno;
        ::close(fd);
        refuse(path, action, std::strerror(error));
    }
    try {
        refuseUnlessRegular(path, action, st.st_mode);
    } catch (...) {
        ::close(fd);
        throw;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

}  // namespace hitcounter
