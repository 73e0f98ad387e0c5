// TcpListener: statsd or Graphite plaintext over TCP, '\n'-separated lines on each
// connection.
//
// Threading: see SocketListener; openConnections() and the connection counters may be read
// from any thread.
//
// Semantics: a line may be split across reads; the last line of a connection counts even
// without a final '\n' (when the peer closes). A line longer than maxLineBytes (64 KiB) is
// one bad line and its connection is closed. "packets" counts reads that returned data.
//
// Defences (each counted, and noted as a problem of its own kind):
//  - back-pressure: while the queue is full the listener reads nothing (LineIngest::
//    waitWhenFull), so TCP flow control slows the senders and no hit is dropped;
//  - idle timeout: a connection that completes no line for idleTimeout is closed
//    (timedOutConnections), which ends slow clients sending a byte now and then;
//  - at most maxConnections are open (counted over every receiver thread; each serves the
//    connections the kernel hands to its socket): a new connection then evicts one of its own
//    receiver's (evictedConnections):
//    the oldest of those that never completed a line, else the one that completed no line for
//    longest if that is at least evictIdleAfter. So slow clients, even reconnecting at once,
//    only ever displace each other. If every open connection completed a line within
//    evictIdleAfter, new connections are not accepted until a slot frees: they wait in the
//    kernel's backlog (SOMAXCONN), and so do their senders (deferredConnections counts how
//    often that began). None is accepted and closed unread, which would lose what a client
//    such as `nc -q0` sent and closed without ever seeing an error.
//  - after a stop, the connections still in the backlog are accepted (up to 1024), and all
//    are read until each is closed or quiet for 50 ms, for 10 s at most.
// An unfinished line of a connection closed by a timeout or an eviction is discarded.
//
// Cost: one poll() over all connections per round, one read of up to 64 KiB per readable
// connection per round, O(connections) for the timeouts. Memory: per connection at most one
// unfinished line (<= maxLineBytes).
#pragma once

#include <atomic>
#include <cstdint>

#include "core/net/socket_listener.h"

namespace hitcounter {

class TcpListener : public SocketListener {
public:
    TcpListener(ListenerOptions options, WireProtocol protocol);
    ~TcpListener() override;

    // Over every receiver thread.
    std::uint64_t openConnections() const { return m_open.load(); }
    // How often every slot was busy with an active connection, so new ones had to wait.
    std::uint64_t deferredConnections() const { return m_deferred.load(); }
    std::uint64_t timedOutConnections() const { return m_timedOut.load(); }
    std::uint64_t evictedConnections() const { return m_evicted.load(); }

private:
    void serve(std::stop_token stop, int socket, const WakeFd& wake, LineIngest& ingest) override;

    std::atomic<std::uint64_t> m_open{0};
    std::atomic<std::uint64_t> m_deferred{0};
    std::atomic<std::uint64_t> m_timedOut{0};
    std::atomic<std::uint64_t> m_evicted{0};
};

}  // namespace hitcounter
