#include "core/fleet/fleet_poll.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "core/fleet/redis_info.h"

namespace hitcounter::fleet {

namespace {

double unixNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

std::vector<FleetNode> parseClusterNodes(const std::string& text) {
    std::vector<FleetNode> nodes;
    std::map<std::string, std::string> addressOfId;
    std::vector<std::string> masterIds;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string id, address, flags, master, pingSent, pongReceived, epoch, link;
        if (!(fields >> id >> address >> flags >> master >> pingSent >> pongReceived >> epoch >>
              link))
            continue;
        FleetNode node;
        node.id = id;
        node.address = address.substr(0, address.find_first_of("@,"));
        const auto has = [&](const std::string& flag) {
            return ("," + flags + ",").find("," + flag + ",") != std::string::npos;
        };
        node.role = has("slave") ? "replica" : "master";
        node.state = has("fail") || has("fail?") ? "failing"
                     : has("handshake")          ? "handshake"
                     : has("noaddr")             ? "unreachable"
                                                 : "ok";
        std::string range;
        while (fields >> range) {
            if (range.empty() || range.front() == '[')
                continue;  // a slot being imported or migrated: counted where it lives
            const auto dash = range.find('-');
            try {
                node.slots += dash == std::string::npos ? 1
                                                        : std::stoi(range.substr(dash + 1)) -
                                                              std::stoi(range.substr(0, dash)) + 1;
            } catch (const std::exception&) {
            }
        }
        addressOfId[id] = node.address;
        masterIds.push_back(master);
        nodes.push_back(std::move(node));
    }
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].role == "replica" && addressOfId.count(masterIds[i]))
            nodes[i].masterAddress = addressOfId[masterIds[i]];
    std::sort(nodes.begin(), nodes.end(), [](const FleetNode& a, const FleetNode& b) {
        return a.role != b.role ? a.role == "master" : a.address < b.address;
    });
    return nodes;
}

FleetPoller::FleetPoller(FleetPollOptions options)
    : m_options(std::move(options)), m_selected(m_options.selected) {
    m_thread = std::jthread([this](std::stop_token stop) { loop(stop); });
}

FleetPoller::~FleetPoller() {
    requestStop();
}

std::shared_ptr<const FleetSnapshot> FleetPoller::latest() const {
    std::lock_guard lock(m_mutex);
    return m_latest;
}

void FleetPoller::setSelected(const std::string& item) {
    {
        std::lock_guard lock(m_mutex);
        m_selected = item;
        m_wake = true;
    }
    m_wakeUp.notify_all();
}

void FleetPoller::requestStop() {
    m_thread.request_stop();
}

Timestamp FleetPoller::now() const {
    if (m_options.clock)
        return m_options.clock();
    // Two seconds back: instances flush once a second, so the current second and the one
    // before are still arriving (a window ending at now would drop at its right edge).
    return Timestamp(unixNow()) - 2;
}

void FleetPoller::loop(std::stop_token stop) {
    while (!stop.stop_requested()) {
        pollOnce();
        std::unique_lock lock(m_mutex);
        m_wakeUp.wait_for(lock, stop, m_options.interval, [this] { return m_wake; });
        m_wake = false;
    }
    m_client.reset();
    m_finished = true;
}

void FleetPoller::readNodes(FleetSnapshot& next) {
    if (!m_client->cluster()) {
        FleetNode node;
        node.address = m_client->url().host + ":" + std::to_string(m_client->url().port);
        node.slots = kClusterSlots;
        try {
            const auto info = m_client->pipelineAt(node.address, {{"INFO", "stats"},
                                                                  {"INFO", "memory"},
                                                                  {"INFO", "replication"},
                                                                  {"INFO", "server"}});
            node.commandsPerSecond = infoNumber(info[0].text, "instantaneous_ops_per_sec");
            node.usedMemory = std::uint64_t(infoNumber(info[1].text, "used_memory"));
            node.role = infoField(info[2].text, "role") == "slave" ? "replica" : "master";
            node.state = "ok";
            m_runId = infoField(info[3].text, "run_id");
        } catch (const RedisError& e) {
            node.role = "master";
            node.state = "unreachable";
            next.troubledNodes.push_back(node.address);
        }
        next.nodes = {node};
        return;
    }
    // CLUSTER NODES from any node that answers (the URL's may be the one that is down).
    std::string problem = "no node answers";
    std::vector<std::string> candidates = m_client->knownNodes();
    bool read = false;
    for (const std::string& address : candidates) {
        try {
            next.nodes =
                parseClusterNodes(m_client->pipelineAt(address, {{"CLUSTER", "NODES"}})[0].text);
            read = true;
            break;
        } catch (const RedisError& e) {
            problem = e.what();
        }
    }
    if (!read)
        throw RedisError(RedisError::Kind::Unreachable, problem);
    std::string masterRunIds;  // masters first (parseClusterNodes), so in a stable order
    for (FleetNode& node : next.nodes) {
        if (node.state == "unreachable" || node.address.empty() || node.address.front() == ':') {
            node.state = "unreachable";
            next.troubledNodes.push_back(node.address);
            continue;
        }
        try {
            const auto info = m_client->pipelineAt(
                node.address, {{"INFO", "stats"}, {"INFO", "memory"}, {"INFO", "server"}});
            node.commandsPerSecond = infoNumber(info[0].text, "instantaneous_ops_per_sec");
            node.usedMemory = std::uint64_t(infoNumber(info[1].text, "used_memory"));
            if (node.role == "master") {
                masterRunIds += node.address + "=" + infoField(info[2].text, "run_id") + " ";
            }
        } catch (const RedisError&) {
            node.state = "unreachable";
        }
        if (node.state != "ok")
            next.troubledNodes.push_back(node.address);
    }
    m_runId = masterRunIds;
}

