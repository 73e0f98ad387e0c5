// Hits per key in bounded memory, idle keys folded into "other keys" (core/net/key_totals.h).
#include <QTest>

#include <limits>

#include "core/net/key_totals.h"
#include "tests/test_main.h"

using namespace hitcounter;

class KeyTotalsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void addsPerKeyAndListsByHitsThenByKey() {
        KeyTotals t(1 << 20);
        t.add("b", 2);
        t.add("a", 2);
        t.add("c", 5);
        t.add("b", 1);
        const auto byHits = t.byHits();
        QCOMPARE(byHits.size(), std::size_t{3});
        QCOMPARE(byHits[0], (KeyTotals::Entry{"c", 5}));
        QCOMPARE(byHits[1], (KeyTotals::Entry{"b", 3}));
        QCOMPARE(byHits[2], (KeyTotals::Entry{"a", 2}));
        const auto byKey = t.byKey();
        QCOMPARE(byKey[0].first, std::string_view("a"));
        QCOMPARE(byKey[2].first, std::string_view("c"));
        QCOMPARE(t.total(), Count{10});
        QCOMPARE(t.folded(), KeyTotals::Folded{});
    }

    void sumsSaturate() {
        KeyTotals t(1 << 20);
        constexpr Count kMax = std::numeric_limits<Count>::max();
        t.add("big", kMax);
        t.add("big", kMax);
        t.add("big", 2);
        QCOMPARE(t.byKey().front().second, kMax);
        QCOMPARE(t.total(), kMax);
    }

    void idlestKeyIsFoldedWhenMemoryIsFull() {
        KeyTotals t(2 * KeyTotals::entryBytes("a"));
        t.add("a", 1);
        t.add("b", 2);
        t.add("a", 1);  // "b" is now the idlest
        t.add("c", 5);
        const auto kept = t.byHits();
        QCOMPARE(kept.size(), std::size_t{2});
        QCOMPARE(kept[0], (KeyTotals::Entry{"c", 5}));
        QCOMPARE(kept[1], (KeyTotals::Entry{"a", 2}));
        QCOMPARE(t.folded(), (KeyTotals::Folded{1, 2}));
        QCOMPARE(t.total(), Count{9});
    }

    void manyKeysStayWithinTheBudgetAndNoHitIsLost() {
        constexpr std::size_t kBudget = 64 * 1024;
        KeyTotals t(kBudget);
        Count sent = 0;
        for (int i = 0; i < 100000; ++i) {
            const std::string key = "key." + std::to_string(i % 5000) + std::string(i % 50, 'x');
            t.add(key, 1 + i % 3);
            sent += 1 + i % 3;
            QVERIFY(t.bytes() <= kBudget);
        }
        Count kept = 0;
        for (const auto& [key, hits] : t.byKey()) {
            kept += hits;
        }
        QCOMPARE(kept + t.folded().hits, sent);
        QCOMPARE(t.total(), sent);
        QVERIFY(t.folded().keys > 0);
        QVERIFY(t.size() > 100);
    }

    void keyLargerThanTheBudgetIsFoldedAtOnce() {
        KeyTotals t(KeyTotals::entryBytes("small"));
        t.add("small", 1);
        t.add(std::string(1000, 'k'), 4);
        QCOMPARE(t.size(), std::size_t{1});
        QCOMPARE(t.folded(), (KeyTotals::Folded{1, 4}));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(KeyTotalsTest)
#include "tst_key_totals.moc"
