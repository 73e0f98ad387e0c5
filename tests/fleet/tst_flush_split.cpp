// splitFlush: the parts a big flush is sent as, checked against the commands they become.
#include <QTest>
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "core/fleet/fleet_keys.h"
#include "core/fleet/flush_batch.h"
#include "core/fleet/flush_commands.h"
#include "core/fleet/flush_split.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::fleet;

namespace {

// Hostile names: braces, the sub-item separator, bytes that ItemTag escapes.
std::string name(int i, std::size_t length) {
    std::string text = "{}\x1f\xff" + std::to_string(i) + ":";
    text.resize(length, char('a' + i % 26));
    return text;
}

// Items of 1..300-byte names, each with seconds and visitors of up to 200 bytes.
FlushBatch hostileBatch() {
    FlushBatch batch;
    for (int i = 0; i < 60; ++i)
        for (int s = 0; s < 40; ++s) {
            std::string visitor = "v" + std::to_string(s % 17);
            visitor.resize(std::size_t(1 + (s * 37 + i) % 200), '#');
            batch.add({1'700'000'000 + s * 7 + i, name(i, std::size_t(1 + i * 5)), visitor,
                       Count(s + 1)});
        }
    return batch;
}

std::size_t bytesOf(const std::vector<RedisConnection::Command>& commands) {
    std::size_t bytes = 0;
    for (const auto& command : commands) {
        bytes += 16;
        for (const std::string& arg : command)
            bytes += arg.size() + 16;
    }
    return bytes;
}

// The bytes the sink sends for `part` at most, each argument with its RESP framing, with the
// longest instance name: every item routed to a sub-item (longer tags) with a heat touch, or
// every item under its own name.
std::size_t commandBytes(const FlushBatch& part) {
    const FlushIdentity id{std::string(128, 'i'), "0123456789abcdef", 1'000'000'000'000,
                           1'700'000'000};
    const ScriptShas shas{std::string(40, 'a'), std::string(40, 'b'), std::string(40, 'c')};
    const HotDetection heat{true, 100, 1024, std::chrono::seconds(30)};
    HotRoutes routes;
    std::vector<RedisConnection::Command> routed;
    for (const auto& [item, data] : part.items()) {
        routes.emplace(item, hotSubItem(item, 1023));
        routed.push_back(heatCommand({item, 1024, 1024, true, true}, heat, shas));
    }
    for (auto& c : applyCommands(part, id, shas, routes, heat))
        routed.push_back(std::move(c));
    routed.push_back(logCommand(part, id, 1'000'000, routes));
    std::vector<RedisConnection::Command> own = applyCommands(part, id, shas, {}, heat);
    own.push_back(logCommand(part, id, 1'000'000));
    return std::max(bytesOf(routed), bytesOf(own));
}

}  // namespace

class FlushSplitTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void partsStayWithinTheByteAndEntryLimits() {
        const FlushBatch batch = hostileBatch();
        const FlushLimits limits{32 * 1024, 500};
        const SplitFlush split = splitFlush(batch, limits);
        QVERIFY(split.parts.size() > 2);
        QCOMPARE(split.refusedHits, Count(0));
        for (const FlushBatch& part : split.parts) {
            QVERIFY(!part.empty());
            QVERIFY(part.entries() <= limits.entries);
            QVERIFY2(partBytes(part) <= limits.bytes, std::to_string(partBytes(part)).c_str());
            QVERIFY2(commandBytes(part) <= partBytes(part),
                     (std::to_string(commandBytes(part)) + " > " + std::to_string(partBytes(part)))
                         .c_str());
        }
    }

    void aFlushOfManyItemsIsCutByEntries() {
        FlushBatch batch;
        for (int i = 0; i < 10'000; ++i)
            batch.add({1'700'000'000, "item" + std::to_string(i), "", 1});
        const SplitFlush split = splitFlush(batch, FlushLimits{});
        QCOMPARE(split.parts.size(), std::size_t(10));  // 9 x 1024 + 784
        QCOMPARE(split.parts.back().entries(), std::size_t(784));
    }

    void partsHoldEveryHitAndVisitorOfTheBatch() {
        const FlushBatch batch = hostileBatch();
        const SplitFlush split = splitFlush(batch, FlushLimits{16 * 1024, 300});
        std::map<std::string, std::map<Timestamp, Count>> seconds;
        std::map<std::string, std::map<Timestamp, std::set<std::string>>> visitors;
        Count hits = 0;
        for (const FlushBatch& part : split.parts) {
            QCOMPARE(part.oldestArrival(), batch.oldestArrival());
            // What a rebuild reads back from the part's log entry.
            const FlushBatch logged = FlushBatch::decode(part.encode());
            hits += logged.hits();
            for (const auto& [item, data] : logged.items()) {
                for (const auto& [second, n] : data.seconds)
                    seconds[item][second] += n;
                for (const auto& [minute, vs] : data.visitors)
                    for (const std::string& v : vs)
                        QVERIFY(visitors[item][minute].insert(v).second);  // in one part only
            }
        }
        QCOMPARE(hits, batch.hits());
        QCOMPARE(seconds.size(), batch.items().size());
        for (const auto& [item, data] : batch.items()) {
            QVERIFY(seconds[item] == data.seconds);
            QVERIFY(visitors[item] == data.visitors);
        }
    }

    void anEntryTooBigForAnyPartIsRefusedAndCounted() {
        FlushBatch batch;
        batch.add({1'700'000'000, std::string(20'000, 'x'), "", 7});
        batch.add({1'700'000'000, "fine", std::string(20'000, 'v'), 3});
        batch.add({1'700'000'001, "fine", "ok", 2});
        const SplitFlush split = splitFlush(batch, FlushLimits{16 * 1024, 100});
        QCOMPARE(split.refusedHits, Count(7));
        QCOMPARE(split.refusedVisitors, std::size_t(1));
        QCOMPARE(split.refusedExample, std::string("fine"));  // items in order: its visitor first
        QCOMPARE(split.parts.size(), std::size_t(1));
        QCOMPARE(split.parts[0].hits(), Count(5));
        QCOMPARE(split.parts[0].items().at("fine").visitors.begin()->second,
                 std::set<std::string>{"ok"});
    }

    void theBudgetIsHalfOfWhatRedisAcceptsAndAtMost64MiB() {
        QCOMPARE(flushBytesFor(1024 * 1024), std::size_t(512 * 1024));
        QCOMPARE(flushBytesFor(FlushLimits::kRedisDefaultMaxBulk), FlushLimits::kMaxBytes);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(FlushSplitTest)
#include "tst_flush_split.moc"