void FleetPoller::pollOnce() {
    const auto started = std::chrono::steady_clock::now();
    auto next = std::make_shared<FleetSnapshot>();
    if (const auto previous = latest()) {
        *next = *previous;  // counts kept if this poll cannot read them
        next->troubledNodes.clear();
        next->problem.clear();
    }
    next->sequence = ++m_sequence;
    next->windowSeconds = m_options.windowSeconds;
    std::string selected;
    {
        std::lock_guard lock(m_mutex);
        selected = m_selected;
    }
    const auto publish = [&] {
        next->polledAt = unixNow();
        next->readMilliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                .count();
        std::lock_guard lock(m_mutex);
        m_latest = next;
    };
    const auto watched = [&] {
        next->outages = m_watch.outages();
        next->loss = m_watch.loss();
    };
    try {
        if (!m_client)
            m_client = std::make_unique<RedisClient>(m_options.url, m_options.timeouts);
    } catch (const std::exception& e) {
        m_client.reset();
        next->connected = false;
        next->dataStale = next->sequence > 1;
        next->problem = e.what();
        next->instancesKnown = false;
        m_watch.unreachable(unixNow());
        watched();
        publish();
        return;
    }
    next->connected = true;
    next->cluster = m_client->cluster();
    std::string nodesProblem;
    m_runId.clear();
    try {
        readNodes(*next);
    } catch (const std::exception& e) {
        nodesProblem = std::string("cluster nodes: ") + e.what();
    }
    // Each part on its own: while one master fails over, the parts whose slots are served
    // stay live; a part that fails keeps its last value and marks the snapshot stale. The
    // fleet total is spread over the top-K shards: it goes on without those of a failed
    // master (stale: their runs' hits are missing until it is back).
    FleetReader reader(*m_client);
    const Timestamp at = now();
    const Timestamp window = m_options.windowSeconds;
    next->dataStale = false;
    bool unreachable = false;
    const auto part = [&](auto&& read) {
        try {
            read();
        } catch (const std::exception& e) {
            if (!next->dataStale)
                next->problem = e.what();
            next->dataStale = true;
            const auto* redis = dynamic_cast<const RedisError*>(&e);
            unreachable = unreachable || (redis && redis->kind() == RedisError::Kind::Unreachable);
        }
    };
    bool totalRead = false;
    part([&] {
        FleetReader::PartialSeries total = reader.fleetSeriesWithout(window, at);
        next->totalWindow = 0;
        for (const Count c : total.series)
            next->totalWindow += c;
        next->total = std::move(total.series);
        next->now = at;
        if (!total.missing.empty()) {
            std::string nodes;
            for (const std::string& node : total.missing)
                nodes += (nodes.empty() ? "" : ", ") + node;
            throw RedisError(RedisError::Kind::Unreachable,
                             "the fleet total misses the top-K shards on " + nodes);
        }
        // Only a whole total is compared with what was read before (FleetWatch: a loss).
        totalRead = true;
    });
    part([&] {
        std::vector<FleetTopRow> top;
        for (const RankedItem& item : reader.top(m_options.topK, window, at))
            top.push_back({item.key, item.count, reader.uniques(item.key, window, at)});
        next->top = std::move(top);
    });
    part([&] {
        const std::string item = !selected.empty()    ? selected
                                 : !next->top.empty() ? next->top.front().key
                                                      : std::string();
        std::vector<Count> series;
        if (!item.empty())
            series = reader.itemSeries(item, window, at);
        next->selectedWindow = 0;
        for (const Count c : series)
            next->selectedWindow += c;
        next->selected = item;
        next->selectedSeries = std::move(series);
        next->selectedNow = at;
    });
    next->instancesKnown = false;
    part([&] {
        next->instances = reader.instances();
        next->instancesKnown = true;
    });
    const bool cluster = m_client->cluster();
    if (unreachable && !cluster) {
        // A single server that stopped answering: an outage; reconnect next time.
        m_client.reset();
        m_watch.unreachable(unixNow());
    } else if (m_watch.reached(unixNow(), m_runId, totalRead ? &next->total : nullptr, next->now)) {
        try {
            m_watch.setLogsLeft(reader.logsReachBack(m_watch.loss()->at));
        } catch (const std::exception&) {
            // Not known: the notice then does not promise a rebuild.
        }
    }
    watched();
    if (next->problem.empty())
        next->problem = nodesProblem;
    publish();
}

}  // namespace hitcounter::fleet
