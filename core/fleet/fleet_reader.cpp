#include "core/fleet/fleet_reader.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "core/counters/saturating.h"
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

std::vector<std::string> FleetReader::scan(std::string_view pattern) {
    std::set<std::string> keys;
    std::string cursor = "0";
    do {
        const RedisReply reply =
            m_connection.command({"SCAN", cursor, "MATCH", std::string(pattern), "COUNT", "1000"});
        if (reply.elements.size() != 2)
            throw RedisError(RedisError::Kind::Protocol, "SCAN answered an unexpected reply");
        cursor = reply.elements[0].text;
        for (const RedisReply& key : reply.elements[1].elements)
            keys.insert(key.text);
    } while (cursor != "0");
    return {keys.begin(), keys.end()};
}

std::vector<Count> FleetReader::windowCounts(const std::vector<std::string>& keys,
                                             Timestamp windowSeconds, Timestamp now) {
    const Timestamp first = now - windowSeconds + 1;
    const Timestamp firstMinute = minuteOf(first);
    const Timestamp lastMinute = minuteOf(now);
    const bool exact = windowSeconds <= kExactWindowSeconds;
    const Timestamp from = exact ? firstMinute : hourOfMinute(firstMinute);
    const Timestamp to = exact ? lastMinute : hourOfMinute(lastMinute);
    std::vector<RedisConnection::Command> commands;
    for (const std::string& key : keys)
        for (Timestamp b = from; b <= to; ++b)
            commands.push_back({"HGETALL", exact ? secondsKey(key, b) : minutesKey(key, b)});
    const auto replies = m_connection.pipeline(commands);
    std::vector<Count> counts(keys.size(), 0);
    std::size_t r = 0;
    for (std::size_t k = 0; k < keys.size(); ++k)
        for (Timestamp b = from; b <= to; ++b, ++r)
            counts[k] = saturatingAdd(
                counts[k], exact ? sumFields(replies[r], b * 60, first, now)
                                 : sumFields(replies[r], b * 60, firstMinute, lastMinute));
    return counts;
}

ItemAnswer FleetReader::item(const std::string& key, Timestamp windowSeconds, Timestamp now) {
    ItemAnswer answer;
    answer.key = key;
    answer.windowSeconds = windowSeconds;
    answer.exact = windowSeconds <= kExactWindowSeconds;
    RedisConnection::Command pfcount{"PFCOUNT"};
    for (Timestamp m = minuteOf(now - windowSeconds + 1); m <= minuteOf(now); ++m)
        pfcount.push_back(uniquesKey(key, m));
    const auto replies = m_connection.pipeline(
        {{"GET", totalKey(key)}, pfcount, {"ZRANGE", instancesKey(key), "0", "-1"}});
    const RedisReply& total = checked(replies[0]);
    answer.allTime = total.type == RedisReply::Type::Nil ? 0 : nonNegative(toNumber(total.text));
    answer.uniques = nonNegative(checked(replies[1]).integer);
    std::vector<RedisConnection::Command> alive;
    for (const RedisReply& name : checked(replies[2]).elements)
        alive.push_back({"EXISTS", heartbeatKey(name.text)});
    const auto exists = m_connection.pipeline(alive);
    for (std::size_t i = 0; i < exists.size(); ++i)
        if (checked(exists[i]).integer == 1)
            answer.instances.push_back(replies[2].elements[i].text);
    answer.window = windowCounts({key}, windowSeconds, now).front();
    return answer;
}

std::vector<RankedItem> FleetReader::top(std::size_t k, Timestamp windowSeconds, Timestamp now) {
    RedisConnection::Command zunion{"ZUNION", ""};
    for (Timestamp m = minuteOf(now - windowSeconds + 1); m <= minuteOf(now); ++m)
        zunion.push_back(topKey(m));
    zunion[1] = std::to_string(zunion.size() - 2);
    zunion.push_back("WITHSCORES");
    const RedisReply merged = m_connection.command(zunion);
    std::vector<std::pair<double, std::string>> byMinutes;
    for (std::size_t i = 0; i + 1 < merged.elements.size(); i += 2)
        byMinutes.emplace_back(std::stod(merged.elements[i + 1].text), merged.elements[i].text);
    std::sort(byMinutes.begin(), byMinutes.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    // Whole minutes can reorder items near the cut-off: re-rank a few more than k exactly.
    byMinutes.resize(std::min(byMinutes.size(), std::max(4 * k, k + 16)));
    std::vector<std::string> candidates;
    for (const auto& [score, key] : byMinutes)
        candidates.push_back(key);
    const std::vector<Count> counts = windowCounts(candidates, windowSeconds, now);
    std::vector<RankedItem> ranked;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (counts[i] > 0)
            ranked.push_back({candidates[i], counts[i]});
    std::sort(ranked.begin(), ranked.end(), [](const RankedItem& a, const RankedItem& b) {
        return a.count != b.count ? a.count > b.count : a.key < b.key;
    });
    ranked.resize(std::min(ranked.size(), k));
    return ranked;
}

RebuildResult FleetReader::rebuild() {
    RebuildResult result;
    const ScriptShas shas = loadScripts(m_connection);
    for (const std::string& log : scan(kLogPattern)) {
        ++result.logs;
        std::string start = "-";
        while (true) {
            const RedisReply page =
                m_connection.command({"XRANGE", log, start, "+", "COUNT", "100"});
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
                try {
                    batch = FlushBatch::decode(fields["data"]);
                } catch (const std::invalid_argument& e) {
                    throw RedisError(RedisError::Kind::Protocol,
                                     log + " entry " + entry.elements[0].text + ": " + e.what());
                }
                auto apply = applyCommands(batch, id, shas);
                commands.insert(commands.end(), std::make_move_iterator(apply.begin()),
                                std::make_move_iterator(apply.end()));
                ++result.entries;
            }
            for (const RedisReply& reply : m_connection.pipeline(commands))
                ++(checked(reply).integer == 1 ? result.applied : result.skipped);
            start = "(" + page.elements.back().elements[0].text;
        }
    }
    return result;
}

std::size_t FleetReader::wipeCounts() {
    const std::vector<std::string> keys = scan(kCountPattern);
    for (std::size_t i = 0; i < keys.size(); i += 512) {
        RedisConnection::Command del{"DEL"};
        del.insert(del.end(), keys.begin() + i, keys.begin() + std::min(keys.size(), i + 512));
        m_connection.command(del);
    }
    return keys.size();
}

}  // namespace hitcounter::fleet
