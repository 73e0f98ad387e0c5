// WindowPeak (core/limiters/window_peak.h): the header example, the boundary burst of
// `fixed` against the sliding log, and the peak against brute force on random streams.
#include <QTest>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/limiters/limiter_factory.h"
#include "core/limiters/window_peak.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

class WindowPeakTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerExample() {
        WindowPeak peak(60s);
        peak.record("a", 58);
        peak.record("a", 59);
        peak.record("a", 60, 2);
        QCOMPARE(peak.peak(), Count{4});
        QCOMPARE(peak.peakTime(), Timestamp{60});
        peak.record("a", 118);
        QCOMPARE(peak.peak(), Count{4});
        peak.record("b", 119, 3);
        QCOMPARE(peak.peak(), Count{4});
        QCOMPARE(peak.peakKey(), std::string_view("a"));
    }

    void fixedWindowPeaksAtTwiceTheLimit() {
        for (const auto& [name, expected] :
             {std::pair{"fixed", 4}, {"log", 2}, {"counter", 3}, {"bucket", 2}}) {
            auto limiter = makeLimiter(name, {2, 60s});
            WindowPeak peak(60s);
            for (const Timestamp t : {58, 59, 60, 61})
                peak.record("a", t, limiter->admit("a", t));
            QCOMPARE(peak.peak(), Count(expected));
        }
    }

    void matchesBruteForce_data() {
        QTest::addColumn<qlonglong>("per");
        QTest::addColumn<qulonglong>("seed");
        for (const qlonglong per : {1, 7, 60})
            for (qulonglong seed = 1; seed <= 3; ++seed)
                QTest::addRow("W=%lld seed %llu", per, seed) << per << seed;
    }
    void matchesBruteForce() {
        QFETCH(qlonglong, per);
        QFETCH(qulonglong, seed);
        std::mt19937_64 random(seed);
        WindowPeak peak{std::chrono::seconds{per}};
        std::map<std::string, std::vector<std::pair<Timestamp, Count>>> history;
        Timestamp t = 0;
        Count expected = 0;
        for (int i = 0; i < 500; ++i) {
            t += static_cast<Timestamp>(random() % static_cast<std::uint64_t>(per + 2));
            const std::string key = "k" + std::to_string(random() % 4);
            const Count n = 1 + random() % 3;
            peak.record(key, t, n);
            auto& h = history[key];
            h.emplace_back(t, n);
            Count inWindow = 0;
            for (const auto& [e, c] : h)
                inWindow += t - e < per ? c : 0;
            expected = std::max(expected, inWindow);
            QCOMPARE(peak.peak(), expected);
        }
        QVERIFY(peak.liveKeys() <= 4);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(WindowPeakTest)
#include "tst_window_peak.moc"
