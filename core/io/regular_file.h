// openRegularFile: opens for reading a file that must be a regular file (a trace, an access
// log, a lesson), refusing a FIFO, a device, a socket or a directory with a message naming the
// path and what it is, and never blocking.
//
// Thread-safe (no shared state).
//
// A FIFO's open() waits for a writer, forever and deaf to signals' intent, and a device such as
// /dev/zero never ends: both would hang a replay, a follower or the GUI. So the path is
// stat()ed first (a device is not even opened), then opened with O_NONBLOCK | O_NOCTTY (a FIFO
// opens at once) and its descriptor fstat()ed (the path may have been replaced between the two:
// the descriptor is what is read); O_NONBLOCK is cleared again for a regular file.
//
// Example:
//     const int fd = openRegularFile("/tmp/fifo", "open trace");
//     // throws RegularFileError "cannot open trace '/tmp/fifo': it is a FIFO (a regular file
//     // is needed)"
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/base/error.h"

namespace hitcounter {

class RegularFileError : public Error {
public:
    using Error::Error;
};

// "a FIFO", "a character device", "a block device", "a directory", "a socket", or empty for a
// regular file; `mode` is a stat's st_mode.
std::string_view fileKindName(unsigned mode);

// The open descriptor (O_RDONLY | O_CLOEXEC; the caller closes it). Throws RegularFileError
// "cannot ACTION 'PATH': it is a FIFO (a regular file is needed)", or with strerror's text.
int openRegularFile(const std::filesystem::path& path, std::string_view action);

}  // namespace hitcounter
