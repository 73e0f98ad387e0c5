#include <QTest>
#include <algorithm>

#include "core/fleet/fleet_keys.h"
#include "core/fleet/flush_batch.h"
#include "core/fleet/flush_commands.h"
#include "tests/test_main.h"

using hitcounter::HitEvent;
using hitcounter::fleet::FlushBatch;

class FlushBatchTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void hitsOfOneSecondMergeIntoOneEntry() {
        FlushBatch batch;
        for (int i = 0; i < 1000; ++i)
            batch.add({120, "a", "", 2});
        batch.add({121, "a", "", 1});
        batch.add({120, "b", "", 5});
        QCOMPARE(batch.entries(), std::size_t(3));
        QCOMPARE(batch.hits(), hitcounter::Count(2006));
        QCOMPARE(batch.items().at("a").seconds.at(120), hitcounter::Count(2000));
        QCOMPARE(batch.items().at("b").seconds.at(120), hitcounter::Count(5));
    }

    void visitorsAreDistinctPerMinute() {
        FlushBatch batch;
        batch.add({60, "a", "v1", 1});
        batch.add({61, "a", "v1", 1});
        batch.add({119, "a", "v2", 1});
        batch.add({120, "a", "v1", 1});
        const auto& visitors = batch.items().at("a").visitors;
        QCOMPARE(visitors.at(1).size(), std::size_t(2));
        QCOMPARE(visitors.at(2).size(), std::size_t(1));
    }

    // #30 item 6: long names fill a batch by bytes long before its entries.
    void aBatchIsBoundedInBytesWhateverTheNamesLength() {
        const std::size_t item = FlushBatch::kItemBytes + FlushBatch::kSecondBytes + 900;
        FlushBatch batch(FlushBatch::kUnbounded, 10 * item);
        hitcounter::Count refused = 0;
        for (int i = 0; i < 100; ++i)
            refused += batch.add({1, std::string(897, 'k') + std::to_string(100 + i), "", 1});
        QCOMPARE(batch.items().size(), std::size_t(10));
        QCOMPARE(refused, hitcounter::Count(90));
        QCOMPARE(batch.bytes(), 10 * item);
        QCOMPARE(batch.add({1, std::string(897, 'k') + "100", "", 2}), hitcounter::Count(0));
        QCOMPARE(batch.add({2, std::string(897, 'k') + "100", "", 2}), hitcounter::Count(2));
        QVERIFY(!batch.addVisitor(std::string(897, 'k') + "100", 0, "v"));  // no room either
        QCOMPARE(batch.hits(), hitcounter::Count(12));
    }

    void fullBatchRefusesNewEntriesButMergesKnownOnes() {
        FlushBatch batch(2);
        QCOMPARE(batch.add({1, "a", "", 3}), hitcounter::Count(0));
        QCOMPARE(batch.add({2, "a", "", 4}), hitcounter::Count(0));
        QCOMPARE(batch.add({3, "a", "", 5}), hitcounter::Count(5));  // a new second: refused
        QCOMPARE(batch.add({1, "b", "", 6}), hitcounter::Count(6));  // a new item: refused
        QCOMPARE(batch.add({1, "a", "", 7}), hitcounter::Count(0));  // known: merged
        QCOMPARE(batch.hits(), hitcounter::Count(14));
        QCOMPARE(batch.entries(), std::size_t(2));
    }

    void mergeReturnsWhatDoesNotFit() {
        FlushBatch into(2);
        into.add({1, "a", "", 1});
        FlushBatch other;
        other.add({1, "a", "", 10});
        other.add({2, "a", "", 20});
        other.add({3, "a", "", 30});
        QCOMPARE(into.merge(std::move(other)), hitcounter::Count(30));
        QCOMPARE(into.hits(), hitcounter::Count(31));
        QVERIFY(other.empty());
    }

    void encodeDecodeRoundTripsAnyBytes() {
        FlushBatch batch;
        const std::string odd("k,1:2\n\0}", 8);
        batch.add({100, odd, "v:,", 3});
        batch.add({-5, "neg", "", 2});
        batch.add({100, "x", "w", 1});
        const FlushBatch back = FlushBatch::decode(batch.encode());
        QCOMPARE(back.hits(), batch.hits());
        QCOMPARE(back.entries(), batch.entries());
        QCOMPARE(back.items().at(odd).seconds.at(100), hitcounter::Count(3));
        QCOMPARE(*back.items().at(odd).visitors.at(1).begin(), std::string("v:,"));
        QCOMPARE(back.items().at("neg").seconds.at(-5), hitcounter::Count(2));
    }

    void decodeRejectsMalformedText() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FlushBatch::decode("1:1,"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FlushBatch::decode("9:1,"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FlushBatch::decode("1:0,x"));
    }

    void hotRoutesGoIntoTheLogAndBack() {
        using namespace hitcounter::fleet;
        const HotRoutes routes{{"hot", hotSubItem("hot", 3)}, {"a:b,c", hotSubItem("a:b,c", 0)}};
        QCOMPARE(decodeRoutes(encodeRoutes(routes)), routes);
        QVERIFY(decodeRoutes("").empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decodeRoutes("3:hot,"));  // no sub-item
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, decodeRoutes("9:hot,"));
        FlushBatch batch;
        batch.add({120, "hot", "", 7});
        const FlushIdentity id{"inst", "run", 1, 120};
        const auto xadd = logCommand(batch, id, 100, routes);
        QCOMPARE(xadd[xadd.size() - 2], std::string("hot"));
        QCOMPARE(decodeRoutes(xadd.back()), routes);
        // The item script writes under the sub-item's keys; the top-K names the item.
        const auto commands = applyCommands(batch, id, {"itemsha", "topsha"}, routes);
        QCOMPARE(commands.size(), std::size_t(2));
        QCOMPARE(commands[0][3], itemGuardKey(hotSubItem("hot", 3), "inst", "run"));
        QVERIFY(std::find(commands[1].begin(), commands[1].end(), std::string("hot")) !=
                commands[1].end());
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(FlushBatchTest)
#include "tst_flush_batch.moc"
