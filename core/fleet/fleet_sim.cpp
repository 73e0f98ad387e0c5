#include "core/fleet/fleet_sim.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "core/base/saturating.h"
#include "core/fleet/redis_info.h"
#include "core/fleet/redis_sink.h"

namespace hitcounter::fleet {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kTick = 10ms;
// How long the instances get to send their last hits by their own schedule before they are
// stopped (the stop then sends whatever is left).
constexpr auto kSettleTimeout = 60s;

Timestamp unixSecond() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Every "cmdstat_NAME:calls=N,..." line of INFO commandstats, N summed.
std::uint64_t commandCalls(const std::string& info) {
    std::uint64_t calls = 0;
    std::istringstream lines(info);
    for (std::string line; std::getline(lines, line);) {
        const auto at = line.find(":calls=");
        if (line.rfind("cmdstat_", 0) == 0 && at != std::string::npos)
            calls += std::strtoull(line.c_str() + at + 7, nullptr, 10);
    }
    return calls;
}

struct NodeInfo {
    std::uint64_t calls = 0;
    double cpu = 0;
    bool answered = false;
};

std::map<std::string, NodeInfo> nodeInfo(RedisClient& client,
                                         const std::vector<std::string>& nodes) {
    std::map<std::string, NodeInfo> info;
    for (const std::string& address : nodes) {
        try {
            const auto replies =
                client.pipelineAt(address, {{"INFO", "commandstats"}, {"INFO", "cpu"}});
            const std::string& cpu = replies.at(1).text;
            info[address] = {commandCalls(replies.at(0).text),
                             infoNumber(cpu, "used_cpu_sys_main_thread") +
                                 infoNumber(cpu, "used_cpu_user_main_thread"),
                             true};
        } catch (const RedisError&) {
            info[address] = {};
        }
    }
    return info;
}

std::vector<RankedItem> topOf(const std::map<std::string, Count>& counts, std::size_t k) {
    std::vector<RankedItem> ranked;
    for (const auto& [key, count] : counts)
        ranked.push_back({key, count});
    std::sort(ranked.begin(), ranked.end(), [](const RankedItem& a, const RankedItem& b) {
        return a.count != b.count ? a.count > b.count : a.key < b.key;
    });
    ranked.resize(std::min(ranked.size(), k));
    return ranked;
}

// The busiest master's `commands` over the quietest's; 0 when a master has none.
double mastersBalance(const std::vector<NodeLoad>& nodes,
                      std::uint64_t NodeCommandStats::*commands) {
    std::uint64_t busiest = 0, quietest = ~std::uint64_t(0);
    for (const NodeLoad& n : nodes)
        if (n.role == "master") {
            busiest = std::max(busiest, n.commands.*commands);
            quietest = std::min(quietest, n.commands.*commands);
        }
    return quietest > 0 && busiest > 0 ? double(busiest) / double(quietest) : 0;
}

}  // namespace

FleetSimulation::FleetSimulation(FleetSimOptions options) : m_options(std::move(options)) {
    if (m_options.duration < 1s || m_options.duration > kMaxDuration)
        throw std::invalid_argument("the duration must be 1 to " +
                                    std::to_string(kMaxDuration.count()) + " s");
    if (m_options.flushInterval < 50ms || m_options.flushInterval > 60s)
        throw std::invalid_argument("the flush interval must be 0.05 to 60 s");
    if (m_options.hotShards < 0 || m_options.hotShards > 1024)
        throw std::invalid_argument("hot shards must be 0 (off) to 1024");
    if (!(m_options.hotWrites >= 0))
        throw std::invalid_argument("hot writes must be 0 or more per second");
    if (m_options.topK < 1 || m_options.topK > 10000)
        throw std::invalid_argument("the top K must be 1 to 10000");
    if (!isValidInstanceName(m_options.instancePrefix + "-1"))
        throw std::invalid_argument("instance prefix '" + m_options.instancePrefix +
                                    "' does not make valid instance names");
    FleetTraffic check(m_options.traffic);  // throws for bad traffic options
}

