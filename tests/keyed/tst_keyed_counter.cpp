// KeyedCounter (core/keyed/keyed_counter.h): per-key windows and totals, eviction with the
// archive and with a callback, memory bounded under one-off keys, uniques per key, and the
// exact top-K against brute force on Zipf traces.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/keyed/keyed_counter.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {
struct TraceHit {
    Timestamp t;
    std::string key;
};

// Zipf(s) over n keys by inverse CDF, hits spread over `seconds`, some late by up to 30 s.
std::vector<TraceHit> zipfTrace(std::uint64_t seed, int keys, double s, int hits, int seconds) {
    std::mt19937_64 random(seed);
    std::vector<double> cdf(static_cast<std::size_t>(keys));
    double sum = 0;
    for (int k = 0; k < keys; ++k) {
        sum += 1.0 / std::pow(k + 1, s);
        cdf[static_cast<std::size_t>(k)] = sum;
    }
    std::uniform_real_distribution<double> uniform(0.0, sum);
    std::vector<TraceHit> trace;
    for (int i = 0; i < hits; ++i) {
        const auto rank = std::lower_bound(cdf.begin(), cdf.end(), uniform(random)) - cdf.begin();
        Timestamp t = static_cast<Timestamp>(static_cast<std::int64_t>(i) * seconds / hits);
        if (random() % 10 == 0) {
            t = std::max<Timestamp>(0, t - static_cast<Timestamp>(random() % 30));
        }
        // Keys with shared prefixes and varying lengths make the byte-order tie-break matter.
        trace.push_back({t, "k" + std::to_string(rank % 7) + "/" + std::to_string(rank)});
    }
    return trace;
}

std::vector<KeyCount> bruteForceTop(const std::vector<TraceHit>& trace, std::size_t end,
                                    Timestamp now, std::int64_t window, std::size_t k) {
    std::map<std::string, Count> counts;
    for (std::size_t i = 0; i < end; ++i) {
        if (trace[i].t > now - window && trace[i].t <= now) {
            ++counts[trace[i].key];
        }
    }
    std::vector<KeyCount> all;
    for (const auto& [key, c] : counts) {
        all.push_back({key, c});
    }
    std::sort(all.begin(), all.end(),
              [](const KeyCount& a, const KeyCount& b) { return ranksBefore(a, b); });
    all.resize(std::min(k, all.size()));
    return all;
}

// The hits of a KeyedCounter kept one by one, unaggregated, and every answer computed from that
// list: the reference the per-(key, second) aggregation must equal.
class PlainHitList {
public:
    PlainHitList(std::int64_t window, std::int64_t retention)
        : m_window(window), m_retention(retention) {}

    void advance(Timestamp now) {
        if (!m_started || now > m_head) {
            m_head = now;
            m_started = true;
        }
    }
    void hit(Timestamp t, const std::string& key, Count n) {
        advance(t);
        if (t <= m_head - m_retention) {
            m_dropped += n;
            return;
        }
        m_hits.push_back({t, key, n});
    }
    Count sum(const std::string& key, Timestamp from, Timestamp to) const {
        Count c = 0;
        for (const Hit& h : m_hits) {
            c += h.key == key && h.t > from && h.t <= to ? h.n : 0;
        }
        return c;
    }
    Count countLast(const std::string& key, Timestamp now, std::int64_t w) {
        advance(now);
        return sum(key, std::max(now, m_head) - w, now);
    }
    Count between(const std::string& key, Timestamp from, Timestamp to) const {
        return to <= from ? 0 : sum(key, std::max(from, m_head - m_retention), to);
    }
    Count allTime(const std::string& key) const {
        return sum(key, std::numeric_limits<Timestamp>::min(),
                   std::numeric_limits<Timestamp>::max());
    }
    std::vector<KeyCount> top(std::size_t k, Timestamp now) {
        advance(now);
        std::map<std::string, Count> counts;
        for (const Hit& h : m_hits) {
            if (h.t > std::max(now, m_head) - m_window && h.t <= now) {
                counts[h.key] += h.n;
            }
        }
        std::vector<KeyCount> all;
        for (const auto& [key, c] : counts) {
            if (c > 0) {
                all.push_back({key, c});
            }
        }
        std::sort(all.begin(), all.end(), ranksBefore);
        all.resize(std::min(k, all.size()));
        return all;
    }
    Count dropped() const { return m_dropped; }

private:
    struct Hit {
        Timestamp t;
        std::string key;
        Count n;
    };
    std::int64_t m_window, m_retention;
    Timestamp m_head = 0;
    bool m_started = false;
    Count m_dropped = 0;
    std::vector<Hit> m_hits;
};
}  // namespace

class KeyedCounterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerExample() {
        KeyedCounter c(KeyedOptions{300s, 300s, 600s, {}});
        c.hit(10, "home", "u1");
        c.hit(12, "home", "u2");
        c.hit(12, "about", "u1");
        QCOMPARE(c.count("home", 12), Count{2});
        QCOMPARE(c.top(1, 12), (std::vector<KeyCount>{{"home", 2}}));
        QCOMPARE(c.uniques("home", 12), std::uint64_t{2});
        QCOMPARE(c.count("home", 310), Count{1});
        QCOMPARE(c.count("home", 312), Count{0});
        QCOMPARE(c.allTime("home"), Count{2});
        QCOMPARE(c.liveKeys(), std::size_t{2});
        c.advance(612);
        QCOMPARE(c.liveKeys(), std::size_t{0});
        QCOMPARE(c.allTime("home"), Count{2});
        QCOMPARE(c.allTimeUniques("home"), std::uint64_t{2});
        QCOMPARE(c.allTimeUniques("about"), std::uint64_t{1});
    }

    void invalidOptionsAreRejected() {
        KeyedOptions zeroWindow;
        zeroWindow.window = 0s;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, KeyedCounter{zeroWindow});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 KeyedCounter(KeyedOptions{300s, 60s, 0s, {}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 KeyedCounter(KeyedOptions{300s, 300s, 100s, {}}));
        KeyedCounter c(KeyedOptions{60s, 3600s, 0s, {}});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.countLast("a", 0, 3601s));
    }

    void lateHitsInsideTheRetentionCountAndOlderAreDropped() {
        KeyedCounter c(KeyedOptions{60s, 3600s, 0s, {}});
        c.hit(5000, "a");
        c.hit(4000, "a", {}, 2);  // late, kept for the hour view
        c.hit(1400, "a", {}, 5);  // older than the retention
        QCOMPARE(c.count("a", 5000), Count{1});
        QCOMPARE(c.countLast("a", 5000, 3600s), Count{3});
        QCOMPARE(c.countLast("a", 5000, 1001s), Count{3});
        QCOMPARE(c.countLast("a", 5000, 1000s), Count{1});
        QCOMPARE(c.allTime("a"), Count{3});
        QCOMPARE(c.droppedLate(), Count{5});
    }

    void evictedKeyComesBackWithItsTotal() {
        KeyedCounter c(KeyedOptions{10s, 10s, 20s, {}});
        c.hit(1, "a", "u1", 3);
        c.advance(100);
        QCOMPARE(c.liveKeys(), std::size_t{0});
        QCOMPARE(c.archivedKeys(), std::size_t{1});
        c.hit(100, "a", "u2", 2);
        QCOMPARE(c.archivedKeys(), std::size_t{0});
        QCOMPARE(c.allTime("a"), Count{5});
        QCOMPARE(c.count("a", 100), Count{2});
        QCOMPARE(c.allTimeUniques("a"), std::uint64_t{2});
        QCOMPARE(c.uniques("a", 100), std::uint64_t{1});
    }

    // Keys hit at every second stay; a key idle for `idle` seconds goes, whatever its volume.
    void onlyIdleKeysAreEvicted() {
        KeyedCounter c(KeyedOptions{10s, 10s, 30s, {}});
        c.hit(0, "busy-once", {}, 1000);
        for (Timestamp t = 0; t <= 100; ++t) {
            c.hit(t, "steady");
            QCOMPARE(c.liveKeys(), t < 30 ? std::size_t{2} : std::size_t{1});
        }
        QCOMPARE(c.count("steady", 100), Count{10});
        QCOMPARE(c.evictedKeys(), Count{1});
    }

    // A stream of one-off keys flushed to a callback: once the first `idle` seconds have
    // passed, memory stays flat however many keys arrive, and no hit is lost.
    void oneOffKeysKeepMemoryBounded() {
        Count flushed = 0;
        std::size_t flushedKeys = 0;
        KeyedCounter c(KeyedOptions{30s, 30s, 60s, [&](EvictedKey&& key) {
                                        flushed += key.allTime;
                                        ++flushedKeys;
                                    }});
        constexpr int kKeys = 200'000;
        constexpr int kPerSecond = 1000;
        std::size_t steady = 0;
        std::size_t peak = 0;
        for (int i = 0; i < kKeys; ++i) {
            c.hit(i / kPerSecond, "one-off-" + std::to_string(i), "v" + std::to_string(i % 5));
            if (i % 20'000 == 0 && i >= 62 * kPerSecond) {
                steady = steady == 0 ? c.memoryBytes() : steady;
                peak = std::max(peak, c.memoryBytes());
                QVERIFY(c.liveKeys() <= 61 * kPerSecond);
            }
        }
        QVERIFY2(peak <= steady + steady / 10,
                 (std::to_string(peak) + " vs " + std::to_string(steady)).c_str());
        const std::size_t perKey = c.memoryBytes("one-off-" + std::to_string(kKeys - 1));
        QVERIFY2(perKey > 100 && perKey < 600, std::to_string(perKey).c_str());
        QCOMPARE(c.archivedKeys(), std::size_t{0});
        c.advance(kKeys / kPerSecond + 1000);
        QCOMPARE(c.liveKeys(), std::size_t{0});
        QCOMPARE(flushed, Count{kKeys});
        QCOMPARE(flushedKeys, std::size_t{kKeys});
    }

    void uniquesPerKeyInTheWindow() {
        KeyedCounter c(KeyedOptions{100s, 100s, 0s, {}});
        for (int i = 0; i < 500; ++i) {
            c.hit(i, "page", "visitor-" + std::to_string(i % 150));
            c.hit(i, "other");  // no visitor: counted, no uniques
        }
        QCOMPARE(c.count("other", 499), Count{100});
        QCOMPARE(c.uniques("other", 499), std::uint64_t{0});
        // Seconds 400..499 saw 100 consecutive visitor numbers mod 150: 100 distinct.
        const auto windowed = static_cast<std::int64_t>(c.uniques("page", 499));
        QVERIFY2(std::abs(windowed - 100) <= 2, std::to_string(windowed).c_str());
        const auto all = static_cast<std::int64_t>(c.allTimeUniques("page"));
        QVERIFY2(std::abs(all - 150) <= 2, std::to_string(all).c_str());
    }

    void tiesAreBrokenByKeyInByteOrder() {
        KeyedCounter c;
        for (const char* key : {"b", "a", "\xc3\xa9", "B", "ab"}) {
            c.hit(1, key, {}, 2);
        }
        c.hit(1, "z", {}, 3);
        const std::vector<KeyCount> expected{{"z", 3}, {"B", 2}, {"a", 2}, {"ab", 2}, {"b", 2}};
        QCOMPARE(c.top(5, 1), expected);
        QCOMPARE(c.top(10, 1).back(), (KeyCount{"\xc3\xa9", 2}));
        QCOMPARE(c.top(0, 1).size(), std::size_t{0});
    }

    // Many hits per second (aggregated per key and second), late hits, a few too late, n = 0,
    // quiet gaps that evict keys which come back, and queries in the middle of a second: every
    // answer equals the plain list of hits.
    void aggregatedCountsEqualThePlainListOfHits_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("hitsPerSecond");
        QTest::newRow("seed 1, 40 hits/s") << quint64{1} << 40;
        QTest::newRow("seed 2, 3 hits/s") << quint64{2} << 3;
        QTest::newRow("seed 3, 400 hits/s") << quint64{3} << 400;
    }
    void aggregatedCountsEqualThePlainListOfHits() {
        QFETCH(quint64, seed);
        QFETCH(int, hitsPerSecond);
        constexpr std::int64_t kWindow = 30, kRetention = 90;
        KeyedCounter c(KeyedOptions{
            std::chrono::seconds{kWindow}, std::chrono::seconds{kRetention}, 180s, {}});
        PlainHitList plain(kWindow, kRetention);
        std::mt19937_64 random(seed);
        const auto keyOf = [&] { return "k" + std::to_string(random() % 25); };
        Timestamp now = 1000;
        int checks = 0;
        for (int step = 0; step < 6000; ++step) {
            const auto roll = random() % 1000;
            if (roll < static_cast<std::uint64_t>(1000 / hitsPerSecond)) {
                now += roll == 0 ? 200 : 1;  // now and then a gap longer than the idle time
            }
            Timestamp t = now;
            if (roll % 13 == 0) {
                t -= static_cast<Timestamp>(random() % 120);  // late, some beyond the retention
            }
            const Count n = roll % 17 == 0 ? 0 : 1 + random() % 3;
            const std::string key = keyOf();
            c.hit(t, key, {}, n);
            plain.hit(t, key, n);
            if (step % 7 != 0) {
                continue;
            }
            const std::string asked = keyOf();
            const Timestamp at = now - static_cast<Timestamp>(random() % 3);  // now or just before
            const auto w = std::int64_t{1} + static_cast<std::int64_t>(random() % kRetention);
            QCOMPARE(c.countLast(asked, at, std::chrono::seconds{w}),
                     plain.countLast(asked, at, w));
            QCOMPARE(c.count(asked, at), plain.countLast(asked, at, kWindow));
            const Timestamp from = at - static_cast<Timestamp>(random() % 100);
            QCOMPARE(c.between(asked, from, at), plain.between(asked, from, at));
            QCOMPARE(c.allTime(asked), plain.allTime(asked));
            QCOMPARE(c.top(5, at), plain.top(5, at));
            ++checks;
        }
        QCOMPARE(c.droppedLate(), plain.dropped());
        QVERIFY(c.droppedLate() > 0);
        QVERIFY(c.evictedKeys() > 0);
        QVERIFY(checks > 800);
    }

    void exactTopKEqualsBruteForceOnZipfTraces_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<double>("skew");
        QTest::newRow("seed 1, s=1.1") << quint64{1} << 1.1;
        QTest::newRow("seed 2, s=0.8") << quint64{2} << 0.8;
        QTest::newRow("seed 3, s=1.5") << quint64{3} << 1.5;
    }
    void exactTopKEqualsBruteForceOnZipfTraces() {
        QFETCH(quint64, seed);
        QFETCH(double, skew);
        constexpr std::int64_t kWindow = 60;
        const auto trace = zipfTrace(seed, 2000, skew, 30'000, 600);
        KeyedCounter c(KeyedOptions{std::chrono::seconds{kWindow}, {}, {}, {}});
        std::size_t next = 0;
        for (Timestamp now = 50; now <= 600; now += 50) {
            // Feed every hit up to now (the trace is in order except its late hits).
            while (next < trace.size() && trace[next].t <= now) {
                c.hit(trace[next].t, trace[next].key);
                ++next;
            }
            for (std::size_t k : {std::size_t{1}, std::size_t{10}, std::size_t{100}}) {
                QCOMPARE(c.top(k, now), bruteForceTop(trace, next, now, kWindow, k));
            }
        }
    }

    // #30 item 19: the GUI kept every distinct key (7.1 M keys: 1.5 GB). Under the key memory
    // cap, a new key on every hit takes bounded memory; every hit is in a kept key or in the
    // folded total; a key hit every second stays exact (keys are folded least recently hit
    // first, by the second of their last hit).
    void aKeyMemoryCapFoldsTheLeastRecentlyHitKeys() {
        KeyedCounter probe(KeyedOptions{});
        probe.hit(1, "k000000");
        const std::size_t perKey = probe.keyBytes();
        QVERIFY(perKey > 0);
        const std::size_t cap = 100 * perKey;
        KeyedOptions capped;
        capped.maxKeyBytes = cap;
        KeyedCounter keys(capped);
        Count sent = 0;
        std::vector<Timestamp> hotTimes;
        std::size_t peak = 0;
        for (int i = 0; i < 20000; ++i) {
            const Timestamp t = 1 + i / 50;  // 50 new keys a second, 400 s
            keys.hit(t, "k" + std::to_string(100000 + i));
            ++sent;
            if (i % 50 == 0) {
                keys.hit(t, "hot");
                hotTimes.push_back(t);
                ++sent;
            }
            peak = std::max(peak, keys.keyBytes());
        }
        QVERIFY2(peak <= cap, qPrintable(QString("%1 > %2").arg(peak).arg(cap)));
        QVERIFY(keys.liveKeys() <= 100);
        QVERIFY(keys.memoryBytes() < 400 * perKey);
        // Every hit is kept or folded, each exactly once.
        keys.advance(401);
        Count kept = 0;
        for (const KeyCount& k : keys.windowCounts(401))
            kept += keys.allTime(k.key);
        QCOMPARE(kept + keys.foldedHits(), sent);
        QCOMPARE(Count(keys.liveKeys()) + keys.foldedKeys(), Count(20000 + 1));
        QCOMPARE(keys.allTime("hot"), Count(hotTimes.size()));
        const auto inWindow = std::count_if(hotTimes.begin(), hotTimes.end(),
                                            [](Timestamp t) { return t > 401 - 300; });
        QCOMPARE(keys.count("hot", 401), Count(inWindow));
        QCOMPARE(keys.allTime("k119999"), Count(1));
        QCOMPARE(keys.allTime("k100000"), Count(0));  // folded
    }

    // A key folded while its hits of the head second are pending, its id then given to a new
    // key of the same second: the new key's counts are its own.
    void aKeyFoldedInItsOwnSecondLeavesNoHitsToTheNextKey() {
        KeyedCounter probe(KeyedOptions{});
        probe.hit(1, "a");
        KeyedOptions capped;
        capped.maxKeyBytes = probe.keyBytes() + 1;  // one key
        KeyedCounter keys(capped);
        keys.hit(5, "a", {}, 7);
        keys.hit(5, "b", {}, 2);  // folds "a", pending at 5
        keys.hit(5, "c");         // takes the id "a" had, folds "b"
        keys.hit(5, "c");
        keys.advance(6);
        QCOMPARE(keys.allTime("a"), Count(0));
        QCOMPARE(keys.allTime("c"), Count(2));
        QCOMPARE(keys.count("c", 6), Count(2));
        QCOMPARE(keys.foldedHits(), Count(9));
        QCOMPARE(keys.foldedKeys(), Count(2));
        QCOMPARE(keys.windowCounts(6), (std::vector<KeyCount>{{"c", 2}}));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(KeyedCounterTest)
#include "tst_keyed_counter.moc"
