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

// What Redis accepts of one argument and one client's unread commands (the smaller), or
// proto-max-bulk-len's default where CONFIG is refused (a managed Redis may rename it).
std::size_t redisAccepts(RedisClient& client) {
    std::size_t accepted = FlushLimits::kRedisDefaultMaxBulk;
    for (const char* name : {"proto-max-bulk-len", "client-query-buffer-limit"}) {
        try {
            const RedisReply reply = client.command({"CONFIG", "GET", name});
            if (reply.elements.size() == 2)
                accepted = std::min<std::size_t>(accepted, std::stoull(reply.elements[1].text));
        } catch (const RedisError& e) {
            if (e.kind() != RedisError::Kind::Protocol)
                throw;
        } catch (const std::exception&) {  // not a number: keep the default
        }
    }
    return accepted;
}

// Error replies a resend can outlive (docs/redis.md): Redis is out of memory, loading,
// busy, a replica, failing over, or refusing the user for now. Codes open the reply, or
// follow a '-' where a script's error quotes the command's.
bool retryable(std::string_view error) {
    static constexpr std::string_view kCodes[] = {
        "OOM",      "LOADING",    "BUSY",    "MASTERDOWN", "READONLY", "CLUSTERDOWN", "TRYAGAIN",
        "NOSCRIPT", "NOREPLICAS", "MISCONF", "NOAUTH",     "NOPERM",   "WRONGPASS"};
    for (const std::string_view code : kCodes) {
        const std::string spaced = std::string(code) + " ";
        if (error.starts_with(spaced) || error.find("-" + spaced) != std::string_view::npos)
            return true;
    }
    return false;
}

}  // namespace

RedisSink::RedisSink(RedisSinkOptions options, std::unique_ptr<RedisClient> client)
    : m_options(std::move(options)),
      m_run(newRunId()),
      m_open(m_options.bufferEntries, m_options.bufferBytes),
      m_client(std::move(client)),
      m_flushBytes(m_options.flushBytes > 0 ? m_options.flushBytes
                                            : flushBytesFor(FlushLimits::kRedisDefaultMaxBulk)) {
    if (!isValidInstanceName(m_options.instance))
        throw std::invalid_argument("instance name '" + m_options.instance +
                                    "' is not valid; expected 1 to 128 of A-Z a-z 0-9 . _ -");
    m_stats.connected = bool(m_client);
    m_stats.flushBytes = m_flushBytes;
    if (m_client && m_client->cluster()) {
        m_client->setWaitReplicas(m_options.replicaWait);
        m_stats.cluster = true;
    }
    m_thread = std::jthread([this](std::stop_token stop) { loop(stop); });
}

RedisSink::~RedisSink() {
    stop();
}

void RedisSink::add(const HitBatch& batch) {
    const auto now = Clock::now();
    const auto wallSecond = static_cast<Timestamp>(unixNow());
    std::lock_guard lock(m_mutex);
    for (const HitEvent& e : batch) {
        if (m_options.acceptedTimes && !m_options.acceptedTimes->accepts(e.time, wallSecond)) {
            m_stats.outOfWindowHits = saturatingAdd(m_stats.outOfWindowHits, e.count);
            continue;
        }
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
        if (draining && m_ioDeadline != drainUntil) {
            // No attempt may outlive the stop's bound, whatever the timeouts.
            m_ioDeadline = drainUntil;
            if (m_client)
                m_client->setDeadline(drainUntil);
        }
        if (!draining && Clock::now() < next)
            continue;
        if (attempt()) {
            attemptSucceeded();
            backoff = m_options.minBackoff;
            // The next part of the same seal goes at once.
            next = m_pending.empty() ? Clock::now() + m_options.flushInterval : Clock::now();
            if (draining) {
                std::lock_guard lock(m_mutex);
                if (!m_inFlight && m_pending.empty() && m_open.empty())
                    break;
            }
        } else {
            attemptFailed();
            next = Clock::now() + backoff;
            backoff = std::min(backoff * 2, m_options.maxBackoff);
            if (draining)
                std::this_thread::sleep_until(std::min(next, drainUntil));
        }
    }
    std::lock_guard lock(m_mutex);
    m_stats.droppedHits =
        saturatingAdd(m_stats.droppedHits, saturatingAdd(m_open.hits(), pendingHits()));
    m_open = FlushBatch(m_options.bufferEntries, m_options.bufferBytes);
    m_inFlight.reset();
    m_pending.clear();
    m_client.reset();  // m_stats.connected keeps the outcome of the last attempt
}

