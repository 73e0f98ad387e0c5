#include "core/io/gzip_streambuf.h"

#include "core/base/error.h"

namespace hitcounter {

namespace {
constexpr int kGzipOnly = 15 + 16;  // window bits 15, gzip header and trailer
}

GzipStreambuf::GzipStreambuf(std::streambuf& compressed, GzipLimits limits)
    : m_compressed(compressed), m_limits(limits) {
    if (inflateInit2(&m_zlib, kGzipOnly) != Z_OK)
        throw Error("zlib could not be initialised");
    setg(m_out.data(), m_out.data(), m_out.data());
}

GzipStreambuf::~GzipStreambuf() {
    inflateEnd(&m_zlib);
}

bool GzipStreambuf::looksGzipped(std::string_view firstBytes) {
    return firstBytes.size() >= 2 && static_cast<unsigned char>(firstBytes[0]) == 0x1f &&
           static_cast<unsigned char>(firstBytes[1]) == 0x8b;
}

GzipStreambuf::int_type GzipStreambuf::underflow() {
    if (gptr() < egptr())
        return traits_type::to_int_type(*gptr());
    while (!m_failed) {
        if (m_zlib.avail_in == 0) {
            const auto n =
                m_compressed.sgetn(m_in.data(), static_cast<std::streamsize>(m_in.size()));
            if (n <= 0) {
                if (m_inMember) {
                    m_error = "the gzip data ends inside a member (the file is truncated)";
                    m_failed = true;
                    m_truncated = true;
                }
                return traits_type::eof();
            }
            m_compressedRead += static_cast<std::uint64_t>(n);
            m_zlib.next_in = reinterpret_cast<Bytef*>(m_in.data());
            m_zlib.avail_in = static_cast<uInt>(n);
        }
        if (!m_inMember) {
            inflateReset(&m_zlib);
            m_inMember = true;
        }
        m_zlib.next_out = reinterpret_cast<Bytef*>(m_out.data());
        m_zlib.avail_out = static_cast<uInt>(m_out.size());
        const int status = inflate(&m_zlib, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            m_inMember = false;
        } else if (status != Z_OK && status != Z_BUF_ERROR) {
            m_error = std::string("the gzip data is corrupt (") +
                      (m_zlib.msg ? m_zlib.msg : "zlib error " + std::to_string(status)) + ")";
            m_failed = true;
        }
        const auto produced = m_out.size() - m_zlib.avail_out;
        m_inflated += produced;
        if (inflatedTooFar())
            return traits_type::eof();
        if (produced > 0) {
            setg(m_out.data(), m_out.data(), m_out.data() + produced);
            return traits_type::to_int_type(*gptr());
        }
    }
    return traits_type::eof();
}

bool GzipStreambuf::inflatedTooFar() {
    if (m_limits.maxRatio == 0 || m_inflated <= m_limits.freeBytes ||
        m_inflated / m_limits.maxRatio <= m_compressedRead)
        return false;
    m_error = "the gzip data inflates to more than " + std::to_string(m_limits.maxRatio) +
              " times its size (" + std::to_string(m_inflated) + " bytes from the first " +
              std::to_string(m_compressedRead) +
              " compressed): not a log but a gzip bomb? --max-inflation-ratio N allows more (0: no "
              "limit)";
    m_failed = true;
    return true;
}

}  // namespace hitcounter
