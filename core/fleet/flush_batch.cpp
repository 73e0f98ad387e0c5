#include "core/fleet/flush_batch.h"

#include <charconv>
#include <stdexcept>

#include "core/base/saturating.h"
#include "core/fleet/fleet_keys.h"

namespace hitcounter::fleet {

namespace {

void putToken(std::string& out, std::string_view token) {
    out += std::to_string(token.size());
    out += ':';
    out += token;
    out += ',';
}

void putNumber(std::string& out, long long value) {
    putToken(out, std::to_string(value));
}

class TokenReader {
public:
    explicit TokenReader(std::string_view text) : m_text(text) {}
    bool done() const { return m_pos == m_text.size(); }

    std::string_view token() {
        const auto colon = m_text.find(':', m_pos);
        std::size_t length = 0;
        const char* first = m_text.data() + m_pos;
        const char* last = m_text.data() + (colon == std::string_view::npos ? m_pos : colon);
        const auto [end, ec] = std::from_chars(first, last, length);
        if (colon == std::string_view::npos || ec != std::errc() || end != last ||
            length >= m_text.size() - colon - 1 || m_text[colon + 1 + length] != ',')
            fail();
        m_pos = colon + 2 + length;
        return m_text.substr(colon + 1, length);
    }

    long long number() {
        const std::string_view t = token();
        long long value = 0;
        const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
        if (t.empty() || ec != std::errc() || end != t.data() + t.size())
            fail();
        return value;
    }

private:
    [[noreturn]] void fail() const {
        throw std::invalid_argument("flush log entry: malformed netstring at byte " +
                                    std::to_string(m_pos));
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

}  // namespace

Count FlushBatch::add(const HitEvent& e, SteadyTime arrival) {
    if (e.count == 0)
        return 0;
    auto itemIt = m_items.find(e.key);
    const bool newItem = itemIt == m_items.end();
    if (newItem || !itemIt->second.seconds.contains(e.time)) {
        const std::size_t bytes = kSecondBytes + (newItem ? kItemBytes + e.key.size() : 0);
        if (!room(bytes))
            return e.count;
        if (newItem)
            itemIt = m_items.try_emplace(e.key).first;
        ++m_entries;
        m_bytes += bytes;
    }
    if (m_hits == 0)
        m_oldestArrival = arrival;
    Count& slot = itemIt->second.seconds[e.time];
    slot = saturatingAdd(slot, e.count);
    m_hits = saturatingAdd(m_hits, e.count);
    if (!e.visitor.empty())
        addVisitor(itemIt->second, minuteOf(e.time), e.visitor);
    return 0;
}

bool FlushBatch::addVisitor(ItemFlush& item, Timestamp minute, const std::string& visitor) {
    auto& visitors = item.visitors[minute];
    if (visitors.contains(visitor))
        return true;
    const std::size_t bytes = visitorBytes(visitor, visitors.empty());
    if (!room(bytes)) {
        if (visitors.empty())
            item.visitors.erase(minute);
        return false;
    }
    visitors.insert(visitor);
    ++m_entries;
    m_bytes += bytes;
    return true;
}

bool FlushBatch::addVisitor(const std::string& key, Timestamp minute, const std::string& visitor) {
    auto found = m_items.find(key);
    if (found != m_items.end())
        return addVisitor(found->second, minute, visitor);
    const std::size_t itemBytes = kItemBytes + key.size();
    if (!room(itemBytes + visitorBytes(visitor, true)))
        return false;
    m_bytes += itemBytes;
    return addVisitor(m_items[key], minute, visitor);
}

Count FlushBatch::merge(FlushBatch&& other) {
    Count refused = 0;
    if (!other.empty() && (m_hits == 0 || other.m_oldestArrival < m_oldestArrival))
        m_oldestArrival = other.m_oldestArrival;
    for (auto& [key, item] : other.m_items) {
        for (const auto& [second, hits] : item.seconds)
            refused = saturatingAdd(refused, add({second, key, {}, hits}, m_oldestArrival));
        auto found = m_items.find(key);
        if (found == m_items.end())
            continue;  // every second of the item was refused: so are its visitors
        for (const auto& [minute, visitors] : item.visitors)
            for (const std::string& v : visitors)
                addVisitor(found->second, minute, v);
    }
    other = FlushBatch(other.m_maxEntries, other.m_maxBytes);
    return refused;
}

std::string FlushBatch::encode() const {
    std::string out;
    putNumber(out, static_cast<long long>(m_items.size()));
    for (const auto& [key, item] : m_items) {
        putToken(out, key);
        putNumber(out, static_cast<long long>(item.seconds.size()));
        for (const auto& [second, hits] : item.seconds) {
            putNumber(out, second);
            putNumber(out, static_cast<long long>(std::min<Count>(hits, kRedisMaxCount)));
        }
        putNumber(out, static_cast<long long>(item.visitors.size()));
        for (const auto& [minute, visitors] : item.visitors) {
            putNumber(out, minute);
            putNumber(out, static_cast<long long>(visitors.size()));
            for (const std::string& v : visitors)
                putToken(out, v);
        }
    }
    return out;
}

FlushBatch FlushBatch::decode(std::string_view text) {
    TokenReader in(text);
    FlushBatch batch;
    const long long items = in.number();
    for (long long i = 0; i < items; ++i) {
        const std::string key(in.token());
        const long long seconds = in.number();
        for (long long s = 0; s < seconds; ++s) {
            const Timestamp second = in.number();
            const long long hits = in.number();
            if (hits <= 0)
                throw std::invalid_argument("flush log entry: a count is not positive");
            batch.add({second, key, {}, static_cast<Count>(hits)});
        }
        const long long minutes = in.number();
        for (long long m = 0; m < minutes; ++m) {
            const Timestamp minute = in.number();
            const long long visitors = in.number();
            for (long long v = 0; v < visitors; ++v)
                batch.addVisitor(key, minute, std::string(in.token()));
        }
    }
    if (!in.done())
        throw std::invalid_argument("flush log entry: bytes after the last item");
    return batch;
}

}  // namespace hitcounter::fleet
