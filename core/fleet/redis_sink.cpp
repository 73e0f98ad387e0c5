#include "core/fleet/redis_sink.h"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "core/base/saturating.h"
#include "core/fleet/fleet_keys.h"

namespace hitcounter::fleet {

namespace {

std::string newRunId() {
    std::random_device device;
    std::mt19937_64 random(
        (std::uint64_t(device()) << 32) ^ device() ^
        std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(random()));
    return text;
}

double unixNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

RedisSink::RedisSink(RedisSinkOptions options, std::unique_ptr<RedisClient> client)
    : m_options(std::move(options)),
      m_run(newRunId()),
      m_open(m_options.bufferEntries),
      m_client(std::move(client)) {
    if (!isValidInstanceName(m_options.instance))
        throw std::invalid_argument("instance name '" + m_options.instance +
                                    "' is not valid; expected 1 to 128 of A-Z a-z 0-9 . _ -");
    m_stats.connected = bool(m_client);
    if (m_client && m_client->cluster()) {
        m_client->setWaitReplicas(m_options.replicaWait);
        m_stats.cluster = true;
    }
    if (m_options.hotShards > 0)
        m_shard = int(crc16(m_run) % unsigned(m_options.hotShards));
    m_thread = std::jthread([this](std::stop_token stop) { loop(stop); });
}

RedisSink::~RedisSink() {
    stop();
}

void RedisSink::add(const HitBatch& batch) {
    const auto now = Clock::now();
    std::lock_guard lock(m_mutex);
    for (const HitEvent& e : batch) {
        const Count refused = m_closed ? e.count : m_open.add(e, now);
        m_stats.droppedHits = saturatingAdd(m_stats.droppedHits, refused);
    }
}

void RedisSink::stop(std::chrono::milliseconds drainTimeout) {
    if (!m_thread.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_drainUntil = Clock::now() + drainTimeout;
    }
    m_thread.request_stop();
    m_thread.join();
}

RedisSinkStats RedisSink::stats() const {
    std::lock_guard lock(m_mutex);
    return m_stats;
}

void RedisSink::loop(std::stop_token stop) {
    auto backoff = m_options.minBackoff;
    auto next = Clock::now() + m_options.flushInterval;
    while (true) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait_until(lock, stop, next, [] { return false; });
        }
        const bool draining = stop.stop_requested();
        Clock::time_point drainUntil;
        {
            std::lock_guard lock(m_mutex);
            drainUntil = m_drainUntil;
        }
        if (draining && Clock::now() >= drainUntil)
            break;
        if (!draining && Clock::now() < next)
            continue;
        seal();
        if (attempt()) {
            backoff = m_options.minBackoff;
            next = Clock::now() + m_options.flushInterval;
            if (draining) {
                std::lock_guard lock(m_mutex);
                if (!m_inFlight && m_open.empty())
                    break;
            }
        } else {
            next = Clock::now() + backoff;
            backoff = std::min(backoff * 2, m_options.maxBackoff);
            if (draining)
                std::this_thread::sleep_until(std::min(next, drainUntil));
        }
    }
    std::lock_guard lock(m_mutex);
    Count unsent = m_open.hits();
    if (m_inFlight)
        unsent = saturatingAdd(unsent, m_inFlight->hits());
    m_stats.droppedHits = saturatingAdd(m_stats.droppedHits, unsent);
    m_open = FlushBatch(m_options.bufferEntries);
    m_inFlight.reset();
    m_client.reset();  // m_stats.connected keeps the outcome of the last attempt
}

bool RedisSink::seal() {
    if (m_inFlight)
        return true;
    std::lock_guard lock(m_mutex);
    if (m_open.empty())
        return false;
    m_inFlight.emplace(m_options.bufferEntries);
    std::swap(*m_inFlight, m_open);
    m_id = {m_options.instance, m_run, m_nextSeq++, static_cast<Timestamp>(unixNow())};
    m_hitsSinceHeartbeat = saturatingAdd(m_hitsSinceHeartbeat, m_inFlight->hits());
    m_routes.clear();
    for (const auto& [item, data] : m_inFlight->items()) {
        auto hot = m_hot.find(item);
        if (hot == m_hot.end() && m_options.hotShards > 0) {
            Count hits = 0;
            for (const auto& [second, n] : data.seconds)
                hits = saturatingAdd(hits, n);
            if (hits >= m_options.hotMinHits &&
                double(hits) >= m_options.hotShare * double(m_inFlight->hits())) {
                hot = m_hot.emplace(item, hotSubItem(item, m_shard)).first;
                m_unannounced.insert(item);
                m_stats.hotItems = m_hot.size();
            }
        }
        if (hot != m_hot.end())
            m_routes.emplace(item, hot->second);
    }
    return true;
}

