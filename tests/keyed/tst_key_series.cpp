// KeySeries (core/keyed/key_series.h): prefix-sum windows, late hits, expiry, against a plain
// list of hits.
#include <QTest>

#include <map>
#include <random>

#include "core/keyed/key_series.h"
#include "tests/test_main.h"

using namespace hitcounter;

class KeySeriesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerExample() {
        KeySeries s;
        s.hit(10, 2);
        s.hit(10, 1);
        s.hit(12, 4);
        QCOMPARE(s.pointCount(), std::size_t{2});
        QCOMPARE(s.between(9, 12), Count{7});
        QCOMPARE(s.between(10, 12), Count{4});
        QCOMPARE(s.between(11, 11), Count{0});
        QCOMPARE(s.total(), Count{7});
        s.expire(10);
        QCOMPARE(s.pointCount(), std::size_t{1});
        QCOMPARE(s.total(), Count{7});
        QCOMPARE(s.between(10, 12), Count{4});
    }

    void baseCarriesAnEarlierTotal() {
        KeySeries s(40);
        QCOMPARE(s.total(), Count{40});
        s.hit(5, 2);
        QCOMPARE(s.total(), Count{42});
        QCOMPARE(s.between(0, 5), Count{2});
    }

    void anyWindowMatchesAPlainCount() {
        KeySeries s;
        std::map<Timestamp, Count> hits;
        std::mt19937_64 random(3);
        Timestamp now = 0;
        Timestamp expired = -1;
        for (int i = 0; i < 5000; ++i) {
            now += static_cast<Timestamp>(random() % 3);
            // One hit in four is late, up to 20 seconds back but after the expiry bound.
            const Timestamp t =
                random() % 4 == 0 ? std::max(expired + 1, now - Timestamp(random() % 20)) : now;
            const Count n = 1 + random() % 3;
            s.hit(t, n);
            hits[t] += n;
            if (i % 100 == 99) {
                expired = now - 50;
                s.expire(expired);
            }
            const Timestamp to = now - static_cast<Timestamp>(random() % 10);
            const Timestamp from = std::max(expired, to - 1 - Timestamp(random() % 40));
            Count expected = 0;
            for (auto it = hits.upper_bound(from); it != hits.end() && it->first <= to; ++it) {
                expected += it->second;
            }
            QCOMPARE(s.between(from, to), expected);
        }
        Count all = 0;
        for (const auto& [t, n] : hits) {
            all += n;
        }
        QCOMPARE(s.total(), all);
        QVERIFY(s.pointCount() <= 60);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(KeySeriesTest)
#include "tst_key_series.moc"
