#include "core/net/socket_listener.h"

#include <algorithm>
#include <stdexcept>
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
    const std::string lines = std::string(protocolName(protocol)) + " lines";
    if (m_options.filter)
        if (const auto missing = m_options.filter->missingField(filterFieldsOf(protocol), lines))
            throw std::invalid_argument("filter '" + m_options.filter->text() +
                                        "': " + describeFilterProblem(*missing));
    if (m_options.series)
        if (const auto missing = m_options.series->missingField(filterFieldsOf(protocol), lines))
            throw std::invalid_argument(*missing);
}

SocketListener::~SocketListener() {
    stop();
}

std::size_t receiverCount(std::size_t requested) {
    return requested != 0 ? requested : std::max(1U, std::thread::hardware_concurrency());
}

void SocketListener::start(BatchQueue& out) {
    for (const Receiver& r : m_receivers) {
        if (r.worker.joinable()) {
            throw SourceError(m_description + ": already started");
        }
    }
    m_receivers.clear();  // a stopped listener starts again with fresh counts
    const std::string kind = m_socketType == SOCK_DGRAM ? " udp" : " tcp";
    std::vector<UniqueFd> sockets = bindSocketGroup(m_socketType, parseEndpoint(m_options.address),
                                                    std::string(protocolName(m_protocol)) + kind,
                                                    receiverCount(m_options.receivers));
    for (const UniqueFd& socket : sockets) {
        configure(socket.get());
    }
    m_port = localPort(sockets.front().get());
    m_description =
        std::string(protocolName(m_protocol)) + kind + " " + localAddress(sockets.front().get());
    // Every ingest exists before any worker starts, so stats() never sees a vector growing.
    m_receivers.resize(sockets.size());
    for (Receiver& r : m_receivers) {
        r.ingest = std::make_unique<LineIngest>(m_protocol, out, m_options.maxBatch,
                                                m_options.maxKeyBytes, m_problems);
        if (m_options.coalesce) {
            r.ingest->coalesceKeys();
        }
        if (m_options.acceptedTimes) {
            r.ingest->acceptTimes(*m_options.acceptedTimes);
        }
        r.ingest->setFilter(m_options.filter);
        r.ingest->setSeries(m_options.series);
    }
    m_running = m_receivers.size();
    for (std::size_t i = 0; i < m_receivers.size(); ++i) {
        LineIngest& ingest = *m_receivers[i].ingest;
        m_receivers[i].worker =
            std::jthread([this, &ingest, socket = std::move(sockets[i]),
                          wake = std::make_unique<WakeFd>()](std::stop_token stop) {
                std::stop_callback wakeOnStop(stop, [&wake] { wake->notify(); });
                serve(stop, socket.get(), *wake, ingest);
                ingest.flush();
                m_running.fetch_sub(1);
            });
    }
}

void SocketListener::requestStop() {
    for (Receiver& r : m_receivers) {
        r.worker.request_stop();
    }
}

void SocketListener::stop() {
    requestStop();
    for (Receiver& r : m_receivers) {
        if (r.worker.joinable()) {
            r.worker.join();
        }
    }
}

std::vector<SourceStats> SocketListener::receiverStats() const {
    std::vector<SourceStats> each;
    for (const Receiver& r : m_receivers) {
        each.push_back(r.ingest->stats());
    }
    return each;
}

SourceStats SocketListener::stats() const {
    SourceStats sum;
    for (const SourceStats& s : receiverStats()) {
        sum.packets = saturatingAdd(sum.packets, s.packets);
        sum.lines = saturatingAdd(sum.lines, s.lines);
        sum.hits = saturatingAdd(sum.hits, s.hits);
        sum.badLines = saturatingAdd(sum.badLines, s.badLines);
        sum.ignoredLines = saturatingAdd(sum.ignoredLines, s.ignoredLines);
        sum.dropped = saturatingAdd(sum.dropped, s.dropped);
        sum.lateHits = saturatingAdd(sum.lateHits, s.lateHits);
    }
    return sum;
}

std::string SocketListener::lastProblem() const {
    return m_problems->last();
}

std::vector<BadLine> SocketListener::recentBadLines() const {
    return m_problems->badLines().recent();
}

std::string SocketListener::visitorNote() const {
    return m_protocol == WireProtocol::Graphite ? "Graphite lines carry no visitor"
                                                : "statsd lines carry no visitor";
}

std::vector<ProblemCount> SocketListener::problems() const {
    return m_problems->problems();
}

}  // namespace hitcounter
