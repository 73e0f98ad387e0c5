#include "core/fleet/redis_client.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <set>
#include <thread>

namespace hitcounter::fleet {

namespace {

constexpr int kMaxRedirects = 8;

std::string addressOf(const std::string& host, int port) {
    return host + ":" + std::to_string(port);
}

// "MOVED 3999 127.0.0.1:6381" / "ASK 3999 127.0.0.1:6381" -> the address, else empty.
std::string redirectTarget(const RedisReply& reply, std::string_view kind) {
    if (!reply.isError() || reply.text.compare(0, kind.size(), kind) != 0 ||
        reply.text.size() <= kind.size() || reply.text[kind.size()] != ' ')
        return {};
    const auto space = reply.text.rfind(' ');
    return reply.text.substr(space + 1);
}

bool startsWith(const std::string& text, std::string_view prefix) {
    return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::uint16_t crc16(std::string_view bytes) {
    std::uint16_t crc = 0;
    for (const char c : bytes) {
        crc ^= std::uint16_t(std::uint8_t(c)) << 8;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? std::uint16_t((crc << 1) ^ 0x1021) : std::uint16_t(crc << 1);
    }
    return crc;
}

int keySlot(std::string_view key) {
    const auto open = key.find('{');
    if (open != std::string_view::npos) {
        const auto close = key.find('}', open + 1);
        if (close != std::string_view::npos && close > open + 1)
            key = key.substr(open + 1, close - open - 1);
    }
    return crc16(key) % kClusterSlots;
}

std::string_view routingKey(const RedisConnection::Command& command) {
    if (command.empty())
        return {};
    std::string name = command.front();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return char(std::toupper(c)); });
    static const std::set<std::string> keyless{"PING",   "INFO",   "SCRIPT", "SCAN",     "CLUSTER",
                                               "ASKING", "WAIT",   "DBSIZE", "FLUSHALL", "KEYS",
                                               "AUTH",   "SELECT", "CONFIG"};
    if (keyless.count(name))
        return {};
    if (name == "EVAL" || name == "EVALSHA")
        return command.size() > 3 && command[2] != "0" ? std::string_view(command[3])
                                                       : std::string_view();
    if (name == "ZUNION" || name == "ZINTER" || name == "ZDIFF")
        return command.size() > 2 ? std::string_view(command[2]) : std::string_view();
    return command.size() > 1 ? std::string_view(command[1]) : std::string_view();
}

RedisClient::RedisClient(const RedisUrl& url, RedisTimeouts timeouts)
    : m_url(url), m_timeouts(timeouts) {
    const std::string seed = addressOf(url.host, url.port);
    RedisConnection& first = connection(seed);
    const RedisReply info = first.command({"INFO", "cluster"});
    m_cluster = info.text.find("cluster_enabled:1") != std::string::npos;
    m_known.push_back(seed);
    if (m_cluster) {
        m_slotOwner.assign(kClusterSlots, std::string());
        refresh();
    }
}

RedisClient::~RedisClient() = default;

RedisConnection& RedisClient::connection(const std::string& address) {
    const std::optional<RedisTimeouts> timeouts =
        m_timeouts.within(std::chrono::steady_clock::now());
    if (!timeouts)
        throw RedisError(RedisError::Kind::Unreachable,
                         m_url.describe() + ": no time left before the deadline (the stop's)");
    auto it = m_connections.find(address);
    if (it != m_connections.end() && it->second && !it->second->broken()) {
        it->second->setCommandTimeout(timeouts->command);
        return *it->second;
    }
    if (it != m_connections.end())
        m_connections.erase(it);
    RedisUrl url = m_url;
    const auto colon = address.rfind(':');
    url.host = address.substr(0, colon);
    url.port = std::stoi(address.substr(colon + 1));
    auto opened = std::make_unique<RedisConnection>(url, *timeouts);
    if (m_everConnected[address])
        ++m_stats.reconnects;
    m_everConnected[address] = true;
    for (const std::string& script : m_scripts)
        opened->command({"SCRIPT", "LOAD", script});
    return *m_connections.emplace(address, std::move(opened)).first->second;
}

void RedisClient::dropConnection(const std::string& address) {
    m_connections.erase(address);
    m_stale = true;
}

void RedisClient::disconnect() {
    m_connections.clear();
    m_stale = true;
}

void RedisClient::refresh() {
    std::string problem = "no node known";
    // Ask the nodes known so far, the URL's first time; any that answers has the whole map.
    std::vector<std::string> candidates = m_known;
    for (const std::string& address : candidates) {
        RedisReply slots;
        try {
            slots = connection(address).command({"CLUSTER", "SLOTS"});
        } catch (const RedisError& e) {
            m_connections.erase(address);
            problem = e.what();
            continue;
        }
        ++m_stats.refreshes;
        std::vector<std::string> owner(kClusterSlots);
        std::vector<std::string> masters, replicas;
        for (const RedisReply& range : slots.elements) {
            if (range.elements.size() < 3)
                continue;
            const auto first =
                std::clamp<long long>(range.elements[0].integer, 0, kClusterSlots - 1);
            const auto last =
                std::clamp<long long>(range.elements[1].integer, 0, kClusterSlots - 1);
            for (std::size_t n = 2; n < range.elements.size(); ++n) {
                const RedisReply& node = range.elements[n];
                if (node.elements.size() < 2)
                    continue;
                const std::string host =
                    node.elements[0].text.empty() ? m_url.host : node.elements[0].text;
                const std::string at = addressOf(host, int(node.elements[1].integer));
                (n == 2 ? masters : replicas).push_back(at);
                if (n == 2)
                    for (long long s = first; s <= last; ++s)
                        owner[std::size_t(s)] = at;
            }
        }
        m_slotOwner = std::move(owner);
        std::vector<std::string> known = masters;
        known.insert(known.end(), replicas.begin(), replicas.end());
        for (const std::string& old : m_known)
            if (std::find(known.begin(), known.end(), old) == known.end())
                known.push_back(old);
        m_known = std::move(known);
        m_stale = false;
        return;
    }
    throw RedisError(RedisError::Kind::Unreachable,
                     "no node of the cluster of " + m_url.describe() + " answers: " + problem);
}

std::vector<std::string> RedisClient::masters() {
    if (!m_cluster)
        return {addressOf(m_url.host, m_url.port)};
    if (m_stale)
        refresh();
    std::set<std::string> unique(m_slotOwner.begin(), m_slotOwner.end());
    unique.erase(std::string());
    return {unique.begin(), unique.end()};
}

std::string RedisClient::masterFor(std::string_view key) {
    if (!m_cluster)
        return addressOf(m_url.host, m_url.port);
    if (m_stale)
        refresh();
    const std::string& owner = m_slotOwner[std::size_t(keySlot(key))];
    if (owner.empty())
        throw RedisError(
            RedisError::Kind::Unreachable,
            m_url.describe() + ": no master serves the slot of '" + std::string(key) + "'");
    return owner;
}

std::vector<RedisReply> RedisClient::pipeline(
    const std::vector<RedisConnection::Command>& commands) {
    if (m_cluster)
        return pipelineCluster(commands);
    return pipelineAt(addressOf(m_url.host, m_url.port), commands);
}

std::vector<RedisReply> RedisClient::pipelineAt(
    const std::string& address, const std::vector<RedisConnection::Command>& commands) {
    try {
        auto replies = connection(address).pipeline(commands);
        m_stats.commandsPerNode[address] += commands.size();
        return replies;
    } catch (const RedisError& e) {
        if (e.kind() == RedisError::Kind::Unreachable)
            dropConnection(address);
        throw;
    }
}

std::vector<RedisReply> RedisClient::pipelineCluster(
    const std::vector<RedisConnection::Command>& commands) {
    if (m_stale)
        refresh();
    std::vector<RedisReply> replies(commands.size());
    std::vector<std::string> askTarget(commands.size());
    std::vector<std::size_t> pending(commands.size());
    for (std::size_t i = 0; i < commands.size(); ++i)
        pending[i] = i;
    for (int round = 0; !pending.empty(); ++round) {
        if (round > kMaxRedirects)
            throw RedisError(RedisError::Kind::Unreachable,
                             m_url.describe() + ": still redirected after " +
                                 std::to_string(kMaxRedirects) + " tries (slots moving?)");
        // Group by target node, keeping the commands' order within a node.
        std::map<std::string, std::vector<std::size_t>> byNode;
        for (const std::size_t i : pending) {
            if (!askTarget[i].empty()) {
                byNode[askTarget[i]].push_back(i);
                continue;
            }
            const std::string_view key = routingKey(commands[i]);
            const std::string& owner = m_slotOwner[std::size_t(key.empty() ? 0 : keySlot(key))];
            if (owner.empty()) {
                m_stale = true;
                throw RedisError(
                    RedisError::Kind::Unreachable,
                    m_url.describe() + ": no master serves the slot of '" + std::string(key) + "'");
            }
            byNode[owner].push_back(i);
        }
        std::vector<std::size_t> next;
        bool moved = false, retryLater = false;
        // Build every node's pipeline, then run them at the same time (one thread per extra
        // node): a flush waits for the slowest node, not for the sum of them.
        struct Part {
            std::string address;
            const std::vector<std::size_t>* indices;
            std::vector<RedisConnection::Command> batch;
            std::vector<std::size_t> replyIndex;  // position in `batch` of each reply
            RedisConnection* connection = nullptr;
            std::vector<RedisReply> got;
            std::exception_ptr failure;
        };
        std::vector<Part> parts;
        for (const auto& [address, indices] : byNode) {
            Part part{address, &indices, {}, {}, nullptr, {}, nullptr};
            part.batch.reserve(indices.size() + 1);
            for (const std::size_t i : indices) {
                if (!askTarget[i].empty())
                    part.batch.push_back({"ASKING"});
                part.replyIndex.push_back(part.batch.size());
                part.batch.push_back(commands[i]);
            }
            if (m_waitTimeout.count() > 0)
                part.batch.push_back({"WAIT", "1", std::to_string(m_waitTimeout.count())});
            try {
                part.connection = &connection(address);
            } catch (const RedisError& e) {
                if (e.kind() == RedisError::Kind::Unreachable)
                    dropConnection(address);
                throw;
            }
            parts.push_back(std::move(part));
        }
        const auto run = [](Part& part) {
            try {
                part.got = part.connection->pipeline(part.batch);
            } catch (...) {
                part.failure = std::current_exception();
            }
        };
        {
            std::vector<std::jthread> helpers;
            for (std::size_t p = 1; p < parts.size(); ++p)
                helpers.emplace_back(run, std::ref(parts[p]));
            if (!parts.empty())
                run(parts[0]);
        }  // joined
        std::exception_ptr failure;
        for (Part& part : parts) {
            if (part.failure) {
                dropConnection(part.address);
                if (!failure)
                    failure = part.failure;
                continue;
            }
            m_stats.commandsPerNode[part.address] += part.batch.size();
        }
        if (failure)
            std::rethrow_exception(failure);
        for (Part& part : parts) {
            const std::vector<std::size_t>& indices = *part.indices;
            std::vector<RedisReply>& got = part.got;
            const std::vector<std::size_t>& replyIndex = part.replyIndex;
            if (m_waitTimeout.count() > 0 && got.back().type == RedisReply::Type::Integer &&
                got.back().integer < 1)
                ++m_stats.unreplicatedAcks;
            for (std::size_t n = 0; n < indices.size(); ++n) {
                const std::size_t i = indices[n];
                RedisReply& reply = got[replyIndex[n]];
                if (const std::string to = redirectTarget(reply, "MOVED"); !to.empty()) {
                    ++m_stats.moved;
                    moved = true;
                    const std::string_view key = routingKey(commands[i]);
                    m_slotOwner[std::size_t(key.empty() ? 0 : keySlot(key))] = to;
                    askTarget[i].clear();
                    next.push_back(i);
                } else if (const std::string askTo = redirectTarget(reply, "ASK"); !askTo.empty()) {
                    ++m_stats.ask;
                    askTarget[i] = askTo;
                    next.push_back(i);
                } else if (reply.isError() && startsWith(reply.text, "TRYAGAIN")) {
                    retryLater = true;  // a multi-key command while its slot migrates
                    next.push_back(i);
                } else {
                    if (reply.isError() && startsWith(reply.text, "CLUSTERDOWN"))
                        m_stale = true;
                    replies[i] = std::move(reply);
                }
            }
        }
        if (moved) {
            try {
                refresh();
            } catch (const RedisError&) {
                m_stale = true;  // keep the MOVED targets; the next call tries again
            }
        }
        if (retryLater)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        pending = std::move(next);
    }
    return replies;
}

RedisReply RedisClient::command(const RedisConnection::Command& command) {
    RedisReply reply = std::move(pipeline({command}).front());
    if (reply.isError())
        throw RedisError(RedisError::Kind::Protocol,
                         m_url.describe() + ": " + command.front() + " failed: " + reply.text);
    return reply;
}

std::vector<std::string> RedisClient::scan(std::string_view pattern) {
    std::set<std::string> keys;
    for (const std::string& address : masters()) {
        std::string cursor = "0";
        do {
            RedisReply reply;
            try {
                reply = connection(address).command(
                    {"SCAN", cursor, "MATCH", std::string(pattern), "COUNT", "1000"});
            } catch (const RedisError& e) {
                if (e.kind() == RedisError::Kind::Unreachable)
                    dropConnection(address);
                throw;
            }
            ++m_stats.commandsPerNode[address];
            if (reply.elements.size() != 2)
                throw RedisError(RedisError::Kind::Protocol, "SCAN answered an unexpected reply");
            cursor = reply.elements[0].text;
            for (const RedisReply& key : reply.elements[1].elements)
                keys.insert(key.text);
        } while (cursor != "0");
    }
    return {keys.begin(), keys.end()};
}

std::string RedisClient::loadScript(const std::string& script) {
    if (std::find(m_scripts.begin(), m_scripts.end(), script) == m_scripts.end())
        m_scripts.push_back(script);
    std::string sha;
    const std::vector<std::string> targets =
        m_connections.empty() ? masters() : std::vector<std::string>();
    for (const std::string& address : targets)
        connection(address);  // loads every registered script
    for (auto& [address, c] : m_connections) {
        try {
            sha = c->command({"SCRIPT", "LOAD", script}).text;
        } catch (const RedisError& e) {
            if (e.kind() != RedisError::Kind::Unreachable)
                throw;
        }
    }
    if (sha.empty())
        throw RedisError(RedisError::Kind::Unreachable,
                         m_url.describe() + ": no node to load a script on");
    return sha;
}

}  // namespace hitcounter::fleet
