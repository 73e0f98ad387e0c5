// statsd over UDP side by side (issue 29): one paced sender, one loopback, the same datagrams,
// and in turn
//   empty      N threads doing nothing but recvmmsg() on N SO_REUSEPORT sockets: the limit,
//              what the kernel hands over on this machine with the sender on the same cores;
//   hc-1       hitcounter's UdpStatsdListener with 1 receiver thread, and a consumer adding
//              every event to KeyTotals as `hitcounter-cli listen` does;
//   hc-N       the same with N receiver threads (N = the cores);
//   statsd     an etsy statsd already running (--statsd PORT:MGMT_PORT:PID), read through its
//              management console (statsd.metrics_received) and /proc/PID/stat.
// The sender is this program run again as a separate process (`send`), so that every
// receiver's CPU is its own: 8 connected sockets (8 source ports, so SO_REUSEPORT can spread
// them), sendmmsg() of up to 64 datagrams, paced every millisecond to RATE lines/s for the
// duration, datagrams of L lines "page.K:1|c" (K uniform over 1000 keys).
// Per configuration the runs are interleaved (empty, hc-1, hc-N, statsd, empty, ...) and the
// medians of the runs printed as a markdown table, with the load average before and after.
//
// Run: scripts/bench-udp.sh (starts etsy statsd from $STATSD_DIR), or by hand:
//   bench_udp_receivers [--runs 5] [--seconds 2] [--rates 200000,400000,...]
//                       [--lines 20,1] [--statsd PORT:MGMT_PORT:PID]
//   bench_udp_receivers send PORT RATE LINES SECONDS   (the sender; prints its counts)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/net/key_totals.h"
#include "core/net/udp_listener.h"

extern char** environ;

using namespace hitcounter;
using namespace std::chrono_literals;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kSenderSockets = 8;
constexpr std::size_t kPerCall = 64;
constexpr std::size_t kKeys = 1000;

double seconds(SteadyClock::duration d) {
    return std::chrono::duration<double>(d).count();
}

double processCpuSeconds() {
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// utime + stime of another process, from /proc/PID/stat (clock ticks).
double otherProcessCpuSeconds(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos) {
        return 0;
    }
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i) {
        if (i == 14 || i == 15) {
            ticks += std::stod(field);
        }
    }
    return ticks / double(::sysconf(_SC_CLK_TCK));
}

