#include "core/fleet/fleet_reader.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/base/saturating.h"
#include "core/fleet/fleet_keys.h"
#include "core/fleet/flush_commands.h"

namespace hitcounter::fleet {

namespace {

long long toNumber(const std::string& text) {
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        throw RedisError(RedisError::Kind::Protocol, "not a whole number in Redis: '" + text + "'");
    return value;
}

Count nonNegative(long long value) {
    return value < 0 ? 0 : Count(value);
}

const RedisReply& checked(const RedisReply& reply) {
    if (reply.isError())
        throw RedisError(RedisError::Kind::Protocol, "Redis answered an error: " + reply.text);
    return reply;
}

// Sums the fields of an HGETALL reply (field = offset in its bucket) whose position
// base + offset lies in [first, last].
Count sumFields(const RedisReply& hash, Timestamp base, Timestamp first, Timestamp last) {
    Count sum = 0;
    const auto& e = checked(hash).elements;
    for (std::size_t i = 0; i + 1 < e.size(); i += 2) {
        const Timestamp at = base + toNumber(e[i].text);
        if (at >= first && at <= last)
            sum = saturatingAdd(sum, nonNegative(toNumber(e[i + 1].text)));
    }
    return sum;
}

}  // namespace

std::vector<std::vector<ItemTag>> FleetReader::storageNames(const std::vector<std::string>& keys) {
    std::vector<RedisConnection::Command> commands;
    for (const std::string& key : keys)
        commands.push_back({"ZSCORE", hotShardsKey(key), "shards"});
    const auto replies = m_client.pipeline(commands);
    std::vector<std::vector<ItemTag>> names(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k) {
        names[k].push_back(keys[k]);
        const RedisReply& n = checked(replies[k]);
        const long long shards = n.type == RedisReply::Type::Nil ? 0 : std::stoll(n.text);
        for (long long i = 0; i < std::min(shards, 1024LL); ++i)
            names[k].push_back(hotSubItem(keys[k], int(i)));
    }
    return names;
}

std::vector<Count> FleetReader::windowCounts(const std::vector<std::string>& keys,
                                             Timestamp windowSeconds, Timestamp now) {
    const Timestamp first = now - windowSeconds + 1;
    const Timestamp firstMinute = minuteOf(first);
    const Timestamp lastMinute = minuteOf(now);
    const bool exact = windowSeconds <= kExactWindowSeconds;
    const Timestamp from = exact ? firstMinute : hourOfMinute(firstMinute);
    const Timestamp to = exact ? lastMinute : hourOfMinute(lastMinute);
    const auto names = storageNames(keys);
    std::vector<RedisConnection::Command> commands;
    for (const auto& keyNames : names)
        for (const ItemTag& name : keyNames)
            for (Timestamp b = from; b <= to; ++b)
                commands.push_back({"HGETALL", exact ? secondsKey(name, b) : minutesKey(name, b)});
    const auto replies = m_client.pipeline(commands);
    std::vector<Count> counts(keys.size(), 0);
    std::size_t r = 0;
    for (std::size_t k = 0; k < keys.size(); ++k)
        for (std::size_t n = 0; n < names[k].size(); ++n)
            for (Timestamp b = from; b <= to; ++b, ++r)
                counts[k] = saturatingAdd(
                    counts[k], exact ? sumFields(replies[r], b * 60, first, now)
                                     : sumFields(replies[r], b * 60, firstMinute, lastMinute));
    return counts;
}

Count FleetReader::mergedUniques(const std::string& key, const std::vector<ItemTag>& names,
                                 Timestamp windowSeconds, Timestamp now) {
    const Timestamp firstMinute = minuteOf(now - windowSeconds + 1);
    if (names.size() == 1) {
        RedisConnection::Command pfcount{"PFCOUNT"};
        for (Timestamp m = firstMinute; m <= minuteOf(now); ++m)
            pfcount.push_back(uniquesKey(key, m));
        return nonNegative(checked(m_client.pipeline({pfcount}).front()).integer);
    }
    // The sub-items' HyperLogLogs are in other slots: copy them into the item's slot.
    std::vector<RedisConnection::Command> gets;
    for (const ItemTag& name : names)
        for (Timestamp m = firstMinute; m <= minuteOf(now); ++m)
            gets.push_back({"GET", uniquesKey(name, m)});
    const auto blobs = m_client.pipeline(gets);
    const std::string tmp =
        itemPrefix(key) +
        "tmp:" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + ":";
    std::vector<RedisConnection::Command> merge;
    RedisConnection::Command pfcount{"PFCOUNT"}, del{"DEL"};
    for (std::size_t i = 0; i < blobs.size(); ++i)
        if (checked(blobs[i]).type == RedisReply::Type::String) {
            const std::string name = tmp + std::to_string(i);
            merge.push_back({"SET", name, blobs[i].text, "PX", "60000"});
            pfcount.push_back(name);
            del.push_back(name);
        }
    if (pfcount.size() == 1)
        return 0;
    merge.push_back(pfcount);
    merge.push_back(del);
    const auto replies = m_client.pipeline(merge);
    return nonNegative(checked(replies[replies.size() - 2]).integer);
}

ItemAnswer FleetReader::item(const std::string& key, Timestamp windowSeconds, Timestamp now) {
    ItemAnswer answer;
    answer.key = key;
    answer.windowSeconds = windowSeconds;
    answer.exact = windowSeconds <= kExactWindowSeconds;
    const std::vector<ItemTag> names = storageNames({key}).front();
    std::vector<RedisConnection::Command> commands;
    for (const ItemTag& name : names) {
        commands.push_back({"GET", totalKey(name)});
        commands.push_back({"ZRANGE", instancesKey(name), "0", "-1"});
    }
    const auto replies = m_client.pipeline(commands);
    std::set<std::string> sent;
    for (std::size_t i = 0; i < replies.size(); i += 2) {
        const RedisReply& total = checked(replies[i]);
        if (total.type != RedisReply::Type::Nil)
            answer.allTime = saturatingAdd(answer.allTime, nonNegative(toNumber(total.text)));
        for (const RedisReply& name : checked(replies[i + 1]).elements)
            sent.insert(name.text);
    }
    answer.uniques = mergedUniques(key, names, windowSeconds, now);
    std::vector<RedisConnection::Command> alive;
    const std::vector<std::string> candidates(sent.begin(), sent.end());
    for (const std::string& name : candidates)
        alive.push_back({"EXISTS", heartbeatKey(name)});
    const auto exists = m_client.pipeline(alive);
    for (std::size_t i = 0; i < exists.size(); ++i)
        if (checked(exists[i]).integer == 1)
            answer.instances.push_back(candidates[i]);
    answer.window = windowCounts({key}, windowSeconds, now).front();
    return answer;
}

std::vector<RankedItem> FleetReader::top(std::size_t k, Timestamp windowSeconds, Timestamp now) {
    // Per item, an upper bound of its window count: its hits in the whole minutes the window
    // touches, summed over the per-minute top sets of every shard (one ZUNION per shard: the
    // shards live in different slots).
    std::vector<RedisConnection::Command> unions;
    for (const int shard : topShardsToRead()) {
        RedisConnection::Command zunion{"ZUNION", ""};
        for (Timestamp m = minuteOf(now - windowSeconds + 1); m <= minuteOf(now); ++m)
            zunion.push_back(topKey(shard, m));
        zunion[1] = std::to_string(zunion.size() - 2);
        zunion.push_back("WITHSCORES");
        unions.push_back(std::move(zunion));
    }
    std::map<std::string, double> bound;
    for (const RedisReply& merged : m_client.pipeline(unions)) {
        const auto& e = checked(merged).elements;
        for (std::size_t i = 0; i + 1 < e.size(); i += 2)
            bound[e[i].text] += std::stod(e[i + 1].text);
    }
    std::vector<std::pair<double, std::string>> byBound;
    for (auto& [key, score] : bound)
        byBound.emplace_back(score, key);
    std::sort(byBound.begin(), byBound.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    // Read exact counts in rounds, best bounds first, until no item left unread can enter
    // the top k: its bound is below the k-th exact count, or equal with a later key.
    const auto better = [](const RankedItem& a, const RankedItem& b) {
        return a.count != b.count ? a.count > b.count : a.key < b.key;
    };
    const std::size_t round = std::max(4 * k, k + 16);
    std::vector<RankedItem> ranked;
    std::size_t next = 0;
    while (next < byBound.size()) {
        if (ranked.size() >= k) {
            const RankedItem& kth = ranked[k - 1];
            const auto& [score, key] = byBound[next];
            if (score < double(kth.count) || (score == double(kth.count) && key > kth.key))
                break;
        }
        std::vector<std::string> candidates;
        for (; next < byBound.size() && candidates.size() < round; ++next)
            candidates.push_back(byBound[next].second);
        const std::vector<Count> counts = windowCounts(candidates, windowSeconds, now);
        for (std::size_t i = 0; i < candidates.size(); ++i)
            if (counts[i] > 0)
                ranked.push_back({candidates[i], counts[i]});
        std::sort(ranked.begin(), ranked.end(), better);
        ranked.resize(std::min(ranked.size(), k));
    }
    return ranked;
}

std::vector<Count> FleetReader::secondsSeries(
    std::size_t sources, const std::function<std::string(std::size_t, Timestamp)>& hashOf,
    Timestamp windowSeconds, Timestamp now, const std::string& node) {
    if (windowSeconds < 1 || windowSeconds > kExactWindowSeconds)
        throw std::invalid_argument("a series spans 1 to " + std::to_string(kExactWindowSeconds) +
                                    " seconds");
    const Timestamp first = now - windowSeconds + 1;
    std::vector<RedisConnection::Command> commands;
    for (std::size_t n = 0; n < sources; ++n)
        for (Timestamp m = minuteOf(first); m <= minuteOf(now); ++m)
            commands.push_back({"HGETALL", hashOf(n, m)});
    const auto replies =
        node.empty() ? m_client.pipeline(commands) : m_client.pipelineAt(node, commands);
    std::vector<Count> series(std::size_t(windowSeconds), 0);
    std::size_t r = 0;
    for (std::size_t n = 0; n < sources; ++n)
        for (Timestamp m = minuteOf(first); m <= minuteOf(now); ++m, ++r) {
            const auto& e = checked(replies[r]).elements;
            for (std::size_t i = 0; i + 1 < e.size(); i += 2) {
                const Timestamp at = m * 60 + toNumber(e[i].text);
                if (at >= first && at <= now) {
                    Count& slot = series[std::size_t(at - first)];
                    slot = saturatingAdd(slot, nonNegative(toNumber(e[i + 1].text)));
                }
            }
        }
    return series;
}

std::vector<Count> FleetReader::itemSeries(const std::string& key, Timestamp windowSeconds,
                                           Timestamp now) {
    const std::vector<ItemTag> names = storageNames({key}).front();
    return secondsSeries(
        names.size(), [&](std::size_t n, Timestamp m) { return secondsKey(names[n], m); },
        windowSeconds, now);
}

std::vector<Count> FleetReader::fleetSeries(Timestamp windowSeconds, Timestamp now) {
    const std::vector<int> shards = topShardsToRead();
    return secondsSeries(
        shards.size(), [&](std::size_t n, Timestamp m) { return fleetSecondsKey(shards[n], m); },
        windowSeconds, now);
}

FleetReader::PartialSeries FleetReader::fleetSeriesWithout(Timestamp windowSeconds, Timestamp now) {
    // Grouped by master: a master that fails leaves out its shards only.
    std::map<std::string, std::vector<int>> byMaster;
    PartialSeries result{std::vector<Count>(std::size_t(std::max<Timestamp>(windowSeconds, 0)), 0),
                         {}};
    for (const int shard : topShardsToRead()) {
        try {
            byMaster[m_client.masterFor(fleetSecondsKey(shard, minuteOf(now)))].push_back(shard);
        } catch (const RedisError&) {
            result.missing.push_back("shard " + std::to_string(shard));
        }
    }
    if (byMaster.empty())
        throw RedisError(RedisError::Kind::Unreachable,
                         m_client.url().describe() + ": no master serves the top-K shards");
    std::size_t failed = 0;
    for (const auto& [master, shards] : byMaster) {
        try {
            const std::vector<Count> part = secondsSeries(
                shards.size(),
                [&](std::size_t n, Timestamp m) { return fleetSecondsKey(shards[n], m); },
                windowSeconds, now, master);
            for (std::size_t i = 0; i < part.size(); ++i)
                result.series[i] = saturatingAdd(result.series[i], part[i]);
        } catch (const RedisError&) {
            result.missing.push_back(master);
            if (++failed == byMaster.size())
                throw;  // nothing at all could be read
        }
    }
    return result;
}

Count FleetReader::uniques(const std::string& key, Timestamp windowSeconds, Timestamp now) {
    return mergedUniques(key, storageNames({key}).front(), windowSeconds, now);
}

std::vector<InstanceHeartbeat> FleetReader::instances() {
    const std::vector<std::string> keys = m_client.scan(std::string(kHeartbeatPrefix) + "*");
    std::vector<RedisConnection::Command> commands;
    for (const std::string& key : keys)
        commands.push_back({"HGETALL", key});
    const auto replies = m_client.pipeline(commands);
    const auto number = [](const std::map<std::string, std::string>& f, const char* name) {
        const auto it = f.find(name);
        try {
            return it == f.end() ? 0.0 : std::stod(it->second);
        } catch (const std::exception&) {
            return 0.0;
        }
    };
    std::vector<InstanceHeartbeat> alive;
    for (std::size_t i = 0; i < replies.size(); ++i) {
        std::map<std::string, std::string> f;
        const auto& e = checked(replies[i]).elements;
        for (std::size_t j = 0; j + 1 < e.size(); j += 2)
            f[e[j].text] = e[j + 1].text;
        if (f.empty())
            continue;  // expired between SCAN and HGETALL
        InstanceHeartbeat h;
        h.name = f.count("name") ? f["name"]
                                 : keys[i].substr(kHeartbeatPrefix.size(),
                                                  keys[i].size() - kHeartbeatPrefix.size() - 1);
        h.version = f["version"];
        h.run = f["run"];
        h.hitRate = number(f, "hit_rate");
        h.lastFlush = number(f, "last_flush");
        h.lagSeconds = number(f, "lag_seconds");
        h.droppedHits = Count(std::max(0.0, number(f, "dropped_hits")));
        alive.push_back(std::move(h));
    }
    std::sort(
        alive.begin(), alive.end(),
        [](const InstanceHeartbeat& a, const InstanceHeartbeat& b) { return a.name < b.name; });
    return alive;
}

bool FleetReader::logsReachBack(double before) {
    for (const std::string& log : m_client.scan(kLogPattern)) {
        const RedisReply first = m_client.command({"XRANGE", log, "-", "+", "COUNT", "1"});
        if (first.elements.empty() || first.elements[0].elements.empty())
            continue;
        // A stream entry's id is "MILLISECONDS-SEQUENCE", the time Redis appended it.
        const std::string& id = first.elements[0].elements[0].text;
        try {
            if (std::stod(id.substr(0, id.find('-'))) < before * 1000)
                return true;
        } catch (const std::exception&) {
            throw RedisError(RedisError::Kind::Protocol, log + ": malformed entry id " + id);
        }
    }
    return false;
}

RebuildResult FleetReader::rebuild() {
    RebuildResult result;
    const ScriptShas shas = loadScripts(m_client);
    for (const std::string& log : m_client.scan(kLogPattern)) {
        ++result.logs;
        std::string start = "-";
        while (true) {
            const RedisReply page = m_client.command({"XRANGE", log, start, "+", "COUNT", "100"});
            if (page.elements.empty())
                break;
            std::vector<RedisConnection::Command> commands;
            for (const RedisReply& entry : page.elements) {
                if (entry.elements.size() != 2)
                    throw RedisError(RedisError::Kind::Protocol, log + ": malformed entry");
                std::map<std::string, std::string> fields;
                const auto& f = entry.elements[1].elements;
                for (std::size_t i = 0; i + 1 < f.size(); i += 2)
                    fields[f[i].text] = f[i + 1].text;
                FlushIdentity id{fields["instance"], fields["run"],
                                 std::uint64_t(toNumber(fields["seq"])), toNumber(fields["time"])};
                FlushBatch batch;
                HotRoutes routes;
                try {
                    batch = FlushBatch::decode(fields["data"]);
                    routes = decodeRoutes(fields["hot"]);
                } catch (const std::invalid_argument& e) {
                    throw RedisError(RedisError::Kind::Protocol,
                                     log + " entry " + entry.elements[0].text + ": " + e.what());
                }
                auto apply = applyCommands(batch, id, shas, routes);
                // The hot markers (wiped with the counts): N covers the shard used.
                for (const auto& [item, sub] : routes)
                    if (const std::optional<int> shard = subItemShard(sub))
                        apply.push_back({"ZADD", hotShardsKey(item), "GT",
                                         std::to_string(*shard + 1), "shards"});
                commands.insert(commands.end(), std::make_move_iterator(apply.begin()),
                                std::make_move_iterator(apply.end()));
                ++result.entries;
            }
            const auto replies = m_client.pipeline(commands);
            for (std::size_t i = 0; i < replies.size(); ++i)
                if (commands[i].front() == "EVALSHA")
                    ++(checked(replies[i]).integer >= 1 ? result.applied : result.skipped);
                else
                    checked(replies[i]);
            start = "(" + page.elements.back().elements[0].text;
        }
    }
    return result;
}

std::size_t FleetReader::wipeCounts() {
    // One DEL per key: in a cluster the keys live in many slots.
    const std::vector<std::string> keys = m_client.scan(kCountPattern);
    std::vector<RedisConnection::Command> commands;
    for (const std::string& key : keys)
        commands.push_back({"DEL", key});
    for (const RedisReply& reply : m_client.pipeline(commands))
        checked(reply);
    return keys.size();
}

}  // namespace hitcounter::fleet
