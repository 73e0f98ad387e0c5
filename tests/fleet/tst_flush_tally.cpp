// FlushTally: writes per key per second and commands per node, against counts made here.
#include <QTest>

#include "core/fleet/flush_tally.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::fleet;

namespace {

FlushReport flush(double at, std::vector<std::string> tags,
                  std::map<std::string, std::uint64_t> nodes = {}, double lag = 0.5) {
    FlushReport r;
    r.sentAt = at;
    r.lagSeconds = lag;
    r.writtenTags = std::move(tags);
    r.commandsPerNode = std::move(nodes);
    return r;
}

const KeyWriteStats& key(const TallySummary& s, const std::string& tag) {
    for (const KeyWriteStats& k : s.keys)
        if (k.tag == tag)
            return k;
    static const KeyWriteStats none;
    return none;
}

}  // namespace

class FlushTallyTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writesAreCountedPerKeyAndSecond() {
        FlushTally tally;
        tally.add(flush(100.1, {"a", "b"}));
        tally.add(flush(100.9, {"a"}));
        tally.add(flush(101.0, {"a", "top:3"}));
        const TallySummary s = tally.summary(100, 101);
        QCOMPARE(s.flushes, std::uint64_t(3));
        QCOMPARE(s.maxWritesPerKeyPerSecond, std::uint64_t(2));
        QCOMPARE(key(s, "a").writes, std::uint64_t(3));
        QCOMPARE(key(s, "a").maxPerSecond, std::uint64_t(2));
        QCOMPARE(key(s, "b").maxPerSecond, std::uint64_t(1));
        QCOMPARE(s.keys.front().tag, std::string("a"));  // busiest first
    }

    void p99CountsTheSecondsWithoutWrites() {
        FlushTally tally;
        // Key "burst": 5 writes in one second of a 200-second span, nothing else: p99 is 0
        // (the 198th of 200 seconds), the max is 5. Key "steady": 1 write every second.
        for (int i = 0; i < 5; ++i)
            tally.add(flush(1000.5, {"burst"}));
        for (int s = 0; s < 200; ++s)
            tally.add(flush(1000 + s, {"steady"}));
        const TallySummary s = tally.summary(1000, 1199);
        QCOMPARE(key(s, "burst").maxPerSecond, std::uint64_t(5));
        QCOMPARE(key(s, "burst").p99PerSecond, std::uint64_t(0));
        QCOMPARE(key(s, "steady").p99PerSecond, std::uint64_t(1));
        QCOMPARE(key(s, "burst").medianPerSecond, std::uint64_t(0));
        QCOMPARE(key(s, "steady").medianPerSecond, std::uint64_t(1));
        QCOMPARE(s.lateReports, std::uint64_t(0));
    }

    void foldedSecondsKeepTheirCountsAndLateReportsStandAlone() {
        FlushTally tally;
        tally.add(flush(10, {"k"}));
        tally.add(flush(10, {"k"}));
        tally.add(flush(50, {"k"}));  // folds second 10
        tally.add(flush(10, {"k"}));  // too late to join it
        const TallySummary s = tally.summary(10, 50);
        QCOMPARE(s.lateReports, std::uint64_t(1));
        QCOMPARE(key(s, "k").writes, std::uint64_t(4));
        QCOMPARE(key(s, "k").maxPerSecond, std::uint64_t(2));
    }

    void subItemsCountTheirItemOnce() {
        FlushTally tally;
        tally.add(flush(1, {"hot\x1f"
                            "0",
                            "hot\x1f"
                            "5",
                            "cold",
                            "x\x1f"
                            "1"}));
        QCOMPARE(tally.summary(1, 1).splitItems, std::size_t(2));
    }

    void settledCommandsStartTwoSecondsAfterTheLastItemSplit() {
        FlushTally tally;
        tally.add(flush(10.5, {"a", "b"}, {{"n1", 2}}));
        tally.add(flush(11.5,
                        {"a\x1f"
                         "1",
                         "b"},
                        {{"n1", 1}, {"n2", 1}}));
        tally.add(flush(12.5,
                        {"a\x1f"
                         "1",
                         "b\x1f"
                         "2"},
                        {{"n1", 1}, {"n2", 1}}));
        tally.add(flush(13.5,
                        {"a\x1f"
                         "1",
                         "b\x1f"
                         "2"},
                        {{"n1", 1}, {"n2", 1}}));
        tally.add(flush(14.5,
                        {"a\x1f"
                         "2",
                         "b\x1f"
                         "2"},
                        {{"n2", 2}}));
        const TallySummary s = tally.summary(10, 14);
        QCOMPARE(s.splitItems, std::size_t(2));
        QCOMPARE(s.settledFrom, Timestamp(14));  // b's first sub-item second, 12, plus 2
        QCOMPARE(s.nodes[0].settledCommands, std::uint64_t(0));
        QCOMPARE(s.nodes[1].settledCommands, std::uint64_t(2));
        // A late report of an earlier sub-item second moves nothing later.
        tally.add(flush(11.2,
                        {"b\x1f"
                         "0"},
                        {{"n1", 1}}));
        QCOMPARE(tally.summary(10, 14).settledFrom, Timestamp(13));
        QCOMPARE(tally.summary(10, 14).nodes[0].settledCommands, std::uint64_t(1));
        QCOMPARE(FlushTally().summary(1, 1).settledFrom, Timestamp(0));
    }

    void commandsAndLagsPerNode() {
        FlushTally tally;
        tally.add(flush(7.2, {"a"}, {{"n1", 10}, {"n2", 4}}, 0.2));
        tally.add(flush(7.8, {"a"}, {{"n1", 6}}, 0.4));
        tally.add(flush(8.1, {"a"}, {{"n2", 3}}, 1.0));
        const TallySummary s = tally.summary(7, 8);
        QCOMPARE(s.nodes.size(), std::size_t(2));
        QCOMPARE(s.nodes[0].node, std::string("n1"));
        QCOMPARE(s.nodes[0].commands, std::uint64_t(16));
        QCOMPARE(s.nodes[0].maxPerSecond, std::uint64_t(16));
        QCOMPARE(s.nodes[0].maxPerFlush, std::uint64_t(10));
        QCOMPARE(s.nodes[0].flushParts, std::uint64_t(2));
        QCOMPARE(s.nodes[1].commands, std::uint64_t(7));
        QCOMPARE(s.nodes[1].maxPerSecond, std::uint64_t(4));
        QCOMPARE(s.lagMedian, 0.4);
        QCOMPARE(s.lagMax, 1.0);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(FlushTallyTest)
#include "tst_flush_tally.moc"