std::string loadAverage() {
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

sockaddr_in loopback(std::uint16_t port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

// --- the sender (its own process) ---------------------------------------------------------

std::vector<std::string> datagramPool(int linesPer) {
    std::mt19937_64 random(linesPer);
    std::vector<std::string> pool(4096);
    for (std::string& d : pool) {
        for (int i = 0; i < linesPer; ++i) {
            d += (i ? "\npage." : "page.") + std::to_string(random() % kKeys) + ":1|c";
        }
    }
    return pool;
}

int runSender(std::uint16_t port, double rate, int linesPer, double duration) {
    ::prctl(PR_SET_TIMERSLACK, 1UL);
    const auto pool = datagramPool(linesPer);
    std::vector<int> sockets;
    const sockaddr_in to = loopback(port);
    for (std::size_t i = 0; i < kSenderSockets; ++i) {
        const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        ::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to);
        sockets.push_back(fd);
    }
    std::array<mmsghdr, kPerCall> messages{};
    std::array<iovec, kPerCall> iov{};
    const double datagramsPerSecond = rate / linesPer;
    std::uint64_t sent = 0;
    std::size_t turn = 0;
    const auto start = SteadyClock::now();
    for (;;) {
        const double elapsed = seconds(SteadyClock::now() - start);
        if (elapsed >= duration) {
            break;
        }
        const auto due = static_cast<std::uint64_t>(elapsed * datagramsPerSecond);
        while (sent < due) {
            const std::size_t n = std::min<std::uint64_t>(kPerCall, due - sent);
            for (std::size_t k = 0; k < n; ++k) {
                const std::string& d = pool[(sent + k) % pool.size()];
                iov[k] = {const_cast<char*>(d.data()), d.size()};
                messages[k].msg_hdr = {};
                messages[k].msg_hdr.msg_iov = &iov[k];
                messages[k].msg_hdr.msg_iovlen = 1;
            }
            const int r = ::sendmmsg(sockets[turn++ % sockets.size()], messages.data(),
                                     static_cast<unsigned>(n), 0);
            if (r > 0) {
                sent += static_cast<std::uint64_t>(r);
            }
            if (seconds(SteadyClock::now() - start) >= duration) {
                break;
            }
        }
        // Until the next datagram is due (at least the next millisecond tick).
        const double next = std::max(double(sent + 1) / datagramsPerSecond, elapsed + 1e-3);
        std::this_thread::sleep_until(start + std::chrono::duration_cast<SteadyClock::duration>(
                                                  std::chrono::duration<double>(next)));
    }
    const double wall = seconds(SteadyClock::now() - start);
    std::printf("%llu %.6f %.6f\n", static_cast<unsigned long long>(sent), wall,
                processCpuSeconds());
    return 0;
}

struct Sent {
    std::uint64_t lines = 0;
    double seconds = 0;
    double cpuSeconds = 0;
};

// Runs the sender process and waits for it.
Sent send(std::uint16_t port, double rate, int linesPer, double duration) {
    int out[2];
    if (::pipe(out) != 0) {
        return {};
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    const std::string portText = std::to_string(port), rateText = std::to_string(rate),
                      linesText = std::to_string(linesPer), durationText = std::to_string(duration);
    std::vector<char*> argv{const_cast<char*>("/proc/self/exe"),
                            const_cast<char*>("send"),
                            const_cast<char*>(portText.c_str()),
                            const_cast<char*>(rateText.c_str()),
                            const_cast<char*>(linesText.c_str()),
                            const_cast<char*>(durationText.c_str()),
                            nullptr};
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    Sent result;
    if (rc == 0) {
        std::string text;
        char buffer[256];
        for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) > 0;) {
            text.append(buffer, static_cast<std::size_t>(n));
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        unsigned long long datagrams = 0;
        if (std::sscanf(text.c_str(), "%llu %lf %lf", &datagrams, &result.seconds,
                        &result.cpuSeconds) == 3) {
            result.lines = datagrams * static_cast<std::uint64_t>(linesPer);
        }
    }
    ::close(out[0]);
    return result;
}

// --- the receivers ------------------------------------------------------------------------

class Receiver {
public:
    virtual ~Receiver() = default;
    virtual std::uint16_t port() const = 0;
    virtual std::uint64_t lines() const = 0;  // received so far
    virtual double cpuSeconds() const { return processCpuSeconds(); }
    // The CPU time to count after settle().
    virtual double settledCpuSeconds() const { return cpuSeconds(); }
    // Waits until `expected` lines arrived or nothing moved for 300 ms (at most 5 s).
    virtual std::uint64_t settle(std::uint64_t expected) const {
        std::uint64_t last = lines();
        auto quietSince = SteadyClock::now();
        const auto deadline = quietSince + 5s;
        while (last < expected && SteadyClock::now() - quietSince < 300ms &&
               SteadyClock::now() < deadline) {
            std::this_thread::sleep_for(5ms);
            if (const std::uint64_t now = lines(); now != last) {
                last = now;
                quietSince = SteadyClock::now();
            }
        }
        return last;
    }
};

// recvmmsg() and nothing else, on `threads` SO_REUSEPORT sockets.
class EmptyReceiver final : public Receiver {
public:
    EmptyReceiver(std::size_t threads, int linesPer) : m_linesPer(linesPer) {
        auto sockets = bindSocketGroup(SOCK_DGRAM, Endpoint{"127.0.0.1", 0}, "empty udp", threads);
        m_port = localPort(sockets.front().get());
        for (UniqueFd& socket : sockets) {
            const int wanted = 8 * 1024 * 1024;
            if (::setsockopt(socket.get(), SOL_SOCKET, SO_RCVBUFFORCE, &wanted, sizeof wanted)) {
                ::setsockopt(socket.get(), SOL_SOCKET, SO_RCVBUF, &wanted, sizeof wanted);
            }
            m_threads.emplace_back([this, fd = std::move(socket)](std::stop_token stop) {
                std::vector<char> data(kPerCall * 65536);
                std::array<iovec, kPerCall> iov{};
                std::array<mmsghdr, kPerCall> messages{};
                while (!stop.stop_requested()) {
                    pollfd p{fd.get(), POLLIN, 0};
                    if (::poll(&p, 1, 20) <= 0) {
                        continue;
                    }
                    for (std::size_t i = 0; i < kPerCall; ++i) {
                        iov[i] = {data.data() + i * 65536, 65536};
                        messages[i].msg_hdr = {};
                        messages[i].msg_hdr.msg_iov = &iov[i];
                        messages[i].msg_hdr.msg_iovlen = 1;
                    }
                    const int n =
                        ::recvmmsg(fd.get(), messages.data(), kPerCall, MSG_DONTWAIT, nullptr);
                    if (n > 0) {
                        m_datagrams.fetch_add(static_cast<std::uint64_t>(n));
                    }
                }
            });
        }
    }
    std::uint16_t port() const override { return m_port; }
    std::uint64_t lines() const override { return m_datagrams.load() * std::uint64_t(m_linesPer); }

private:
    int m_linesPer;
    std::uint16_t m_port = 0;
    std::atomic<std::uint64_t> m_datagrams{0};
    std::vector<std::jthread> m_threads;  // last: stopped and joined first
};

// hitcounter's listener and a consumer doing what `hitcounter-cli listen` does per event.
class HitcounterReceiver final : public Receiver {
public:
    explicit HitcounterReceiver(std::size_t receivers)
        : m_queue(4096, std::size_t{64} << 20), m_listener(options(receivers)) {
        m_listener.start(m_queue);
        m_consumer = std::jthread([this](std::stop_token stop) {
            KeyTotals keys(std::size_t{64} << 20);
            while (!stop.stop_requested()) {
                if (auto batch = m_queue.popFor(10ms)) {
                    for (const HitEvent& e : *batch) {
                        keys.add(e.key, e.count);
                    }
                }
            }
        });
    }
    ~HitcounterReceiver() override {
        m_listener.stop();
        m_consumer.request_stop();
    }
    std::uint16_t port() const override { return m_listener.port(); }
    std::uint64_t lines() const override { return m_listener.stats().lines; }

private:
    static ListenerOptions options(std::size_t receivers) {
        ListenerOptions o;
        o.address = "127.0.0.1:0";
        o.receivers = receivers;
        return o;
    }
    BatchQueue m_queue;
    UdpStatsdListener m_listener;
    std::jthread m_consumer;
};

// An etsy statsd running elsewhere: its metrics_received counter and its CPU.
class StatsdReceiver final : public Receiver {
public:
    StatsdReceiver(std::uint16_t port, std::uint16_t mgmtPort, int pid)
        : m_port(port), m_mgmtPort(mgmtPort), m_pid(pid), m_start(metricsReceived()) {}
    std::uint16_t port() const override { return m_port; }
    std::uint64_t lines() const override { return metricsReceived() - m_start; }
    double cpuSeconds() const override { return otherProcessCpuSeconds(m_pid); }
    // Asking statsd costs it a dump of every counter, so it is asked once, when its CPU time
    // has stopped growing (it has worked through what reached its socket), up to 30 s.
    std::uint64_t settle(std::uint64_t) const override {
        double last = cpuSeconds();
        const auto deadline = SteadyClock::now() + 30s;
        int quiet = 0;
        while (quiet < 3 && SteadyClock::now() < deadline) {
            std::this_thread::sleep_for(100ms);
            const double now = cpuSeconds();
            quiet = now - last < 0.005 ? quiet + 1 : 0;
            last = now;
        }
        m_cpuAtSettle = last;
        return lines();
    }
    // Its CPU up to the moment it went idle, not the counter dump asked of it after.
    double settledCpuSeconds() const override { return m_cpuAtSettle; }

private:
    std::uint64_t metricsReceived() const {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const sockaddr_in to = loopback(m_mgmtPort);
        std::string text;
        if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0) {
            ::send(fd, "counters\n", 9, MSG_NOSIGNAL);
            char buffer[65536];
            const auto deadline = SteadyClock::now() + 10s;
            while (text.find("END") == std::string::npos && SteadyClock::now() < deadline) {
                pollfd p{fd, POLLIN, 0};
                if (::poll(&p, 1, 100) <= 0) {
                    continue;
                }
                const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
                if (n <= 0) {
                    break;
                }
                text.append(buffer, static_cast<std::size_t>(n));
            }
        }
        ::close(fd);
        const std::string field = "'statsd.metrics_received': ";
        const auto at = text.find(field);
        return at == std::string::npos ? 0 : std::stoull(text.substr(at + field.size()));
    }

    std::uint16_t m_port, m_mgmtPort;
    int m_pid;
    std::uint64_t m_start;
    mutable double m_cpuAtSettle = 0;
};