void RedisSink::attemptFailed() {
    if (m_outageSince)
        return;
    m_outageSince = Clock::now();
    OutageNotice notice;
    {
        std::lock_guard lock(m_mutex);
        m_atOutage = m_stats;
        notice.error = m_stats.lastError;
        notice.bufferedHits = saturatingAdd(m_open.hits(), pendingHits());
    }
    if (m_options.onOutage)
        m_options.onOutage(notice);
}

void RedisSink::attemptSucceeded() {
    if (!m_outageSince)
        return;
    OutageNotice notice;
    notice.down = false;
    notice.seconds = std::chrono::duration<double>(Clock::now() - *m_outageSince).count();
    m_outageSince.reset();
    {
        std::lock_guard lock(m_mutex);
        // m_atOutage was taken after the first failed attempt was counted.
        notice.failedAttempts = m_stats.retries - m_atOutage.retries + 1;
        notice.bufferedHits = saturatingAdd(m_stats.sentHits - m_atOutage.sentHits, m_open.hits());
        notice.droppedHits = m_stats.droppedHits - m_atOutage.droppedHits;
    }
    if (m_options.onOutage)
        m_options.onOutage(notice);
}

Count RedisSink::pendingHits() const {
    Count hits = m_inFlight ? m_inFlight->hits() : 0;
    for (const FlushBatch& part : m_pending)
        hits = saturatingAdd(hits, part.hits());
    return hits;
}

bool RedisSink::splitOpen() {
    FlushBatch sealed;
    {
        std::lock_guard lock(m_mutex);
        if (m_open.empty())
            return false;
        std::swap(sealed, m_open);
        m_open = FlushBatch(m_options.bufferEntries, m_options.bufferBytes);
    }
    cut(sealed, m_pending.end());
    return !m_pending.empty();
}

void RedisSink::cut(const FlushBatch& batch, std::deque<FlushBatch>::iterator where) {
    SplitFlush split =
        splitFlush(batch, {m_flushBytes, std::max<std::size_t>(m_options.flushEntries, 1)});
    m_pending.insert(where, std::make_move_iterator(split.parts.begin()),
                     std::make_move_iterator(split.parts.end()));
    if (split.refusedHits > 0 || split.refusedVisitors > 0)
        report({"a second or visitor of item '" + split.refusedExample + "' needs more than the " +
                    std::to_string(m_flushBytes) + " bytes a flush may have",
                split.refusedHits, split.refusedVisitors});
}

void RedisSink::report(const RefusedNotice& notice) {
    {
        std::lock_guard lock(m_mutex);
        ++m_stats.refusedFlushes;
        m_stats.refusedHits = saturatingAdd(m_stats.refusedHits, notice.hits);
        m_stats.lastError = notice.error;
    }
    if (m_options.onRefused)
        m_options.onRefused(notice);
}

bool RedisSink::seal() {
    if (m_inFlight)
        return true;
    if (m_pending.empty() && !splitOpen())
        return false;
    // Parts cut for a Redis that accepted more than the one connected now (never sent yet).
    while (!m_pending.empty() && partBytes(m_pending.front()) > m_flushBytes) {
        const FlushBatch part = std::move(m_pending.front());
        m_pending.pop_front();
        cut(part, m_pending.begin());
    }
    if (m_pending.empty())
        return false;
    m_inFlight.emplace(std::move(m_pending.front()));
    m_pending.pop_front();
    m_id = {m_options.instance, m_run, m_nextSeq++, static_cast<Timestamp>(unixNow())};
    m_hitsSinceHeartbeat = saturatingAdd(m_hitsSinceHeartbeat, m_inFlight->hits());
    planHotItems();
    return true;
}

HotDetection RedisSink::detection() const {
    return {.enabled = m_options.hotShards > 0,
            .writesPerSecond = m_options.hotWrites,
            .shards = m_options.hotShards,
            .coolFor = m_options.hotCoolFor};
}

bool RedisSink::forcedHot(const std::string& item, const ItemFlush& data, Count flushHits) const {
    if (m_options.hotPinned.contains(item))
        return true;
    if (m_options.hotShare <= 0)
        return false;
    Count hits = 0;
    for (const auto& [second, n] : data.seconds)
        hits = saturatingAdd(hits, n);
    return hits >= m_options.hotMinHits && double(hits) >= m_options.hotShare * double(flushHits);
}

