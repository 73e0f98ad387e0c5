// A minimal blocking HTTP/1.1 client for the tests (raw sockets on 127.0.0.1, bounded waits):
// enough to read /metrics and /healthz and to play clients that misbehave.
#pragma once

#include <poll.h>
#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/net/socket_util.h"
#include "tests/net/net_test_support.h"

namespace hitcounter::testing {

// Reads one reply (headers, then a Content-Length body unless `head`) within `timeout`; what
// arrived if it ends or times out first.
inline std::string readReply(int fd, bool head = false,
                             std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
    std::string data;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        const auto end = data.find("\r\n\r\n");
        if (end != std::string::npos) {
            const auto at = data.find("Content-Length: ");
            const std::size_t length =
                head || at == std::string::npos || at > end ? 0 : std::stoul(data.substr(at + 16));
            if (data.size() >= end + 4 + length)
                return data.substr(0, end + 4 + length);
        }
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0)
            continue;
        char buffer[65536];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n <= 0)
            break;
        data.append(buffer, std::size_t(n));
    }
    return data;
}

struct HttpResult {
    int status = 0;  // 0: no reply
    std::string headers;
    std::string body;
};

inline HttpResult httpGet(std::uint16_t port, std::string_view path, std::string_view accept = {}) {
    HttpResult result;
    UniqueFd fd = tcpConnect(port);
    if (!fd)
        return result;
    std::string request = "GET " + std::string(path) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (!accept.empty())
        request += "Accept: " + std::string(accept) + "\r\n";
    request += "Connection: close\r\n\r\n";
    if (!sendAll(fd.get(), request))
        return result;
    const std::string reply = readReply(fd.get());
    const auto end = reply.find("\r\n\r\n");
    if (!reply.starts_with("HTTP/1.1 ") || end == std::string::npos)
        return result;
    result.status = std::stoi(reply.substr(9, 3));
    result.headers = reply.substr(0, end);
    result.body = reply.substr(end + 4);
    return result;
}

}  // namespace hitcounter::testing
