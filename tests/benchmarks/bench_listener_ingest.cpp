// Listener ingest on loopback (issue 4): a C++ sender using sendmmsg() feeds the statsd UDP
// listener, a consumer thread empties its BatchQueue (as the engine would).
//
//  BM_IngestBatched/L   as fast as the listener takes it: the sender keeps at most 1 MiB in
//                       flight (sent but not yet delivered to the consumer), so the kernel
//                       buffer never overflows; items/s = lines per second delivered. L lines
//                       per datagram, 64 datagrams per sendmmsg().
//  BM_IngestPaced/R/L   the sender paced at R lines/s, L lines per datagram, one sendmmsg()
//                       per millisecond, for 2 s; counter loss = lines not delivered / sent.
//
// Run: build/default/tests/benchmarks/bench_listener_ingest --benchmark_repetitions=5
//      --benchmark_report_aggregates_only=true   (numbers in docs/benchmarks.md)
#include <benchmark/benchmark.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "core/net/udp_listener.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

constexpr int kDatagramsPerCall = 64;

// The listener, its queue and a consumer thread counting delivered hits.
class Receiver {
public:
    Receiver() : m_listener(options()) {
        m_listener.start(m_queue);
        m_consumer = std::jthread([this](std::stop_token stop) {
            while (!stop.stop_requested()) {
                if (auto batch = m_queue.popFor(10ms)) {
                    Count hits = 0;
                    for (const HitEvent& e : *batch) {
                        hits += e.count;
                    }
                    m_delivered.fetch_add(hits, std::memory_order_relaxed);
                }
            }
        });
    }
    ~Receiver() {
        m_listener.stop();
        m_consumer.request_stop();
    }

    std::uint16_t port() const { return m_listener.port(); }
    Count delivered() const { return m_delivered.load(std::memory_order_relaxed); }
    const UdpStatsdListener& listener() const { return m_listener; }

    // Waits until `expected` hits arrived or nothing moved for 200 ms; returns the total.
    Count settle(Count expected) const {
        Count last = delivered();
        auto quietSince = std::chrono::steady_clock::now();
        while (last < expected && std::chrono::steady_clock::now() - quietSince < 200ms) {
            std::this_thread::sleep_for(1ms);
            const Count now = delivered();
            if (now != last) {
                last = now;
                quietSince = std::chrono::steady_clock::now();
            }
        }
        return last;
    }

private:
    static ListenerOptions options() {
        ListenerOptions o;
        o.address = "127.0.0.1:0";
        return o;
    }

    BatchQueue m_queue{4096};
    UdpStatsdListener m_listener;
    std::atomic<Count> m_delivered{0};
    std::jthread m_consumer;
};

// A connected UDP socket and one sendmmsg() worth of datagrams, each `lines` statsd lines
// over 100 keys.
class Sender {
public:
    Sender(std::uint16_t port, int lines) : m_lines(lines) {
        m_fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(port);
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::connect(m_fd, reinterpret_cast<sockaddr*>(&to), sizeof to);
        for (int d = 0; d < kDatagramsPerCall; ++d) {
            for (int l = 0; l < lines; ++l) {
                m_payloads[d] += "page." + std::to_string((d * lines + l) % 100) + ":1|c\n";
            }
            m_iov[d] = {m_payloads[d].data(), m_payloads[d].size()};
            m_messages[d].msg_hdr.msg_iov = &m_iov[d];
            m_messages[d].msg_hdr.msg_iovlen = 1;
        }
    }
    ~Sender() { ::close(m_fd); }

    // Sends `datagrams` (<= 64) datagrams; returns the lines sent.
    Count send(int datagrams) {
        int done = 0;
        while (done < datagrams) {
            const int n = ::sendmmsg(m_fd, m_messages.data() + done, datagrams - done, 0);
            if (n <= 0) {
                break;
            }
            done += n;
        }
        return Count(done) * m_lines;
    }
    std::size_t bytesPerDatagram() const { return m_payloads[0].size(); }

private:
    int m_fd = -1;
    int m_lines;
    std::array<std::string, kDatagramsPerCall> m_payloads;
    std::array<iovec, kDatagramsPerCall> m_iov{};
    std::array<mmsghdr, kDatagramsPerCall> m_messages{};
};

void BM_IngestBatched(benchmark::State& state) {
    const int lines = static_cast<int>(state.range(0));
    Receiver receiver;
    Sender sender(receiver.port(), lines);
    const Count inFlightLimit = Count(1 << 20) / sender.bytesPerDatagram() * lines;
    Count sent = 0;
    for (auto _ : state) {
        while (sent - receiver.delivered() > inFlightLimit) {
            std::this_thread::yield();
        }
        sent += sender.send(kDatagramsPerCall);
    }
    const Count delivered = receiver.settle(sent);
    state.SetItemsProcessed(static_cast<std::int64_t>(delivered));
    state.counters["loss"] = sent == 0 ? 0.0 : double(sent - delivered) / double(sent);
    state.counters["bytes_per_datagram"] = double(sender.bytesPerDatagram());
}
BENCHMARK(BM_IngestBatched)->Arg(1)->Arg(20)->Arg(90)->UseRealTime()->MinTime(2.0);

void BM_IngestPaced(benchmark::State& state) {
    const double rate = double(state.range(0));
    const int lines = static_cast<int>(state.range(1));
    Receiver receiver;
    Sender sender(receiver.port(), lines);
    Count sent = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        double due = 0;  // datagrams due so far
        int tick = 0;
        while (tick < 2000) {
            std::this_thread::sleep_until(start + std::chrono::milliseconds(++tick));
            due += rate / lines / 1000.0;
            while (due >= 1.0) {
                const int now = std::min(kDatagramsPerCall, int(due));
                sent += sender.send(now);
                due -= now;
            }
        }
    }
    const Count delivered = receiver.settle(sent);
    state.SetItemsProcessed(static_cast<std::int64_t>(delivered));
    state.counters["loss"] = sent == 0 ? 0.0 : double(sent - delivered) / double(sent);
    state.counters["kernel_drops"] = double(receiver.listener().kernelDrops());
    state.counters["sent_lines_per_s"] =
        benchmark::Counter(double(sent), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_IngestPaced)
    ->Args({200000, 20})
    ->Args({500000, 20})
    ->Args({200000, 1})
    ->Args({500000, 1})
    ->UseRealTime()
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