RedisSink::HotSplit& RedisSink::split(const std::string& item, int shards) {
    HotSplit& h = m_split[item];
    const unsigned n = unsigned(std::max(shards, 1));
    h.shards = int(n);
    h.subItem = hotSubItem(item, int(crc16(m_run) % n));
    // Per instance and item, so that the fleet's touches spread over the N flushes.
    h.touchPhase = int(crc16(m_run + item) % n);
    h.announced = false;
    m_everSplit.insert(item);
    return h;
}

void RedisSink::planHotItems() {
    m_routes.clear();
    m_touches.clear();
    if (m_options.hotShards <= 0)
        return;
    for (const auto& [item, data] : m_inFlight->items()) {
        const bool forced = forcedHot(item, data, m_inFlight->hits());
        auto found = m_split.find(item);
        HotSplit* h = found == m_split.end() ? nullptr : &found->second;
        if (!h && forced)
            h = &split(item, m_options.hotShards);
        if (!h)
            continue;
        m_routes.emplace(item, h->subItem);
        const bool scheduled =
            h->writes++ % std::uint64_t(h->shards) == std::uint64_t(h->touchPhase);
        if (scheduled || !h->announced)
            m_touches.push_back(
                {item, h->shards, scheduled ? h->shards : 0, forced, !h->announced});
    }
    std::lock_guard lock(m_mutex);
    m_stats.hotItems = m_everSplit.size();
    m_stats.hotItemsNow = m_split.size();
}

void RedisSink::learnHotItems(const std::vector<RedisReply>& replies, std::size_t touchesFrom) {
    if (m_options.hotShards <= 0)
        return;
    // The item scripts come first, in the batch's item order: those written under their own
    // name answer 1 + the split agreed.
    std::size_t i = 0;
    for (const auto& [item, data] : m_inFlight->items()) {
        const RedisReply& reply = replies[i++];
        if (m_routes.contains(item) || reply.type != RedisReply::Type::Integer || reply.integer < 2)
            continue;
        split(item, int(std::min<long long>(reply.integer - 1, 1024)));
    }
    for (std::size_t t = 0; t < m_touches.size(); ++t) {
        const RedisReply& reply = replies[touchesFrom + t];
        const std::string& item = m_touches[t].item;
        auto found = m_split.find(item);
        if (reply.type != RedisReply::Type::Integer || found == m_split.end())
            continue;
        const int agreed = int(std::min<long long>(reply.integer, 1024));
        if (agreed <= 0 && !m_options.hotPinned.contains(item)) {
            m_split.erase(found);
            std::lock_guard lock(m_mutex);
            ++m_stats.hotMerges;
        } else if (agreed > 0 && agreed != found->second.shards) {
            const std::uint64_t writes = found->second.writes;
            split(item, agreed).writes = writes;
        } else {
            found->second.announced = true;
        }
    }
    std::lock_guard lock(m_mutex);
    m_stats.hotItems = m_everSplit.size();
    m_stats.hotItemsNow = m_split.size();
}

