#include "core/net/udp_listener.h"

#include <linux/sock_diag.h>
#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

namespace hitcounter {

namespace {

constexpr std::size_t kDatagrams = 64;
constexpr std::size_t kDatagramBytes = 64 * 1024;
// Receive rounds between two flushes, so a flood still publishes its stats and sees stop.
constexpr int kRoundsPerFlush = 64;
// After stop: how many rounds may still drain what has already arrived.
constexpr int kDrainRounds = 1024;

// The recvmmsg() arrays and their buffers, set up once.
class ReceiveBatch {
public:
    ReceiveBatch() : m_data(kDatagrams * kDatagramBytes) {
        for (std::size_t i = 0; i < kDatagrams; ++i) {
            m_iov[i] = {m_data.data() + i * kDatagramBytes, kDatagramBytes};
        }
    }

    // Receives what is waiting without blocking: the number of datagrams, 0 if none.
    int receive(int socket) {
        for (std::size_t i = 0; i < kDatagrams; ++i) {
            msghdr& h = m_messages[i].msg_hdr;
            h = {};
            h.msg_name = &m_peers[i];
            h.msg_namelen = sizeof(sockaddr_storage);
            h.msg_iov = &m_iov[i];
            h.msg_iovlen = 1;
        }
        for (;;) {
            const int n = ::recvmmsg(socket, m_messages.data(), kDatagrams, MSG_DONTWAIT, nullptr);
            if (n >= 0) {
                return n;
            }
            if (errno != EINTR) {
                return 0;
            }
        }
    }

    std::string_view bytes(int i) const {
        const auto k = static_cast<std::size_t>(i);
        return {m_data.data() + k * kDatagramBytes, m_messages[k].msg_len};
    }
    std::string peer(int i) const {
        const auto k = static_cast<std::size_t>(i);
        return formatAddress(reinterpret_cast<const sockaddr*>(&m_peers[k]),
                             m_messages[k].msg_hdr.msg_namelen);
    }

private:
    std::vector<char> m_data;
    std::array<iovec, kDatagrams> m_iov{};
    std::array<mmsghdr, kDatagrams> m_messages{};
    std::array<sockaddr_storage, kDatagrams> m_peers{};
};

// The kernel's running count of datagrams it dropped on this socket (sk_drops).
std::optional<std::uint32_t> kernelDropCounter(int socket) {
    std::array<std::uint32_t, SK_MEMINFO_VARS> info{};
    socklen_t length = sizeof info;
    if (::getsockopt(socket, SOL_SOCKET, SO_MEMINFO, info.data(), &length) != 0 ||
        length < (SK_MEMINFO_DROPS + 1) * sizeof(std::uint32_t)) {
        return std::nullopt;
    }
    return info[SK_MEMINFO_DROPS];
}

}  // namespace

UdpStatsdListener::UdpStatsdListener(ListenerOptions options)
    : SocketListener(std::move(options), WireProtocol::Statsd, SOCK_DGRAM) {}

UdpStatsdListener::~UdpStatsdListener() {
    stop();
}

void UdpStatsdListener::configure(int socket) {
    const int wanted = options().receiveBufferBytes;
    if (wanted > 0) {
        // FORCE passes net.core.rmem_max but needs CAP_NET_ADMIN; without it the plain
        // option still gets as close as the limit allows.
        if (::setsockopt(socket, SOL_SOCKET, SO_RCVBUFFORCE, &wanted, sizeof wanted) != 0) {
            ::setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &wanted, sizeof wanted);
        }
    }
    int granted = 0;
    socklen_t length = sizeof granted;
    ::getsockopt(socket, SOL_SOCKET, SO_RCVBUF, &granted, &length);
    m_receiveBufferBytes = granted;
    m_kernelDrops = kernelDropCounter(socket) ? 0 : -1;
}

void UdpStatsdListener::serve(std::stop_token stop, int socket, const WakeFd& wake,
                              LineIngest& ingest) {
    auto batch = std::make_unique<ReceiveBatch>();
    std::uint32_t lastDropCounter = 0;

    // Receives up to `rounds` recvmmsg() batches; false once the socket had nothing.
    const auto receiveRounds = [&](int rounds) {
        ingest.setNow(now());
        for (int round = 0; round < rounds; ++round) {
            const int n = batch->receive(socket);
            if (n == 0) {
                return false;
            }
            ingest.addPackets(static_cast<std::uint64_t>(n));
            for (int i = 0; i < n; ++i) {
                forEachLine(batch->bytes(i), [&](std::string_view line) {
                    if (const auto problem = ingest.addLine(line); !problem.empty()) {
                        ingest.noteBadLine(describe(), batch->peer(i), problem, line);
                    }
                });
            }
        }
        return true;
    };
    const auto countKernelDrops = [&] {
        if (const auto drops = kernelDropCounter(socket)) {
            // The counter is cumulative and 32-bit; unsigned subtraction handles its wrap.
            const std::uint32_t fresh = *drops - lastDropCounter;
            lastDropCounter = *drops;
            ingest.addDropped(fresh);
            m_kernelDrops.fetch_add(fresh);
        }
    };

    std::array<pollfd, 2> fds{pollfd{socket, POLLIN, 0}, pollfd{wake.fd(), POLLIN, 0}};
    while (!stop.stop_requested()) {
        if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) {
            ingest.noteProblem("poll failed",
                               describe() + ": poll failed: " + std::strerror(errno));
            break;
        }
        if (fds[0].revents != 0) {
            receiveRounds(kRoundsPerFlush);
            countKernelDrops();
            ingest.flush();
        }
    }
    receiveRounds(kDrainRounds);
    countKernelDrops();
}

}  // namespace hitcounter
