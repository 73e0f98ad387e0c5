// SocketListener: what the UDP and TCP listeners share. It binds in start() (so a taken port
// fails there, with a SourceError naming the address and the reason), then serves the port
// with `receivers` threads: each has a socket of its own on the port (SO_REUSEPORT, see
// bindSocketGroup(): the kernel spreads the peers over them), its own std::jthread and its own
// LineIngest, which parses lines into a batch of that thread and pushes it into the
// BatchQueue. Nothing is shared between receivers on the way of a good line: the queue's lock
// is taken once per batch, the problem log (problem_log.h) only for problems. Each receiver
// adds the lines of one key and second to one event of its batch (ListenerOptions::coalesce,
// LineIngest::coalesceKeys(), with a key table of its own), so what the consumer does per
// batch follows the keys, not the lines.
//
// Exactness: N receivers count exactly what one does (hits per key, lines, bad lines,
// packets, drops), as a sum over the receivers. What depends on the order of arrival across
// receivers does not: the order of batches in the queue, and so which hits count as late
// (BatchSender) when two receivers' clocks read different seconds.
//
// Threading: start(), stop(), describe(), port() belong to the owner thread; stats(),
// running() and lastProblem() may be called from any thread. Each worker sleeps in poll()
// on its socket(s) and a WakeFd; stop() requests the stop, whose std::stop_callback wakes
// the workers at once. Before it ends, a worker reads what has already arrived (bounded),
// so a client that finished sending before stop() is counted completely.
//
// Defaults: bind 127.0.0.1 (any HOST:PORT can be given; port 0 picks a free port, which
// port() and describe() report after start()); the time of a hit without its own time is
// the clock's now(), read once per receive round (a WallClock unless options give one).
//
// Example:
//     BatchQueue queue;
//     UdpStatsdListener udp({.address = "127.0.0.1:0"});
//     udp.start(queue);                 // throws SourceError if it cannot bind
//     send "home:1|c" to 127.0.0.1:udp.port() ... queue.popFor(1s) holds {now, "home", "", 1}
//     udp.stop();
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/net/line_buffer.h"
#include "core/net/line_ingest.h"
#include "core/net/socket_util.h"
#include "core/sources/source.h"
#include "core/time/clock.h"

namespace hitcounter {

// Every limit of a listener; docs/listener.md "Limits and defences" says what happens at each.
struct ListenerOptions {
    std::string address = "127.0.0.1:8125";  // HOST:PORT, [IPv6]:PORT or PORT
    std::size_t receivers = 1;               // threads and sockets; 0: one per core
    bool coalesce = true;                // lines of one key and second as one event (LineIngest)
    std::shared_ptr<const Clock> clock;  // time of hits without their own; null: wall
    std::size_t maxBatch = 4096;         // events per pushed batch, at most
    std::size_t maxKeyBytes = kMaxKeyBytes;  // longer keys make the line bad
    // A line's own time (statsd |T, Graphite) outside it makes the line bad; nullopt: any.
    std::optional<AcceptedTimes> acceptedTimes;
    int receiveBufferBytes = 8 * 1024 * 1024;  // UDP: SO_RCVBUF asked for
    std::size_t maxConnections = 256;          // TCP: open connections, at most
    std::size_t maxLineBytes = kMaxLineBytes;  // TCP: longer lines are bad and close
    // TCP: a connection that completes no line for this long is closed (timed out).
    std::chrono::milliseconds idleTimeout = std::chrono::seconds(30);
    // TCP: when maxConnections are open, a new connection evicts one that never completed a
    // line, else the one idle longest if it has completed no line for at least this long;
    // else new ones wait in the backlog until one can be evicted (see tcp_listener.h).
    std::chrono::milliseconds evictIdleAfter = std::chrono::seconds(1);
    // Only the Hit lines it accepts count (LineIngest::setFilter); null: all of them. The
    // listener's constructor throws std::invalid_argument when it names a field the protocol's
    // lines lack ("filter 'status=5xx': column 1: field 'status' is not in statsd lines ...").
    std::shared_ptr<const RecordFilter> filter;
    // Each hit's series mask (LineIngest::setSeries); null: none. Checked like the filter.
    std::shared_ptr<const SeriesFilters> series;
};

class SocketListener : public Source {
public:
    ~SocketListener() override;

    void start(BatchQueue& out) final;
    void stop() final;
    // Asks the worker to stop without waiting: it reads what has already arrived (bounded),
    // then running() turns false; stop() joins it. A consumer that keeps popping meanwhile
    // lets a TCP listener deliver all of it (see LineIngest::waitWhenFull).
    void requestStop();
    bool running() const final { return m_running.load() > 0; }
    SourceStats stats() const final;
    // e.g. "statsd udp 127.0.0.1:8125" (after start(): the bound address).
    std::string describe() const final { return m_description; }
    // "statsd lines carry no visitor" / "Graphite lines carry no visitor".
    std::string visitorNote() const final;

    // The bound port after start(); 0 before.
    std::uint16_t port() const { return m_port; }
    // The receiver threads (and sockets) serving the port after start(); 0 before.
    std::size_t receivers() const { return m_receivers.size(); }
    // What each receiver has counted (stats() is their sum), e.g. to see how evenly the kernel
    // spreads the senders.
    std::vector<SourceStats> receiverStats() const;
    // The most recent bad line or connection problem with its origin; "" if none.
    std::string lastProblem() const;
    // Every kind of problem seen, with its count and most recent example.
    std::vector<ProblemCount> problems() const;
    // The newest bad lines, each with its sender (bad_lines.h).
    std::vector<BadLine> recentBadLines() const final;

protected:
    SocketListener(ListenerOptions options, WireProtocol protocol, int socketType);

    // Runs on each receiver's thread until `stop` is requested; `wake` becomes readable then.
    virtual void serve(std::stop_token stop, int socket, const WakeFd& wake,
                       LineIngest& ingest) = 0;
    // Called on the bound socket before the worker starts (UDP enlarges its buffer).
    virtual void configure(int /*socket*/) {}

    const ListenerOptions& options() const { return m_options; }
    Timestamp now() const { return m_clock->now(); }

private:
    struct Receiver {
        std::unique_ptr<LineIngest> ingest;  // read by stats() from any thread
        std::jthread worker;                 // joined before the ingest is destroyed
    };

    const ListenerOptions m_options;
    const std::shared_ptr<const Clock> m_clock;
    const WireProtocol m_protocol;
    const int m_socketType;
    std::string m_description;
    std::uint16_t m_port = 0;
    const std::shared_ptr<ProblemLog> m_problems = std::make_shared<ProblemLog>();
    std::atomic<std::size_t> m_running{0};  // receivers whose worker has not ended
    std::vector<Receiver> m_receivers;      // last member: joined before the others go
};

// How many receivers `requested` asks for: itself, or for 0 one per core (at least 1).
std::size_t receiverCount(std::size_t requested);

}  // namespace hitcounter
