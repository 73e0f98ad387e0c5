#include "core/net/socket_listener.h"

#include <utility>

#include "core/time/wall_clock.h"

namespace hitcounter {

SocketListener::SocketListener(ListenerOptions options, WireProtocol protocol, int socketType)
    : m_options(std::move(options)),
      m_clock(m_options.clock ? m_options.clock : std::make_shared<WallClock>()),
      m_protocol(protocol),
      m_socketType(socketType) {
    const std::string kind = socketType == SOCK_DGRAM ? " udp " : " tcp ";
    m_description = std::string(protocolName(protocol)) + kind + m_options.address;
}

SocketListener::~SocketListener() {
    stop();
}

void SocketListener::start(BatchQueue& out) {
    if (m_worker.joinable()) {
        throw SourceError(m_description + ": already started");
    }
    const std::string kind = m_socketType == SOCK_DGRAM ? " udp" : " tcp";
    UniqueFd socket = bindSocket(m_socketType, parseEndpoint(m_options.address),
                                 std::string(protocolName(m_protocol)) + kind);
    configure(socket.get());
    m_port = localPort(socket.get());
    m_description = std::string(protocolName(m_protocol)) + kind + " " + localAddress(socket.get());
    m_ingest =
        std::make_unique<LineIngest>(m_protocol, out, m_options.maxBatch, m_options.maxKeyBytes);
    auto wake = std::make_unique<WakeFd>();
    m_running = true;
    m_worker = std::jthread(
        [this, socket = std::move(socket), wake = std::move(wake)](std::stop_token stop) {
            std::stop_callback wakeOnStop(stop, [&wake] { wake->notify(); });
            serve(stop, socket.get(), *wake, *m_ingest);
            m_ingest->flush();
            m_running = false;
        });
}

void SocketListener::requestStop() {
    m_worker.request_stop();
}

void SocketListener::stop() {
    if (m_worker.joinable()) {
        m_worker.request_stop();
        m_worker.join();
    }
}

SourceStats SocketListener::stats() const {
    return m_ingest ? m_ingest->stats() : SourceStats{};
}

std::string SocketListener::lastProblem() const {
    return m_ingest ? m_ingest->lastProblem() : std::string{};
}

std::vector<BadLine> SocketListener::recentBadLines() const {
    return m_ingest ? m_ingest->badLines().recent() : std::vector<BadLine>{};
}

std::string SocketListener::visitorNote() const {
    return m_protocol == WireProtocol::Graphite ? "Graphite lines carry no visitor"
                                                : "statsd lines carry no visitor";
}

std::vector<ProblemCount> SocketListener::problems() const {
    return m_ingest ? m_ingest->problems() : std::vector<ProblemCount>{};
}

}  // namespace hitcounter
