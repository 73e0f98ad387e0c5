// TcpListener: statsd or Graphite plaintext over TCP, '\n'-separated lines on each
// connection.
//
// Threading: see SocketListener; openConnections() and refusedConnections() may be read
// from any thread.
//
// Semantics: a line may be split across reads; the last line of a connection counts even
// without a final '\n' (when the peer closes). A line longer than maxLineBytes (64 KiB) is
// one bad line and its connection is closed. At most maxConnections are open at once; a
// connection beyond the cap is accepted and closed at once, and counted as refused.
// "packets" counts reads that returned data.
//
// Cost: one poll() over all connections per round, one read of up to 64 KiB per readable
// connection per round. Memory: per connection at most one unfinished line (<= 64 KiB).
#pragma once

#include <atomic>
#include <cstdint>

#include "core/net/socket_listener.h"

namespace hitcounter {

class TcpListener : public SocketListener {
public:
    TcpListener(ListenerOptions options, WireProtocol protocol);
    ~TcpListener() override;

    std::uint64_t openConnections() const { return m_open.load(); }
    std::uint64_t refusedConnections() const { return m_refused.load(); }

private:
    void serve(std::stop_token stop, int socket, const WakeFd& wake, LineIngest& ingest) override;

    std::atomic<std::uint64_t> m_open{0};
    std::atomic<std::uint64_t> m_refused{0};
};

}  // namespace hitcounter
