// LineSplitter: cuts a stream (or an in-memory buffer) into lines, in chunks, with bounded
// memory. The readers of every recorded-hits format share it.
//
// Not thread-safe; one owner. Memory: one chunk plus at most maxLineBytes of a line; the head
// of an overlong line is dropped as it streams past, never held.
//
// next() returns:
//  - Line: `line` is the next line without its '\n' (a '\r' before it is kept: callers decide);
//  - TooLong: the line was longer than maxLineBytes (skipped; `line` is empty);
//  - Incomplete: the input ended inside a line with no final '\n'; `line` holds what there was
//    (a writer cut off by a full disk, or a log still being written);
//  - End: nothing left.
// lines() counts physical lines returned (any status but End); bytesRead() the bytes consumed.
//
// Example: "a\nbb\nc" gives Line "a", Line "bb", Incomplete "c", End.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

namespace hitcounter {

class LineSplitter {
public:
    enum class Status { Line, TooLong, Incomplete, End };

    static constexpr std::size_t kDefaultChunkBytes = 64 * 1024;

    LineSplitter(std::istream& in, std::size_t maxLineBytes,
                 std::size_t chunkBytes = kDefaultChunkBytes);
    // Splits `buffer` in place; it must outlive the splitter.
    LineSplitter(std::string_view buffer, std::size_t maxLineBytes);

    Status next(std::string_view& line);

    std::uint64_t lines() const { return m_lines; }
    std::uint64_t bytesRead() const { return m_bytesRead; }

private:
    void refill();

    std::istream* m_in = nullptr;
    std::size_t m_maxLineBytes;
    std::size_t m_chunkBytes = kDefaultChunkBytes;
    std::string m_storage;  // stream mode: the unconsumed tail of what was read
    std::string_view m_data;
    std::size_t m_pos = 0;
    bool m_eof = false;
    std::uint64_t m_lines = 0;
    std::uint64_t m_bytesRead = 0;
};

}  // namespace hitcounter
