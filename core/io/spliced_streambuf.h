// SplicedStreambuf: a read-only stream buffer that yields `head` and then the rest of another
// stream buffer. ReplaySource uses it to resume a TraceReader in the middle of a file: the
// head holds the file's first bytes (the header line) and the rest continues at any offset,
// so the one CSV parser (TraceReader) reads it as if it were a whole file.
//
// Not thread-safe; one owner. `rest` must outlive this buffer. Memory: head plus one chunk.
//
// Example: file "timestamp\n1\n2\n3\n", head = "timestamp\n1\n", rest positioned at byte 14:
//          the spliced stream reads "timestamp\n1\n3\n".
#pragma once

#include <array>
#include <streambuf>
#include <string>

namespace hitcounter {

class SplicedStreambuf final : public std::streambuf {
public:
    SplicedStreambuf(std::string head, std::streambuf& rest)
        : m_head(std::move(head)), m_rest(rest) {
        setg(m_head.data(), m_head.data(), m_head.data() + m_head.size());
    }

    SplicedStreambuf(const SplicedStreambuf&) = delete;
    SplicedStreambuf& operator=(const SplicedStreambuf&) = delete;

protected:
    int_type underflow() override {
        if (gptr() < egptr()) {
            return traits_type::to_int_type(*gptr());
        }
        const std::streamsize n =
            m_rest.sgetn(m_chunk.data(), static_cast<std::streamsize>(m_chunk.size()));
        if (n <= 0) {
            return traits_type::eof();
        }
        setg(m_chunk.data(), m_chunk.data(), m_chunk.data() + n);
        return traits_type::to_int_type(*gptr());
    }

private:
    std::string m_head;
    std::streambuf& m_rest;
    std::array<char, 64 * 1024> m_chunk{};
};

}  // namespace hitcounter
