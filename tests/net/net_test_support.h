// Helpers for the listener tests: real sockets on 127.0.0.1, and bounded waits that end by
// themselves (each wait blocks on the queue or the socket, never sleeps a fixed time).
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "core/net/socket_util.h"
#include "core/sources/batch_queue.h"

namespace hitcounter::testing {

inline sockaddr_in loopback(std::uint16_t port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return address;
}

// A UDP socket connected to 127.0.0.1:port.
inline UniqueFd udpSender(std::uint16_t port) {
    UniqueFd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    const sockaddr_in to = loopback(port);
    ::connect(fd.get(), reinterpret_cast<const sockaddr*>(&to), sizeof to);
    return fd;
}

inline bool sendAll(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) {
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// A blocking TCP connection to 127.0.0.1:port (invalid if refused).
inline UniqueFd tcpConnect(std::uint16_t port) {
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    const sockaddr_in to = loopback(port);
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0) {
        return {};
    }
    return fd;
}

// True if the peer closed `fd` within `timeout` (a read returns 0 or a reset).
inline bool peerClosed(int fd, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    char sink[4096];
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) == 1) {
            const ssize_t n = ::recv(fd, sink, sizeof sink, MSG_DONTWAIT);
            if (n <= 0) {
                return true;
            }
        }
    }
    return false;
}

// Hits per key gathered from `queue`.
struct Collected {
    std::map<std::string, Count> perKey;
    Count total = 0;
    std::vector<HitEvent> events;
};

// Pops batches until `done(collected)` holds or `timeout` passes.
inline Collected collectUntil(BatchQueue& queue, const std::function<bool(const Collected&)>& done,
                              std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    Collected c;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done(c) && std::chrono::steady_clock::now() < deadline) {
        if (auto batch = queue.popFor(std::chrono::milliseconds(20))) {
            for (HitEvent& e : *batch) {
                c.perKey[e.key] += e.count;
                c.total += e.count;
                c.events.push_back(std::move(e));
            }
        }
    }
    return c;
}

// Adds the hits of every batch still in `queue` (after the source stopped) to `perKey`.
inline void addDrained(BatchQueue& queue, std::map<std::string, Count>& perKey) {
    for (const auto& batch : queue.drain()) {
        for (const HitEvent& e : batch) {
            perKey[e.key] += e.count;
        }
    }
}

inline Collected collectHits(BatchQueue& queue, Count hits,
                             std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    return collectUntil(
        queue, [hits](const Collected& c) { return c.total >= hits; }, timeout);
}

// Waits (bounded) until `condition` holds; polls every millisecond.
inline bool waitUntil(const std::function<bool()>& condition,
                      std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        ::poll(nullptr, 0, 1);
    }
    return true;
}

}  // namespace hitcounter::testing
