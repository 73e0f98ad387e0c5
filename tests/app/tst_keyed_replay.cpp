// KeyedReplay: the tables of `replay --top K` and `--uniques`, driven by ReplayRun's query
// hook, against a brute-force count in streaming order on random Zipf traces with late rows.
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "app/cli/keyed_replay.h"
#include "app/cli/replay_run.h"
#include "core/counters/counter_factory.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::cli;
using namespace std::chrono_literals;

namespace {
// Zipf(1.1) keys over 300 names, visitors from 40 per key, mostly in time order with one row
// in eight up to 20 s late.
std::vector<HitEvent> zipfTrace(std::uint64_t seed, int rows) {
    std::mt19937_64 random(seed);
    std::vector<double> cdf;
    double sum = 0;
    for (int k = 1; k <= 300; ++k) {
        sum += 1.0 / std::pow(k, 1.1);
        cdf.push_back(sum);
    }
    std::uniform_real_distribution<double> uniform(0.0, sum);
    std::vector<HitEvent> trace;
    for (int i = 0; i < rows; ++i) {
        const auto rank = std::lower_bound(cdf.begin(), cdf.end(), uniform(random)) - cdf.begin();
        Timestamp t = i / 10;
        if (random() % 8 == 0)
            t = std::max<Timestamp>(0, t - static_cast<Timestamp>(random() % 20));
        trace.push_back({t, "page/" + std::to_string(rank), "v" + std::to_string(random() % 40),
                         1 + random() % 3});
    }
    return trace;
}

// Each query T sees the rows before the first later row whose time is > T (streaming order).
std::vector<std::vector<HitEvent>> seenAt(const std::vector<HitEvent>& trace,
                                          const std::vector<Timestamp>& queries) {
    std::vector<std::vector<HitEvent>> seen;
    std::size_t cut = 0;
    for (const Timestamp q : queries) {
        while (cut < trace.size() && trace[cut].time <= q)
            ++cut;
        seen.emplace_back(trace.begin(), trace.begin() + static_cast<std::ptrdiff_t>(cut));
    }
    return seen;
}

std::string replayed(KeyedReplay::Mode mode, const std::vector<HitEvent>& trace,
                     const std::vector<Timestamp>& queries, std::chrono::seconds window,
                     std::size_t k) {
    KeyedReplay keyed(mode, window, k);
    ReplayRun run(std::vector<std::unique_ptr<WindowCounter>>{}, queries);
    run.setOnAnswer([&keyed](Timestamp time) { keyed.answer(time); });
    for (const HitEvent& event : trace) {
        run.add(event);
        keyed.add(event);
    }
    run.finish();
    return keyed.csv();
}

std::vector<std::vector<std::string>> rowsOf(const std::string& csv) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream lines(csv);
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> fields;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');)
            fields.push_back(cell);
        rows.push_back(fields);
    }
    return rows;
}
}  // namespace

class TestKeyedReplay : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void headerExample() {
        const std::vector<HitEvent> trace{
            {1, "home", "u1", 1}, {2, "home", "u2", 1}, {3, "about", "u1", 1}};
        QCOMPARE(replayed(KeyedReplay::Mode::Top, trace, {4}, 300s, 5),
                 std::string("time,rank,key,count\n4,1,home,2\n4,2,about,1\n"));
        QCOMPARE(replayed(KeyedReplay::Mode::Uniques, trace, {4}, 300s, 0),
                 std::string("time,key,uniques\n4,about,1\n4,home,2\n4,*,2\n"));
    }

    void topEqualsBruteForceInStreamingOrder_data() {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<int>("window");
        QTest::newRow("seed 1, W=60") << quint64{1} << 60;
        QTest::newRow("seed 2, W=300") << quint64{2} << 300;
        QTest::newRow("seed 3, W=7") << quint64{3} << 7;
    }
    void topEqualsBruteForceInStreamingOrder() {
        QFETCH(quint64, seed);
        QFETCH(int, window);
        const auto trace = zipfTrace(seed, 6000);
        const std::vector<Timestamp> queries{0, 45, 100, 250, 400, 599, 700};
        constexpr std::size_t kTop = 8;
        std::string expected = "time,rank,key,count\n";
        const auto seen = seenAt(trace, queries);
        for (std::size_t q = 0; q < queries.size(); ++q) {
            std::map<std::string, Count> counts;
            for (const HitEvent& e : seen[q])
                if (e.time > queries[q] - window && e.time <= queries[q])
                    counts[e.key] += e.count;
            std::vector<std::pair<std::string, Count>> ranked(counts.begin(), counts.end());
            std::stable_sort(ranked.begin(), ranked.end(),
                             [](const auto& a, const auto& b) { return a.second > b.second; });
            for (std::size_t r = 0; r < std::min(kTop, ranked.size()); ++r)
                expected += std::to_string(queries[q]) + ',' + std::to_string(r + 1) + ',' +
                            ranked[r].first + ',' + std::to_string(ranked[r].second) + '\n';
        }
        QCOMPARE(
            replayed(KeyedReplay::Mode::Top, trace, queries, std::chrono::seconds{window}, kTop),
            expected);
    }

    void uniquesMatchBruteForceWithinTheSketchBound() {
        const auto trace = zipfTrace(4, 6000);
        const std::vector<Timestamp> queries{30, 200, 450, 599};
        constexpr Timestamp kWindow = 120;
        const auto rows = rowsOf(
            replayed(KeyedReplay::Mode::Uniques, trace, queries, std::chrono::seconds{kWindow}, 0));
        const auto seen = seenAt(trace, queries);
        std::size_t row = 1;
        for (std::size_t q = 0; q < queries.size(); ++q) {
            std::map<std::string, std::set<std::string>> visitors;
            for (const HitEvent& e : seen[q]) {
                if (e.time > queries[q] - kWindow && e.time <= queries[q]) {
                    visitors[e.key].insert(e.visitor);
                    visitors["*"].insert(e.visitor);
                }
            }
            const std::size_t keys = visitors.size() - 1;
            for (std::size_t i = 0; i <= keys; ++i, ++row) {
                QCOMPARE(rows[row][0], std::to_string(queries[q]));
                const std::string& key = rows[row][1];
                QVERIFY(visitors.count(key) == 1);
                QCOMPARE(i == keys, key == "*");
                const double truth = static_cast<double>(visitors[key].size());
                QVERIFY(std::abs(std::stod(rows[row][2]) - truth) <= 2);
            }
        }
        QCOMPARE(row, rows.size());
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestKeyedReplay)
#include "tst_keyed_replay.moc"