// --- one measurement ----------------------------------------------------------------------

struct Measured {
    double sentPerSecond = 0;      // lines/s the sender achieved
    double receivedPerSecond = 0;  // lines received per second of sending (wall)
    double lossPercent = 0;
    double cpuNsPerLine = 0;  // receiver CPU per line received
    double cpuCores = 0;      // receiver CPU seconds per second of sending
    double senderCores = 0;
};

Measured measure(Receiver& r, double rate, int linesPer, double duration) {
    const std::uint64_t before = r.lines();
    const double cpuBefore = r.cpuSeconds();
    const Sent sent = send(r.port(), rate, linesPer, duration);
    const std::uint64_t received = r.settle(before + sent.lines) - before;
    const double cpu = r.settledCpuSeconds() - cpuBefore;
    Measured m;
    m.sentPerSecond = double(sent.lines) / sent.seconds;
    m.receivedPerSecond = double(received) / sent.seconds;
    m.lossPercent = sent.lines ? 100.0 * (1.0 - double(received) / double(sent.lines)) : 0;
    m.cpuNsPerLine = received ? cpu * 1e9 / double(received) : 0;
    m.cpuCores = cpu / sent.seconds;
    m.senderCores = sent.cpuSeconds / sent.seconds;
    return m;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty()      ? 0
           : v.size() % 2 ? v[v.size() / 2]
                          : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

std::vector<double> numbers(const std::string& list) {
    std::vector<double> out;
    std::istringstream in(list);
    for (std::string item; std::getline(in, item, ',');) {
        out.push_back(std::stod(item));
    }
    return out;
}

std::string millions(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f M", v / 1e6);
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 6 && std::string(argv[1]) == "send") {
        return runSender(static_cast<std::uint16_t>(std::stoi(argv[2])), std::stod(argv[3]),
                         std::stoi(argv[4]), std::stod(argv[5]));
    }
    int runs = 5;
    double duration = 2;
    std::vector<double> rates{2e5, 4e5, 8e5, 1.6e6, 3.2e6, 6.4e6};
    std::vector<double> linesPer{20, 1};
    std::optional<std::array<int, 3>> statsd;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i], value = argv[i + 1];
        if (option == "--runs") {
            runs = std::stoi(value);
        } else if (option == "--seconds") {
            duration = std::stod(value);
        } else if (option == "--rates") {
            rates = numbers(value);
        } else if (option == "--lines") {
            linesPer = numbers(value);
        } else if (option == "--statsd") {
            std::array<int, 3> p{};
            if (std::sscanf(value.c_str(), "%d:%d:%d", &p[0], &p[1], &p[2]) != 3) {
                std::fprintf(stderr, "--statsd: expected PORT:MGMT_PORT:PID, got '%s'\n",
                             value.c_str());
                return 2;
            }
            statsd = p;
        } else {
            std::fprintf(stderr, "unknown option '%s'\n", option.c_str());
            return 2;
        }
    }
    const std::size_t cores = receiverCount(0);
    std::vector<std::string> names{"empty (" + std::to_string(cores) + " threads)", "hc-1",
                                   "hc-" + std::to_string(cores)};
    if (statsd) {
        names.push_back("etsy statsd");
    }
    std::printf("load average before: %s; %d runs of %.1f s per cell, medians\n\n",
                loadAverage().c_str(), runs, duration);
    for (const double lines : linesPer) {
        const int l = static_cast<int>(lines);
        std::printf("### %d line%s per datagram\n\n", l, l == 1 ? "" : "s");
        std::printf(
            "| paced lines/s | receiver | sent lines/s | received lines/s (wall) | "
            "loss | receiver CPU ns/line | receiver CPU (cores) | lines per CPU-s |\n");
        std::printf("|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (const double rate : rates) {
            std::map<std::size_t, std::vector<Measured>> results;
            for (int run = 0; run < runs; ++run) {
                for (std::size_t k = 0; k < names.size(); ++k) {
                    std::unique_ptr<Receiver> r;
                    if (k == 0) {
                        r = std::make_unique<EmptyReceiver>(cores, l);
                    } else if (k == 1) {
                        r = std::make_unique<HitcounterReceiver>(1);
                    } else if (k == 2) {
                        r = std::make_unique<HitcounterReceiver>(cores);
                    } else {
                        r = std::make_unique<StatsdReceiver>(
                            static_cast<std::uint16_t>((*statsd)[0]),
                            static_cast<std::uint16_t>((*statsd)[1]), (*statsd)[2]);
                    }
                    results[k].push_back(measure(*r, rate, l, duration));
                }
            }
            for (std::size_t k = 0; k < names.size(); ++k) {
                const auto pick = [&](double Measured::*field) {
                    std::vector<double> v;
                    for (const Measured& m : results[k]) {
                        v.push_back(m.*field);
                    }
                    return median(v);
                };
                const double cpuNs = pick(&Measured::cpuNsPerLine);
                std::printf("| %s | %s | %s | %s | %.1f %% | %.0f | %.2f | %s |\n",
                            millions(rate).c_str(), names[k].c_str(),
                            millions(pick(&Measured::sentPerSecond)).c_str(),
                            millions(pick(&Measured::receivedPerSecond)).c_str(),
                            pick(&Measured::lossPercent), cpuNs, pick(&Measured::cpuCores),
                            cpuNs > 0 ? millions(1e9 / cpuNs).c_str() : "-");
            }
            std::fflush(stdout);
        }
        std::printf("\n");
    }
    std::printf("load average after: %s\n", loadAverage().c_str());
    return 0;
}
