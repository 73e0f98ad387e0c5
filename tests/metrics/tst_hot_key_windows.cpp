// The bounded per-key windows behind the metrics (core/metrics/hot_key_windows.h), checked
// against an independent count of the same hits.
#include <QTest>

#include <map>
#include <random>

#include "core/metrics/hot_key_windows.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::metrics;
using namespace std::chrono_literals;

namespace {

HitEvent hit(Timestamp t, std::string key, Count n = 1, std::string visitor = {}) {
    return HitEvent{.time = t, .key = std::move(key), .visitor = std::move(visitor), .count = n};
}

const KeyWindowRow* rowNamed(const std::vector<KeyWindowRow>& rows, const std::string& label) {
    for (const auto& r : rows)
        if (r.label == label)
            return &r;
    return nullptr;
}

}  // namespace

class HotKeyWindowsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theFirstKeysGetRowsAndTheRestCountInOther() {
        HotKeyWindows w({.maxKeys = 2, .windows = {60s, 300s}});
        w.add(hit(100, "a"), 100);
        w.add(hit(100, "b", 2), 100);
        w.add(hit(100, "c", 5), 100);
        w.add(hit(101, "a"), 101);
        const auto rows = w.rows(101);
        QCOMPARE(rows.size(), std::size_t{2});
        QCOMPARE(rows[0], (KeyWindowRow{"a", 2, {2, 2}, std::nullopt}));  // ties: by label
        QCOMPARE(rows[1], (KeyWindowRow{"b", 2, {2, 2}, std::nullopt}));
        QCOMPARE(w.other(101), (KeyWindowRow{"__other__", 5, {5, 5}, std::nullopt}));
    }

    void windowsAreExactAgainstAnIndependentCount() {
        HotKeyWindows w({.maxKeys = 3, .windows = {60s, 300s, 3600s}});
        std::vector<HitEvent> sent;
        std::mt19937 random(7);
        Timestamp now = 10000;
        for (int i = 0; i < 20000; ++i) {
            now += random() % 3 == 0 ? 1 : 0;
            // Some late hits, inside and beyond the hour.
            const Timestamp t = now - Timestamp(random() % 10 == 0 ? random() % 4000 : 0);
            const HitEvent h = hit(t, "k" + std::to_string(random() % 6), 1 + random() % 3);
            w.add(h, now);
            sent.push_back(h);
        }
        const auto rows = w.rows(now);
        const auto other = w.other(now);
        const std::vector<Timestamp> windows{60, 300, 3600};
        std::vector<Count> allInWindow(3, 0);
        Count total = 0;
        // Every key that got a row got it at its first hit (no rebalance called), so a row
        // holds all of its key's hits; the rest are other's. A hit too old when it arrived
        // is older than the hour before `now` too, so it falls in no window here either.
        std::map<std::string, std::vector<Count>> byKey;
        std::map<std::string, Count> totals;
        for (const HitEvent& h : sent) {
            total += h.count;
            totals[h.key] += h.count;
            auto& counts = byKey[h.key];
            counts.resize(3, 0);
            for (std::size_t i = 0; i < 3; ++i)
                if (h.time > now - windows[i] && h.time <= now) {
                    counts[i] += h.count;
                    allInWindow[i] += h.count;
                }
        }
        Count rowsTotal = 0;
        std::vector<Count> rowsInWindow(3, 0);
        for (const auto& row : rows) {
            QVERIFY(byKey.contains(row.label));
            QCOMPARE(row.total, totals[row.label]);
            for (std::size_t i = 0; i < 3; ++i) {
                QCOMPARE(row.windows[i], byKey[row.label][i]);
                rowsInWindow[i] += row.windows[i];
            }
            rowsTotal += row.total;
        }
        QCOMPARE(rowsTotal + other.total, total);
        for (std::size_t i = 0; i < 3; ++i)
            QCOMPARE(rowsInWindow[i] + other.windows[i], allInWindow[i]);
        QVERIFY(w.tooOldHits() > 0);
    }

    void aMuchHotterKeyTakesTheColdestRowAndNothingIsLost() {
        HotKeyWindows w({.maxKeys = 1, .windows = {60s, 300s}});
        w.add(hit(100, "a"), 100);
        w.add(hit(100, "b"), 100);
        w.add(hit(130, "b", 20), 130);
        w.rebalance(130);
        const auto rows = w.rows(130);
        QCOMPARE(rows.size(), std::size_t{1});
        QCOMPARE(rows[0], (KeyWindowRow{"b", 0, {0, 0}, std::nullopt}));
        // a's row folded in, b's hits while outside stay in other: all 22 hits are there.
        QCOMPARE(w.other(130), (KeyWindowRow{"__other__", 22, {22, 22}, std::nullopt}));
        QCOMPARE(w.swaps(), Count{1});
        w.add(hit(131, "b", 3), 131);
        QCOMPARE(w.rows(131)[0].total, Count{3});
    }

    void keysOfSimilarRateDoNotSwap() {
        HotKeyWindows w({.maxKeys = 1, .windows = {60s, 300s}});
        w.add(hit(100, "a", 15), 100);
        w.add(hit(100, "b", 29), 100);  // less than twice a's 15
        w.rebalance(100);
        QCOMPARE(w.rows(100)[0].label, std::string("a"));
        w.add(hit(101, "c", 9), 101);  // below kMinSwapHits, though a has 15... and b more
        w.add(hit(101, "b", 2), 101);  // b: 31 > 2 x 15
        w.rebalance(101);
        QCOMPARE(w.rows(101)[0].label, std::string("b"));
    }

    void futureHitsCountNowAndHitsAnHourOldCountInTotalsOnly() {
        HotKeyWindows w({.maxKeys = 5, .windows = {60s, 3600s}});
        w.add(hit(5000, "a"), 5000);
        w.add(hit(9999999, "a", 2), 5000);      // a sender's clock far ahead
        w.add(hit(5000 - 3600, "a", 4), 5000);  // exactly an hour: out of every window
        const auto rows = w.rows(5000);
        QCOMPARE(rows[0], (KeyWindowRow{"a", 7, {3, 3}, std::nullopt}));
        QCOMPARE(w.tooOldHits(), Count{4});
        // The far-future stamp did not move the windows: a hit now is still counted.
        w.add(hit(5001, "a"), 5001);
        QCOMPARE(w.rows(5001)[0].windows[0], Count{4});
    }

    void theOtherLabelAndCollidingLabelsStayInOther() {
        HotKeyWindows w({.maxKeys = 10, .windows = {60s}});
        w.add(hit(100, "__other__", 3), 100);
        w.add(hit(100, "\xff", 1), 100);   // label: the text \xff
        w.add(hit(100, "\\xff", 2), 100);  // a valid key with that very text
        const auto rows = w.rows(100);
        QCOMPARE(rows.size(), std::size_t{1});
        QCOMPARE(rows[0].label, std::string("\\xff"));
        QCOMPARE(rows[0].total, Count{1});
        QCOMPARE(w.other(100).total, Count{5});
    }

    void uniquesAppearOnlyWhereHitsNameVisitors() {
        HotKeyWindows w({.maxKeys = 2, .windows = {60s}});
        w.add(hit(100, "page", 1, "u1"), 100);
        w.add(hit(100, "page", 1, "u2"), 100);
        w.add(hit(101, "page", 1, "u1"), 101);
        w.add(hit(101, "metric", 5), 101);
        w.add(hit(101, "third", 1, "u9"), 101);
        const auto rows = w.rows(101);
        QCOMPARE(rowNamed(rows, "page")->uniques, std::optional<std::uint64_t>(2));
        QCOMPARE(rowNamed(rows, "metric")->uniques, std::nullopt);
        QCOMPARE(w.other(101).uniques, std::optional<std::uint64_t>(1));
    }

    void fewerKeysFoldTheColdestRows() {
        HotKeyWindows w({.maxKeys = 3, .windows = {60s}});
        w.add(hit(100, "a", 5), 100);
        w.add(hit(100, "b", 1), 100);
        w.add(hit(100, "c", 3), 100);
        w.setMaxKeys(1, 100);
        const auto rows = w.rows(100);
        QCOMPARE(rows.size(), std::size_t{1});
        QCOMPARE(rows[0].label, std::string("a"));
        QCOMPARE(w.other(100), (KeyWindowRow{"__other__", 4, {4}, std::nullopt}));
    }

    void aMillionDistinctKeysKeepKRowsAndEveryHit() {
        HotKeyWindows w({.maxKeys = 100});
        for (int i = 0; i < 1'000'000; ++i)
            w.add(hit(1000 + i / 10000, "key-" + std::to_string(i)), 1000 + i / 10000);
        w.rebalance(1100);
        QCOMPARE(w.size(), std::size_t{100});
        Count total = w.other(1100).total;
        for (const auto& r : w.rows(1100))
            total += r.total;
        QCOMPARE(total, Count{1'000'000});
        QCOMPARE(w.other(1100).windows[1], Count{1'000'000} - 100);  // the 300 s window
    }

    void badOptionsAreRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, HotKeyWindows({.maxKeys = 0}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, HotKeyWindows({.windows = {}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, HotKeyWindows({.windows = {0s}}));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(HotKeyWindowsTest)
#include "tst_hot_key_windows.moc"