FleetSimReport FleetSimulation::run(const std::function<void(const FleetSimProgress&)>& progress,
                                    const std::function<bool()>& stopRequested) {
    FleetSimReport report;
    report.instances = m_options.traffic.instances;
    report.viralKey = m_options.traffic.viralKey;
    RedisClient control(m_options.url);
    report.cluster = control.cluster();
    const std::vector<std::string> masters = control.masters();
    const std::vector<std::string> nodes = control.knownNodes();
    const auto before = nodeInfo(control, nodes);

    FlushTally tally;
    FleetTraffic traffic(m_options.traffic);
    RedisSinkOptions o;
    o.url = m_options.url;
    o.version = "fleet-sim";
    o.flushInterval = m_options.flushInterval;
    o.hotShards = m_options.hotShards;
    o.hotWrites = m_options.hotWrites;
    o.hotCoolFor = m_options.hotCoolFor;
    o.hotPinned = m_options.hotPinned;
    o.hotShare = 0;  // split by the fleet's write rate (and the pins) only
    o.onFlush = [&tally](const FlushReport& r) { tally.add(r); };
    std::vector<std::unique_ptr<RedisSink>> sinks;
    const auto created = Clock::now();
    for (int i = 0; i < report.instances; ++i) {
        // Staggered over one flush interval: every instance keeps its own schedule.
        std::this_thread::sleep_until(created + m_options.flushInterval * i / report.instances);
        o.instance = m_options.instancePrefix + "-" + std::to_string(i + 1);
        sinks.push_back(
            std::make_unique<RedisSink>(o, std::make_unique<RedisClient>(o.url, o.timeouts)));
    }

    std::vector<HitBatch> batches;
    const auto start = Clock::now();
    report.firstSecond = unixSecond();
    report.lastSecond = report.firstSecond;
    const double duration = double(m_options.duration.count());
    double done = 0;
    auto nextProgress = start + 1s;
    while (done < duration && !(stopRequested && stopRequested())) {
        std::this_thread::sleep_for(kTick);
        const double now = std::chrono::duration<double>(Clock::now() - start).count();
        const Timestamp second = unixSecond();
        done = std::min(now, duration);
        traffic.advanceTo(done, second, batches);
        report.lastSecond = second;
        for (std::size_t i = 0; i < sinks.size(); ++i)
            if (!batches[i].empty()) {
                sinks[i]->add(batches[i]);
                batches[i].clear();
            }
        if (progress && Clock::now() >= nextProgress) {
            progress({done, traffic.sent(), tally.flushes()});
            nextProgress += 1s;
        }
    }
    report.wallSeconds = done;
    report.sent = traffic.sent();

    const auto accounted = [&] {
        Count n = 0;
        for (const auto& sink : sinks) {
            const RedisSinkStats s = sink->stats();
            n = saturatingAdd(n, saturatingAdd(s.sentHits, s.droppedHits));
        }
        return n;
    };
    for (const auto settle = Clock::now() + kSettleTimeout;
         accounted() < report.sent && Clock::now() < settle;)
        std::this_thread::sleep_for(20ms);
    {
        std::vector<std::jthread> stopping;
        for (auto& sink : sinks)
            stopping.emplace_back([&sink] { sink->stop(); });
    }
    std::map<std::string, std::uint64_t> sentPerNode;
    for (const auto& sink : sinks) {
        const RedisSinkStats s = sink->stats();
        report.acknowledged = saturatingAdd(report.acknowledged, s.sentHits);
        report.dropped = saturatingAdd(report.dropped, s.droppedHits);
        report.retries += s.retries;
        report.unreplicatedAcks += s.unreplicatedAcks;
        report.moved += s.moved;
        for (const auto& [node, commands] : s.commandsPerNode)
            sentPerNode[node] += commands;
    }
    sinks.clear();
    const auto after = nodeInfo(control, nodes);

    report.tally = tally.summary(report.firstSecond, report.lastSecond);
    for (const std::string& address : nodes) {
        NodeLoad load;
        load.address = address;
        load.role = std::find(masters.begin(), masters.end(), address) != masters.end() ? "master"
                                                                                        : "replica";
        const NodeInfo& b = before.at(address);
        const NodeInfo& a = after.at(address);
        if (a.answered && b.answered) {
            load.calls = a.calls > b.calls ? a.calls - b.calls : 0;
            load.cpuSeconds = std::max(0.0, a.cpu - b.cpu);
        }
        for (const NodeCommandStats& n : report.tally.nodes)
            if (n.node == address)
                load.commands = n;
        load.commands.node = address;
        load.commands.commands = sentPerNode[address];
        report.nodes.push_back(std::move(load));
    }
    report.nodeBalance = mastersBalance(report.nodes, &NodeCommandStats::commands);
    report.settledNodeBalance = mastersBalance(report.nodes, &NodeCommandStats::settledCommands);

    FleetReader reader(control);
    const Timestamp window = report.lastSecond - report.firstSecond + 1;
    const std::vector<std::string>& keys = traffic.keys();
    const std::vector<Count> counts = reader.windowCounts(keys, window, report.lastSecond);
    for (const Count c : counts)
        report.globalCount = saturatingAdd(report.globalCount, c);
    for (const Count c : reader.fleetSeries(window, report.lastSecond))
        report.fleetTotal = saturatingAdd(report.fleetTotal, c);
    report.truthTop = topOf(traffic.sentPerKey(), m_options.topK);
    report.readTop = reader.top(m_options.topK, window, report.lastSecond);
    if (!report.viralKey.empty()) {
        report.viralSent = traffic.viralSent();
        report.viralRead = counts.back();
        report.viralUniques = traffic.viralUniques();
        report.viralUniquesRead = reader.uniques(report.viralKey, window, report.lastSecond);
    }
    return report;
}

}  // namespace hitcounter::fleet