bool RedisSink::ensureConnected() {
    try {
        if (!m_client) {
            m_shas = {};
            RedisTimeouts timeouts = m_options.timeouts;
            timeouts.deadline = m_ioDeadline;
            m_client = std::make_unique<RedisClient>(m_options.url, timeouts);
            if (m_client->cluster()) {
                m_client->setWaitReplicas(m_options.replicaWait);
                std::lock_guard lock(m_mutex);
                m_stats.cluster = true;
            }
        }
        // The client reloads registered scripts on every connection it opens: the SHAs stay.
        if (m_shas.item.empty())
            m_shas = loadScripts(*m_client);
        if (m_askLimits && m_options.flushBytes == 0) {
            const std::size_t bytes = flushBytesFor(redisAccepts(*m_client));
            m_flushBytes = bytes;
            std::lock_guard lock(m_mutex);
            m_stats.flushBytes = bytes;
        }
        m_askLimits = false;
        return true;
    } catch (const RedisError& e) {
        if (m_client)
            m_client->disconnect();
        m_askLimits = true;
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
    seal();  // after the connect: parts are cut to what this Redis accepts
    std::vector<RedisConnection::Command> commands;
    std::size_t scripts = 0;
    const HotDetection heat = detection();
    if (m_inFlight) {
        commands = applyCommands(*m_inFlight, m_id, m_shas, m_routes, heat);
        scripts = commands.size();
        for (const HeatTouch& touch : m_touches)
            commands.push_back(heatCommand(touch, heat, m_shas));
        commands.push_back(logCommand(*m_inFlight, m_id, m_options.logMaxLength, m_routes));
    }
    const std::size_t partCommands = commands.size();
    const auto now = Clock::now();
    const double sentAt = unixNow();
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

    const std::map<std::string, std::uint64_t> nodeCommandsBefore =
        m_client->stats().commandsPerNode;
    std::vector<RedisReply> replies;
    std::string problem;
    std::optional<std::string> refusedBy;
    try {
        replies = m_client->pipeline(commands);
        for (std::size_t i = 0; i < replies.size() && problem.empty(); ++i)
            if (replies[i].isError() && (i >= partCommands || retryable(replies[i].text)))
                problem = m_options.url.describe() + ": " + replies[i].text;
        if (problem.empty())
            refusedBy = refusal(replies, partCommands);
    } catch (const RedisError& e) {
        problem = e.what();
    }
    if (problem.empty() && m_inFlight)
        learnHotItems(replies, scripts);  // before the flush counts as acknowledged
    std::unique_lock lock(m_mutex);
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
        m_askLimits = true;
        m_stats.connected = false;
        m_stats.lastError = problem;
        ++m_stats.retries;
        return false;
    }
    m_stats.connected = true;
    m_hitsSinceHeartbeat = 0;
    m_lastHeartbeat = now;
    if (!m_inFlight)
        return true;
    if (refusedBy) {
        lock.unlock();
        refused(replies, *refusedBy);
        m_inFlight.reset();  // never resent: the same commands would be refused again
        return true;
    }
    for (std::size_t i = 0; i < scripts; ++i)
        if (replies[i].type == RedisReply::Type::Integer && replies[i].integer == 0)
            ++m_stats.duplicatesSkipped;
    ++m_stats.flushes;
    m_stats.sentHits = saturatingAdd(m_stats.sentHits, m_inFlight->hits());
    m_stats.lagSeconds =
        std::chrono::duration<double>(Clock::now() - m_inFlight->oldestArrival()).count();
    FlushReport report;
    if (m_options.onFlush) {
        report = {m_options.instance, sentAt, m_stats.lagSeconds, m_inFlight->hits(), {}, {}};
        for (const auto& [node, total] : m_stats.commandsPerNode) {
            const auto earlier = nodeCommandsBefore.find(node);
            const std::uint64_t sent =
                total - (earlier == nodeCommandsBefore.end() ? 0 : earlier->second);
            if (sent > 0)
                report.commandsPerNode.emplace(node, sent);
        }
    }
    lock.unlock();
    if (m_options.onFlush) {
        for (const auto& [item, data] : m_inFlight->items()) {
            const auto route = m_routes.find(item);
            report.writtenTags.push_back(route == m_routes.end() ? ItemTag(item).text()
                                                                 : route->second.text());
        }
        for (const HeatTouch& touch : m_touches)
            report.writtenTags.push_back(ItemTag(touch.item).text());
        report.writtenTags.push_back("top:" + std::to_string(topShardOf(m_run)));
        m_options.onFlush(report);
    }
    m_inFlight.reset();
    return true;
}

std::optional<std::string> RedisSink::refusal(const std::vector<RedisReply>& replies,
                                              std::size_t partCommands) const {
    for (std::size_t i = 0; i < partCommands && i < replies.size(); ++i)
        if (replies[i].isError() && !retryable(replies[i].text))
            return replies[i].text;
    return std::nullopt;
}

void RedisSink::refused(const std::vector<RedisReply>& replies, const std::string& error) {
    // The item scripts come first, in the part's item order; each applies all or nothing.
    Count lost = 0;
    std::size_t i = 0;
    for (const auto& [item, data] : m_inFlight->items())
        if (replies[i++].isError())
            for (const auto& [second, hits] : data.seconds)
                lost = saturatingAdd(lost, hits);
    {
        std::lock_guard lock(m_mutex);
        m_stats.sentHits = saturatingAdd(m_stats.sentHits, m_inFlight->hits() - lost);
    }
    report({m_options.url.describe() + " refused flush " + std::to_string(m_id.seq) + " (" +
                std::to_string(m_inFlight->hits()) + " hits of " +
                std::to_string(m_inFlight->items().size()) + " items): " + error,
            lost, 0});
}

}  // namespace hitcounter::fleet
