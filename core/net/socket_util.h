// Small POSIX socket helpers for the listeners: an owning fd, HOST:PORT parsing, binding
// with errors that name the address, printable addresses, and a wake-up fd for stopping.
//
// Threading: UniqueFd and WakeFd are owned by one object; WakeFd::notify() may be called
// from any thread (it is what a std::stop_callback calls). The functions are thread-safe.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hitcounter {

class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : m_fd(fd) {}
    UniqueFd(UniqueFd&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        reset(std::exchange(other.m_fd, -1));
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd() { reset(); }

    int get() const { return m_fd; }
    explicit operator bool() const { return m_fd >= 0; }
    void reset(int fd = -1);

private:
    int m_fd = -1;
};

// "HOST:PORT", "[IPv6]:PORT" or just "PORT" (host 127.0.0.1). Port 0 asks for any free port.
struct Endpoint {
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;
};

// Throws SourceError naming `text` and what is wrong with it.
Endpoint parseEndpoint(std::string_view text);

// A non-blocking, close-on-exec socket of `type` (SOCK_DGRAM or SOCK_STREAM) bound to
// `endpoint` (and listening, for SOCK_STREAM). Throws SourceError("<what> HOST:PORT: cannot
// bind: <reason>"), e.g. "statsd udp 127.0.0.1:8125: cannot bind: Address already in use".
UniqueFd bindSocket(int type, const Endpoint& endpoint, std::string_view what);

// `count` sockets as bindSocket() makes them, all bound to the same port with SO_REUSEPORT, so
// that the kernel spreads datagrams and connections over them by a hash of the peer's address
// (one peer address always reaches the same socket). The port must be free: one taken by
// anything, even by another SO_REUSEPORT group, fails as in bindSocket(), so two listeners
// never share a port by accident. count <= 1: one plain bindSocket().
std::vector<UniqueFd> bindSocketGroup(int type, const Endpoint& endpoint, std::string_view what,
                                      std::size_t count);

// "127.0.0.1:8125" or "[::1]:8125".
std::string formatAddress(const sockaddr* address, socklen_t length);
// The address a socket is bound to (its real port after binding port 0).
std::string localAddress(int fd);
std::uint16_t localPort(int fd);

// An eventfd that a worker polls beside its sockets, so that stop() wakes it at once.
class WakeFd {
public:
    WakeFd();
    int fd() const { return m_fd.get(); }
    void notify() const;

private:
    UniqueFd m_fd;
};

}  // namespace hitcounter
