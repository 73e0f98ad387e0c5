// Splitting received bytes into lines.
//
// forEachLine: one datagram (or any complete buffer) -> its '\n'-separated lines.
// LineBuffer: a TCP byte stream -> lines, where a line may arrive split across reads.
//
// Threading: LineBuffer is not thread-safe; one per connection, owned by the listener's
// worker thread. Memory: at most maxLineBytes of an unfinished line is held.
//
// Lines are handed out without their '\n' (a '\r' before it is left to the parser). A line
// longer than maxLineBytes (not counting the '\n') makes feed() return false: the caller
// counts one bad line and closes the stream; the buffer must not be fed again.
//
// Example: feed("a:1|c\nb:") calls onLine("a:1|c") and keeps "b:"; feed("1|c\n") then calls
// onLine("b:1|c"); at end of stream rest() is what followed the last '\n'.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hitcounter {

inline constexpr std::size_t kMaxLineBytes = 64 * 1024;

// Calls onLine for every line of `bytes`; the empty piece after a final '\n' is not a line.
template <class OnLine>
void forEachLine(std::string_view bytes, OnLine&& onLine) {
    while (!bytes.empty()) {
        const auto nl = bytes.find('\n');
        onLine(bytes.substr(0, nl));
        if (nl == std::string_view::npos) {
            return;
        }
        bytes.remove_prefix(nl + 1);
    }
}

class LineBuffer {
public:
    explicit LineBuffer(std::size_t maxLineBytes = kMaxLineBytes) : m_maxLineBytes(maxLineBytes) {}

    // Calls onLine for every line completed by `bytes`. False if a line is too long.
    template <class OnLine>
    bool feed(std::string_view bytes, OnLine&& onLine) {
        if (!m_pending.empty()) {
            const auto nl = bytes.find('\n');
            const std::size_t take = nl == std::string_view::npos ? bytes.size() : nl;
            if (m_pending.size() + take > m_maxLineBytes) {
                return false;
            }
            m_pending.append(bytes.substr(0, take));
            if (nl == std::string_view::npos) {
                return true;
            }
            onLine(std::string_view(m_pending));
            m_pending.clear();
            bytes.remove_prefix(nl + 1);
        }
        // Complete lines are handed out straight from `bytes`; only the tail is copied.
        while (!bytes.empty()) {
            const auto nl = bytes.find('\n');
            const std::size_t length = nl == std::string_view::npos ? bytes.size() : nl;
            if (length > m_maxLineBytes) {
                return false;
            }
            if (nl == std::string_view::npos) {
                m_pending.assign(bytes);
                return true;
            }
            onLine(bytes.substr(0, nl));
            bytes.remove_prefix(nl + 1);
        }
        return true;
    }

    // The unfinished line so far (at end of stream: the last line, sent without '\n').
    std::string_view rest() const { return m_pending; }

private:
    std::size_t m_maxLineBytes;
    std::string m_pending;
};

}  // namespace hitcounter