bool RedisSink::ensureConnected() {
    try {
        if (!m_client) {
            m_shas = {};
            m_client = std::make_unique<RedisClient>(m_options.url, m_options.timeouts);
            if (m_client->cluster()) {
                m_client->setWaitReplicas(m_options.replicaWait);
                std::lock_guard lock(m_mutex);
                m_stats.cluster = true;
            }
        }
        // The client reloads registered scripts on every connection it opens: the SHAs stay.
        if (m_shas.item.empty())
            m_shas = loadScripts(*m_client);
        return true;
    } catch (const RedisError& e) {
        if (m_client)
            m_client->disconnect();
        std::lock_guard lock(m_mutex);
        m_stats.connected = false;
        m_stats.lastError = e.what();
        ++m_stats.retries;
        return false;
    }
}

bool RedisSink::attempt() {
    if (!ensureConnected())
        return false;
    std::vector<RedisConnection::Command> commands;
    std::size_t scripts = 0;
    if (m_inFlight) {
        commands = applyCommands(*m_inFlight, m_id, m_shas, m_routes);
        scripts = commands.size();
        commands.push_back(logCommand(*m_inFlight, m_id, m_options.logMaxLength, m_routes));
    }
    const std::set<std::string> announcing = m_unannounced;
    for (const std::string& item : announcing)
        commands.push_back(
            {"ZADD", hotShardsKey(item), "GT", std::to_string(m_options.hotShards), "shards"});
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - m_lastHeartbeat).count();
    const auto ttl =
        m_options.heartbeatTtl.count() > 0
            ? m_options.heartbeatTtl
            : std::max(std::chrono::seconds(5),
                       std::chrono::ceil<std::chrono::seconds>(3 * m_options.flushInterval));
    RedisSinkStats before = stats();
    const std::string key = heartbeatKey(m_options.instance);
    commands.push_back(
        {"HSET", key, "name", m_options.instance, "version", m_options.version, "run", m_run,
         "hit_rate", std::to_string(elapsed > 0 ? double(m_hitsSinceHeartbeat) / elapsed : 0),
         "last_flush", std::to_string(unixNow()), "lag_seconds", std::to_string(before.lagSeconds),
         "dropped_hits", std::to_string(before.droppedHits)});
    commands.push_back({"EXPIRE", key, std::to_string(ttl.count())});

    std::vector<RedisReply> replies;
    std::string problem;
    try {
        replies = m_client->pipeline(commands);
        for (const RedisReply& r : replies)
            if (r.isError()) {
                problem = m_options.url.describe() + ": " + r.text;
                break;
            }
    } catch (const RedisError& e) {
        problem = e.what();
    }
    std::lock_guard lock(m_mutex);
    m_stats.commands += commands.size();
    const RedisClientStats& routing = m_client->stats();
    m_stats.moved = routing.moved;
    m_stats.ask = routing.ask;
    m_stats.unreplicatedAcks = routing.unreplicatedAcks;
    m_stats.commandsPerNode = routing.commandsPerNode;
    if (!problem.empty()) {
        // Reconnect (the client reloads the scripts and, in a cluster, refreshes its slot
        // map: a failover's new master) before the resend.
        m_client->disconnect();
        m_stats.connected = false;
        m_stats.lastError = problem;
        ++m_stats.retries;
        return false;
    }
    m_stats.connected = true;
    for (const std::string& item : announcing)
        m_unannounced.erase(item);
    m_hitsSinceHeartbeat = 0;
    m_lastHeartbeat = now;
    if (m_inFlight) {
        for (std::size_t i = 0; i < scripts; ++i)
            if (replies[i].type == RedisReply::Type::Integer && replies[i].integer == 0)
                ++m_stats.duplicatesSkipped;
        ++m_stats.flushes;
        m_stats.sentHits = saturatingAdd(m_stats.sentHits, m_inFlight->hits());
        m_stats.lagSeconds =
            std::chrono::duration<double>(Clock::now() - m_inFlight->oldestArrival()).count();
        m_inFlight.reset();
    }
    return true;
}

}  // namespace hitcounter::fleet
