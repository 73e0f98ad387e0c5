// GzipStreambuf: a read-only stream buffer that inflates gzip data (RFC 1952, one or more
// concatenated members, as `gzip` and logrotate write them) read from another stream buffer,
// through zlib. Access logs rotated to `.gz` are read as a stream, never unpacked to disk.
//
// Not thread-safe; one owner. `compressed` must outlive this buffer. Memory: two 64 KiB buffers
// plus zlib's state (about 44 KiB).
//
// Errors end the stream (underflow returns eof) and are kept in error(): corrupt data, a file
// that ends inside a member (truncated(): everything before the cut has been inflated, as far
// as zlib could decode it), or data that inflates beyond GzipLimits (a gzip bomb: 10 MB of
// zeros inflate to 10 GB). error() is empty after a clean end. (A stream cannot throw mid-way:
// the convention's "keep it" form, docs/architecture.md "Errors".)
#pragma once

#include <array>
#include <cstdint>
#include <streambuf>
#include <string>

#include <zlib.h>

#include "core/io/gzip_limits.h"

namespace hitcounter {

class GzipStreambuf final : public std::streambuf {
public:
    explicit GzipStreambuf(std::streambuf& compressed, GzipLimits limits = {});
    ~GzipStreambuf() override;

    GzipStreambuf(const GzipStreambuf&) = delete;
    GzipStreambuf& operator=(const GzipStreambuf&) = delete;

    const std::string& error() const { return m_error; }
    // The compressed data ended inside a member (a copy cut short), not corrupt data.
    bool truncated() const { return m_truncated; }
    // Compressed bytes consumed so far (for progress over the file's size).
    std::uint64_t compressedBytesRead() const { return m_compressedRead; }

    // Whether `firstBytes` start with the gzip magic number.
    static bool looksGzipped(std::string_view firstBytes);

protected:
    int_type underflow() override;

private:
    // Sets the error (and returns true) when the data has inflated beyond m_limits.
    bool inflatedTooFar();

    std::streambuf& m_compressed;
    const GzipLimits m_limits;
    z_stream m_zlib{};
    std::array<char, 64 * 1024> m_in{};
    std::array<char, 64 * 1024> m_out{};
    bool m_inMember = false;  // a member has started and not ended yet
    bool m_failed = false;
    bool m_truncated = false;
    std::uint64_t m_compressedRead = 0;
    std::uint64_t m_inflated = 0;
    std::string m_error;
};

}  // namespace hitcounter
