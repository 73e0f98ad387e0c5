// readTeachFile: the text of a file the teaching tools read (a lesson file, an operations list,
// a LeetCode input), for both the CLI's `teach FILE` and the teaching view's "Open lesson".
//
// Thread-safe (no shared state).
//
// A file is read whole or refused: one larger than kMaxTeachFileBytes is refused with its size
// named (it was cut at 1 MiB and then failed with a syntax error about the cut line), and a
// FIFO or a device is refused without blocking (core/io/regular_file.h).
//
// Example:
//     readTeachFile("big.lesson")  // throws TeachFileError "cannot read 'big.lesson': it is
//                                  // 2,097,152 bytes, more than the 1,048,576 bytes (1 MiB) a
//                                  // teaching file may have"
#pragma once

#include <cstddef>
#include <filesystem>
#include <istream>
#include <string>

#include "core/base/error.h"

namespace hitcounter::teach {

inline constexpr std::size_t kMaxTeachFileBytes = std::size_t{1} << 20;

// An Error (docs/architecture.md, "Errors"): what() names the file and the problem.
class TeachFileError : public Error {
public:
    using Error::Error;
};

// The whole file. Throws TeachFileError naming the file and the problem.
std::string readTeachFile(const std::filesystem::path& path);
// The whole stream (standard input), `name` in messages; refused past kMaxTeachFileBytes
// (reading stops there: the size of the rest is not known).
std::string readTeachStream(std::istream& in, const std::string& name);
// "-": `in` (standard input) by readTeachStream; any other name: readTeachFile.
std::string readTeachFileOrStdin(const std::string& nameOrDash, std::istream& in);

}  // namespace hitcounter::teach
