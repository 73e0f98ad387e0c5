// UdpStatsdListener: statsd over UDP. Each datagram holds one or more '\n'-separated lines.
//
// Threading: see SocketListener; receiveBufferBytes() and kernelDrops() may be read from
// any thread.
//
// Receiving: recvmmsg() reads up to 64 datagrams per call (each up to 64 KiB), so one
// system call can carry thousands of lines. SO_RCVBUF is enlarged to
// ListenerOptions::receiveBufferBytes (through SO_RCVBUFFORCE when the process may, else
// capped by net.core.rmem_max) and the size the kernel granted is read back. Datagrams the
// kernel dropped because the buffer was full are read after every receive round from the
// socket's drop counter (SO_MEMINFO, the counter SO_RXQ_OVFL and /proc/net/udp show; unlike
// SO_RXQ_OVFL it does not wait for a later datagram to carry it): they are added to
// stats().dropped (one per datagram, their lines being unknown) and to kernelDrops().
//
// Receivers: with ListenerOptions::receivers > 1 every receiver thread reads its own socket
// (SO_REUSEPORT: the kernel sends all datagrams of one sender address to the same socket, so
// many senders spread over the receivers, one sender does not); the sizes and drop counts
// above are per socket, kernelDrops() their sum.
//
// Memory: 4 MiB of receive buffers per receiver thread, plus each socket's kernel buffer.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/net/socket_listener.h"

namespace hitcounter {

class UdpStatsdListener : public SocketListener {
public:
    explicit UdpStatsdListener(ListenerOptions options);
    ~UdpStatsdListener() override;

    // The receive buffer size the kernel granted (as getsockopt reports it); 0 before start.
    int receiveBufferBytes() const { return m_receiveBufferBytes.load(); }
    // Datagrams the kernel dropped; -1 if this kernel does not report them.
    std::int64_t kernelDrops() const { return m_kernelDrops.load(); }

private:
    void configure(int socket) override;
    void serve(std::stop_token stop, int socket, const WakeFd& wake, LineIngest& ingest) override;

    std::atomic<int> m_receiveBufferBytes{0};
    std::atomic<std::int64_t> m_kernelDrops{-1};
};

}  // namespace hitcounter
