#include "core/net/tcp_listener.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <list>
#include <vector>

namespace hitcounter {

namespace {

constexpr std::size_t kReadBytes = 64 * 1024;
// After stop: reads per connection that may still drain what has already arrived.
constexpr int kDrainReads = 256;

struct Connection {
    UniqueFd fd;
    std::string peer;
    LineBuffer lines;
};

enum class ReadResult { More, Idle, Closed };

}  // namespace

TcpListener::TcpListener(ListenerOptions options, WireProtocol protocol)
    : SocketListener(std::move(options), protocol, SOCK_STREAM) {}

TcpListener::~TcpListener() {
    stop();
}

void TcpListener::serve(std::stop_token stop, int socket, const WakeFd& wake, LineIngest& ingest) {
    std::list<Connection> connections;
    std::vector<char> buffer(kReadBytes);
    const std::string origin = describe() + " from ";

    const auto addLine = [&](const Connection& c, std::string_view line) {
        if (const auto problem = ingest.addLine(line); !problem.empty()) {
            ingest.noteProblem(origin + c.peer + ": " + std::string(problem) + ": " +
                               quoteLine(line));
        }
    };
    // One read from `c`; Closed when the peer finished, failed, or sent too long a line.
    const auto readOnce = [&](Connection& c) {
        const ssize_t n = ::recv(c.fd.get(), buffer.data(), buffer.size(), MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            return ReadResult::Idle;
        }
        if (n <= 0) {
            // End of stream (or a reset): what followed the last '\n' is the last line.
            if (!c.lines.rest().empty()) {
                addLine(c, c.lines.rest());
            }
            return ReadResult::Closed;
        }
        ingest.addPackets(1);
        const bool fits = c.lines.feed(std::string_view(buffer.data(), static_cast<size_t>(n)),
                                       [&](std::string_view line) { addLine(c, line); });
        if (!fits) {
            ingest.addBadLine();
            ingest.noteProblem(origin + c.peer + ": line longer than " +
                               std::to_string(options().maxLineBytes) +
                               " bytes; connection closed");
            return ReadResult::Closed;
        }
        return ReadResult::More;
    };
    const auto acceptAll = [&] {
        for (;;) {
            sockaddr_storage peer{};
            socklen_t length = sizeof peer;
            UniqueFd fd(::accept4(socket, reinterpret_cast<sockaddr*>(&peer), &length,
                                  SOCK_NONBLOCK | SOCK_CLOEXEC));
            if (!fd) {
                return;  // EAGAIN, or a connection that vanished before accept
            }
            std::string name = formatAddress(reinterpret_cast<sockaddr*>(&peer), length);
            if (connections.size() >= options().maxConnections) {
                m_refused.fetch_add(1);
                ingest.noteProblem(origin + name + ": refused, " +
                                   std::to_string(options().maxConnections) +
                                   " connections already open");
                continue;
            }
            connections.push_back(
                {std::move(fd), std::move(name), LineBuffer(options().maxLineBytes)});
        }
    };

    std::vector<pollfd> fds;
    while (!stop.stop_requested()) {
        fds.assign({pollfd{wake.fd(), POLLIN, 0}, pollfd{socket, POLLIN, 0}});
        for (const Connection& c : connections) {
            fds.push_back({c.fd.get(), POLLIN, 0});
        }
        if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) {
            ingest.noteProblem(describe() + ": poll failed: " + std::strerror(errno));
            break;
        }
        ingest.setNow(now());
        auto pfd = fds.begin() + 2;
        for (auto it = connections.begin(); it != connections.end(); ++pfd) {
            const bool ready = pfd->revents != 0;
            it = ready && readOnce(*it) == ReadResult::Closed ? connections.erase(it)
                                                              : std::next(it);
        }
        if (fds[1].revents != 0) {
            acceptAll();
        }
        m_open = connections.size();
        ingest.flush();
    }

    // Drain what has already arrived, so a client that finished before stop() counts fully.
    ingest.setNow(now());
    acceptAll();
    for (Connection& c : connections) {
        for (int i = 0; i < kDrainReads && readOnce(c) == ReadResult::More; ++i) {
        }
    }
    m_open = 0;
}

}  // namespace hitcounter
