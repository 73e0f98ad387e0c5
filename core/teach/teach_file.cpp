#include "core/teach/teach_file.h"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

#include "core/io/regular_file.h"

namespace hitcounter::teach {

namespace {

// 2097152 -> "2,097,152"
std::string grouped(std::uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string text;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            text += ',';
        text += digits[i];
    }
    return text;
}

// `size`: "is 2,097,152 bytes," or "has" (a stream: its size is not known).
[[noreturn]] void refuseSize(const std::string& name, const std::string& size) {
    throw TeachFileError("cannot read '" + name + "': it " + size + " more than the " +
                         grouped(kMaxTeachFileBytes) + " bytes (1 MiB) a teaching file may have");
}

}  // namespace

std::string readTeachFile(const std::filesystem::path& path) {
    const std::string name = path.string();
    int fd = -1;
    try {
        fd = openRegularFile(path, "read");
    } catch (const RegularFileError& e) {
        throw TeachFileError(e.what());
    }
    struct stat st {};
    if (::fstat(fd, &st) == 0 && std::uint64_t(st.st_size) > kMaxTeachFileBytes) {
        ::close(fd);
        refuseSize(name, "is " + grouped(std::uint64_t(st.st_size)) + " bytes,");
    }
    // Read to the end, not to the size seen: a file still growing is refused by its bytes.
    std::string text;
    char buffer[64 * 1024];
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            const int error = errno;
            ::close(fd);
            throw TeachFileError("cannot read '" + name + "': " + std::strerror(error));
        }
        if (got == 0)
            break;
        text.append(buffer, std::size_t(got));
        if (text.size() > kMaxTeachFileBytes) {
            ::close(fd);
            refuseSize(name, "has");
        }
    }
    ::close(fd);
    return text;
}

std::string readTeachStream(std::istream& in, const std::string& name) {
    std::string text(kMaxTeachFileBytes + 1, '\0');
    in.read(text.data(), std::streamsize(text.size()));
    text.resize(std::size_t(in.gcount()));
    if (text.size() > kMaxTeachFileBytes)
        refuseSize(name, "has");
    return text;
}

std::string readTeachFileOrStdin(const std::string& nameOrDash, std::istream& in) {
    return nameOrDash == "-" ? readTeachStream(in, "standard input") : readTeachFile(nameOrDash);
}

}  // namespace hitcounter::teach
