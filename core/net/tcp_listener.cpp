#include "core/net/tcp_listener.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <list>
#include <optional>
#include <vector>

namespace hitcounter {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::size_t kReadBytes = 64 * 1024;
// After stop: what has arrived is read until every connection is closed or quiet for
// kDrainQuiet, for kDrainTime at most (the rest is lost with the connection).
constexpr std::chrono::milliseconds kDrainQuiet{50};
constexpr std::chrono::seconds kDrainTime{10};
// Connections accepted per round: the open ones are read between bursts, so a new client's
// first line is seen before a burst of new connections could evict it.
constexpr std::size_t kAcceptsPerRound = 8;
// After stop: connections still waiting in the backlog that are accepted and drained.
constexpr std::size_t kDrainAccepts = 1024;
// While every slot is taken and other receivers hold some: how often to look for a free one.
constexpr int kFullRecheckMs = 50;

struct Connection {
    UniqueFd fd;
    std::string peer;
    LineBuffer lines;
    SteadyClock::time_point lastLine;  // when it last completed a line (or connected)
    bool completedLine = false;        // it has completed at least one line
    bool readable = false;             // poll() said so this round
};

enum class ReadResult { More, Idle, Closed };

// Bytes have arrived that the listener has not read yet (it may have been held up by
// back-pressure): such a connection is not idle, whatever its clock says.
bool hasUnreadBytes(const Connection& c) {
    char byte = 0;
    return ::recv(c.fd.get(), &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
}

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
    const ListenerOptions& o = options();
    ingest.waitWhenFull(stop);

    // Every connection leaves through here: the open count is shared by the receivers.
    const auto close = [&](std::list<Connection>::iterator it) {
        m_open.fetch_sub(1);
        return connections.erase(it);
    };
    // Takes a free slot for a new connection; false if there is none (left to the others).
    const auto reserveSlot = [&] {
        std::uint64_t open = m_open.load();
        while (open < o.maxConnections) {
            if (m_open.compare_exchange_weak(open, open + 1)) {
                return true;
            }
        }
        return false;
    };
    const auto addLine = [&](const Connection& c, std::string_view line) {
        if (const auto problem = ingest.addLine(line); !problem.empty()) {
            ingest.noteBadLine(describe(), c.peer, problem, line);
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
        bool completed = false;
        const bool fits = c.lines.feed(std::string_view(buffer.data(), static_cast<size_t>(n)),
                                       [&](std::string_view line) {
                                           addLine(c, line);
                                           completed = true;
                                       });
        if (completed) {
            c.lastLine = SteadyClock::now();
            c.completedLine = true;
        }
        if (!fits) {
            ingest.addBadLine();
            ingest.noteProblem("line too long", origin + c.peer + ": line longer than " +
                                                    std::to_string(o.maxLineBytes) +
                                                    " bytes; connection closed");
            return ReadResult::Closed;
        }
        return ReadResult::More;
    };
    // The connection to evict first: the oldest of those that never completed a line (slow
    // clients reconnecting cannot look busier than real ones), else the one idle longest.
    const auto mostIdle = [&] {
        return std::min_element(connections.begin(), connections.end(),
                                [](const Connection& a, const Connection& b) {
                                    return std::pair(a.completedLine, a.lastLine) <
                                           std::pair(b.completedLine, b.lastLine);
                                });
    };
    // Whether a new connection may come in now: connections.end() if there is a free slot
    // (among every receiver's), the connection of this receiver it would evict, or nullopt if
    // every slot is busy with an active connection or held by another receiver. A candidate
    // with unread bytes is read first (they may complete a line and so make it active; a
    // connection is never closed with bytes unread).
    const auto roomFor = [&]() -> std::optional<std::list<Connection>::iterator> {
        for (std::size_t tries = 0; tries <= o.maxConnections; ++tries) {
            if (m_open.load() < o.maxConnections) {
                return connections.end();
            }
            if (connections.empty()) {
                return std::nullopt;  // maxConnections is 0, or the others hold every slot
            }
            const auto idle = mostIdle();
            if (hasUnreadBytes(*idle)) {
                if (readOnce(*idle) == ReadResult::Closed) {
                    close(idle);
                }
                continue;
            }
            if (idle->completedLine && SteadyClock::now() - idle->lastLine < o.evictIdleAfter) {
                return std::nullopt;
            }
            return idle;
        }
        return std::nullopt;
    };
    // Accepts up to `most` waiting connections; with `cap`, only while roomFor() allows.
    const auto accept = [&](std::size_t most, bool cap) {
        for (std::size_t i = 0; i < most; ++i) {
            const auto victim = cap ? roomFor() : connections.end();
            if (!victim) {
                return;
            }
            const bool evicting = *victim != connections.end();
            if (!evicting) {
                if (!cap) {
                    m_open.fetch_add(1);
                } else if (!reserveSlot()) {
                    return;  // another receiver took the last free slot meanwhile
                }
            }
            sockaddr_storage peer{};
            socklen_t length = sizeof peer;
            UniqueFd fd(::accept4(socket, reinterpret_cast<sockaddr*>(&peer), &length,
                                  SOCK_NONBLOCK | SOCK_CLOEXEC));
            if (!fd) {
                if (!evicting) {
                    m_open.fetch_sub(1);
                }
                return;  // EAGAIN, or a connection that vanished before accept
            }
            std::string name = formatAddress(reinterpret_cast<sockaddr*>(&peer), length);
            if (evicting) {
                // The new connection takes the evicted one's slot: the open count stays.
                const Connection& idle = **victim;
                m_evicted.fetch_add(1);
                ingest.noteProblem(
                    "connection evicted",
                    origin + idle.peer + ": closed to make room for " + name +
                        (idle.completedLine ? " (idle longest)" : " (never completed a line)"));
                connections.erase(*victim);
            }
            connections.push_back({std::move(fd), std::move(name), LineBuffer(o.maxLineBytes),
                                   SteadyClock::now(), false, false});
        }
    };
    // Closes connections that completed no line within the idle timeout. Returns when
    // something is next due: a timeout, or (all slots busy) the idlest becoming evictable.
    const auto closeTimedOut = [&] {
        const auto now = SteadyClock::now();
        auto next = SteadyClock::time_point::max();
        for (auto it = connections.begin(); it != connections.end();) {
            const auto due = it->lastLine + o.idleTimeout;
            if (due <= now && !it->readable && !hasUnreadBytes(*it)) {
                m_timedOut.fetch_add(1);
                ingest.noteProblem("connection timed out",
                                   origin + it->peer + ": no complete line for " +
                                       std::to_string(o.idleTimeout.count()) +
                                       " ms; connection closed");
                it = close(it);
                continue;
            }
            next = std::min(next, due);
            ++it;
        }
        if (m_open.load() >= o.maxConnections && !connections.empty()) {
            next = std::min(next, mostIdle()->lastLine + o.evictIdleAfter);
        }
        return next;
    };

    std::vector<pollfd> fds;
    auto nextDue = SteadyClock::time_point::max();
    bool deferring = false;
    while (!stop.stop_requested()) {
        // While every slot is busy with an active connection, new ones wait in the kernel's
        // backlog (their senders wait too) rather than being accepted and closed unread.
        const bool full = !roomFor();
        if (full && !deferring) {
            m_deferred.fetch_add(1);
            ingest.noteProblem("connections deferred",
                               describe() + ": all " + std::to_string(o.maxConnections) +
                                   " connections active; new ones wait to be accepted");
        }
        deferring = full;
        // Before blocking: roomFor() may have read lines (a candidate's unread bytes), and
        // nothing else would push them until the next poll() wakes, which may be the idle
        // timeout, seconds away.
        ingest.flush();
        fds.assign({pollfd{wake.fd(), POLLIN, 0}, pollfd{full ? -1 : socket, POLLIN, 0}});
        for (const Connection& c : connections) {
            fds.push_back({c.fd.get(), POLLIN, 0});
        }
        int timeoutMs = -1;
        if (nextDue != SteadyClock::time_point::max()) {
            const auto wait =
                std::chrono::ceil<std::chrono::milliseconds>(nextDue - SteadyClock::now());
            timeoutMs = static_cast<int>(std::clamp<long long>(wait.count(), 0, 60'000));
        }
        if (full && receivers() > 1) {
            // Another receiver may free a slot without waking this one: look again soon.
            timeoutMs = timeoutMs < 0 ? kFullRecheckMs : std::min(timeoutMs, kFullRecheckMs);
        }
        if (::poll(fds.data(), fds.size(), timeoutMs) < 0 && errno != EINTR) {
            ingest.noteProblem("poll failed",
                               describe() + ": poll failed: " + std::strerror(errno));
            break;
        }
        ingest.setNow(now());
        auto pfd = fds.begin() + 2;
        for (Connection& c : connections) {
            c.readable = (pfd++)->revents != 0;
        }
        for (auto it = connections.begin(); it != connections.end();) {
            it = it->readable && readOnce(*it) == ReadResult::Closed ? close(it) : std::next(it);
        }
        if (fds[1].revents != 0) {
            accept(kAcceptsPerRound, true);
        }
        nextDue = closeTimedOut();
    }

    // Drain what has already arrived, so a client that finished before stop() counts fully:
    // the connections still waiting to be accepted too (bounded), whatever the cap.
    ingest.setNow(now());
    accept(kDrainAccepts, false);
    const auto drainEnd = SteadyClock::now() + kDrainTime;
    while (!connections.empty() && SteadyClock::now() < drainEnd) {
        fds.clear();
        for (const Connection& c : connections) {
            fds.push_back({c.fd.get(), POLLIN, 0});
        }
        if (::poll(fds.data(), fds.size(), static_cast<int>(kDrainQuiet.count())) <= 0) {
            break;  // quiet (or failed): nothing more is on its way
        }
        auto pfd = fds.begin();
        for (auto it = connections.begin(); it != connections.end();) {
            const bool ready = (pfd++)->revents != 0;
            it = ready && readOnce(*it) == ReadResult::Closed ? close(it) : std::next(it);
        }
    }
    m_open.fetch_sub(connections.size());
}

}  // namespace hitcounter
