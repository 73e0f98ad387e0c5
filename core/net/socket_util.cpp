#include "core/net/socket_util.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>

#include "core/sources/source.h"

namespace hitcounter {

void UniqueFd::reset(int fd) {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
    m_fd = fd;
}

Endpoint parseEndpoint(std::string_view text) {
    const auto fail = [&](std::string_view why) {
        return SourceError("address \"" + std::string(text) + "\": " + std::string(why) +
                           " (expected HOST:PORT, [IPv6]:PORT or PORT)");
    };
    Endpoint endpoint;
    std::string_view portText = text;
    const auto colon = text.rfind(':');
    if (colon != std::string_view::npos) {
        std::string_view host = text.substr(0, colon);
        portText = text.substr(colon + 1);
        if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
            host = host.substr(1, host.size() - 2);
        } else if (host.find(':') != std::string_view::npos) {
            throw fail("an IPv6 address needs brackets");
        }
        if (host.empty()) {
            throw fail("empty host");
        }
        endpoint.host = std::string(host);
    }
    unsigned port = 0;
    const auto [ptr, ec] =
        std::from_chars(portText.data(), portText.data() + portText.size(), port);
    if (portText.empty() || ec != std::errc{} || ptr != portText.data() + portText.size() ||
        port > 65535) {
        throw fail("the port is not a number from 0 to 65535");
    }
    endpoint.port = static_cast<std::uint16_t>(port);
    return endpoint;
}

namespace {

UniqueFd bindOne(int type, const Endpoint& endpoint, std::string_view what, bool sharePort) {
    const std::string place =
        std::string(what) + " " +
        (endpoint.host.find(':') != std::string::npos ? "[" + endpoint.host + "]" : endpoint.host) +
        ":" + std::to_string(endpoint.port);
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = type;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string port = std::to_string(endpoint.port);
    if (const int rc = ::getaddrinfo(endpoint.host.c_str(), port.c_str(), &hints, &found);
        rc != 0) {
        throw SourceError(place + ": cannot resolve host: " + ::gai_strerror(rc));
    }
    std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> guard(found, ::freeaddrinfo);

    UniqueFd fd(::socket(found->ai_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) {
        throw SourceError(place + ": cannot create socket: " + std::strerror(errno));
    }
    if (type == SOCK_STREAM) {
        // Lets a restarted listener take its port while old connections sit in TIME_WAIT;
        // on Linux it does not allow two listeners on one port.
        const int on = 1;
        ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    }
    if (sharePort) {
        const int on = 1;
        if (::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0) {
            throw SourceError(place +
                              ": cannot share the port (SO_REUSEPORT): " + std::strerror(errno));
        }
    }
    if (::bind(fd.get(), found->ai_addr, found->ai_addrlen) != 0) {
        throw SourceError(place + ": cannot bind: " + std::strerror(errno));
    }
    if (type == SOCK_STREAM && ::listen(fd.get(), SOMAXCONN) != 0) {
        throw SourceError(place + ": cannot listen: " + std::strerror(errno));
    }
    return fd;
}

}  // namespace

UniqueFd bindSocket(int type, const Endpoint& endpoint, std::string_view what) {
    return bindOne(type, endpoint, what, false);
}

std::vector<UniqueFd> bindSocketGroup(int type, const Endpoint& endpoint, std::string_view what,
                                      std::size_t count) {
    std::vector<UniqueFd> sockets;
    if (count <= 1) {
        sockets.push_back(bindOne(type, endpoint, what, false));
        return sockets;
    }
    // A plain bind first: it fails, naming the address, if anyone holds the port (also a
    // group of SO_REUSEPORT sockets, which this group must never join), and picks the port
    // for port 0. The group then binds the port the probe has just given back.
    Endpoint shared = endpoint;
    shared.port = localPort(bindOne(type, endpoint, what, false).get());
    for (std::size_t i = 0; i < count; ++i) {
        sockets.push_back(bindOne(type, shared, what, true));
    }
    return sockets;
}

std::string formatAddress(const sockaddr* address, socklen_t length) {
    char host[INET6_ADDRSTRLEN] = "?";
    if (address->sa_family == AF_INET && length >= sizeof(sockaddr_in)) {
        const auto* in = reinterpret_cast<const sockaddr_in*>(address);
        ::inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
        return std::string(host) + ":" + std::to_string(ntohs(in->sin_port));
    }
    if (address->sa_family == AF_INET6 && length >= sizeof(sockaddr_in6)) {
        const auto* in6 = reinterpret_cast<const sockaddr_in6*>(address);
        ::inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
        return "[" + std::string(host) + "]:" + std::to_string(ntohs(in6->sin6_port));
    }
    return "?";
}

std::string localAddress(int fd) {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        return "?";
    }
    return formatAddress(reinterpret_cast<const sockaddr*>(&address), length);
}

std::uint16_t localPort(int fd) {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        return 0;
    }
    if (address.ss_family == AF_INET) {
        return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
    }
    if (address.ss_family == AF_INET6) {
        return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
    }
    return 0;
}

WakeFd::WakeFd() : m_fd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
    if (!m_fd) {
        throw SourceError(std::string("cannot create eventfd: ") + std::strerror(errno));
    }
}

void WakeFd::notify() const {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(m_fd.get(), &one, sizeof one);
}

}  // namespace hitcounter
