// CutProxy: a loopback TCP proxy in front of a server that, when armed, cuts the connection
// after the server has answered but before the answer reaches the client: the client's
// commands were applied and it cannot know. For the exactly-once tests.
//
// Thread-safe arming (std::atomic); one worker thread (std::jthread) forwards one client
// connection at a time, polls with a 20 ms timeout and stops with its stop_token.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>

class CutProxy {
public:
    explicit CutProxy(std::uint16_t serverPort) : m_serverPort(serverPort) {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a = loopback(0);
        socklen_t length = sizeof a;
        ::bind(m_listen, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::listen(m_listen, 8);
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&a), &length);
        m_port = ntohs(a.sin_port);
        m_thread = std::jthread([this](std::stop_token stop) { run(stop); });
    }
    ~CutProxy() {
        m_thread.request_stop();
        m_thread.join();
        ::close(m_listen);
    }

    std::uint16_t port() const { return m_port; }
    // After the next client bytes containing `marker` reach the server, the server's next reply
    // bytes are discarded and both connections closed. Call before the client sends them.
    void armCut(std::string marker) {
        m_marker = std::move(marker);
        m_armed = true;
    }
    int cuts() const { return m_cuts; }

private:
    static sockaddr_in loopback(std::uint16_t port) {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return a;
    }

    void run(std::stop_token stop) {
        int client = -1;
        int server = -1;
        const auto closeBoth = [&] {
            if (client >= 0)
                ::close(client);
            if (server >= 0)
                ::close(server);
            client = server = -1;
        };
        char buffer[65536];
        while (!stop.stop_requested()) {
            if (client < 0) {
                pollfd p{m_listen, POLLIN, 0};
                if (::poll(&p, 1, 20) <= 0)
                    continue;
                client = ::accept(m_listen, nullptr, nullptr);
                server = ::socket(AF_INET, SOCK_STREAM, 0);
                const sockaddr_in a = loopback(m_serverPort);
                if (client < 0 ||
                    ::connect(server, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0)
                    closeBoth();
                continue;
            }
            pollfd p[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
            if (::poll(p, 2, 20) <= 0)
                continue;
            if (p[0].revents) {
                const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
                if (n <= 0 || ::send(server, buffer, size_t(n), MSG_NOSIGNAL) != n) {
                    closeBoth();
                    continue;
                }
                if (m_armed &&
                    std::string_view(buffer, size_t(n)).find(m_marker) != std::string_view::npos) {
                    m_armed = false;
                    m_cutNextReply = true;
                }
            }
            if (p[1].revents) {
                const ssize_t n = ::recv(server, buffer, sizeof buffer, 0);
                if (n > 0 && m_cutNextReply) {
                    m_cutNextReply = false;
                    ++m_cuts;
                    closeBoth();
                    continue;
                }
                if (n <= 0 || ::send(client, buffer, size_t(n), MSG_NOSIGNAL) != n)
                    closeBoth();
            }
        }
        closeBoth();
    }

    std::uint16_t m_serverPort;
    std::uint16_t m_port = 0;
    int m_listen = -1;
    std::string m_marker;  // written before m_armed is set, read after it is seen
    std::atomic<bool> m_armed{false};
    bool m_cutNextReply = false;  // worker thread only
    std::atomic<int> m_cuts{0};
    std::jthread m_thread;
};
