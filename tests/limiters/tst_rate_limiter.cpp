// The rate limiters (core/limiters/rate_limiter.h): every algorithm against a brute-force
// oracle that keeps each key's whole history, the boundary example of the header, integer
// exactness at t ~ 2*10^9 with products beyond 64 bits, and eviction keeping memory bounded
// at 10^6 distinct keys.
#include <QTest>

#include <algorithm>
#include <charconv>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/base/saturating.h"
#include "core/limiters/limiter_factory.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace std::chrono_literals;

namespace {

struct Request {
    Timestamp t = 0;
    std::string key;
    Count n = 1;
};

// Decides each request from the definitions in the issue, over the full history of accepted
// requests (it never forgets a key). Each request of a batch is decided alone.
class Oracle {
public:
    Oracle(std::string algorithm, Count limit, std::int64_t per)
        : m_algorithm(std::move(algorithm)), m_limit(limit), m_per(per) {}

    Count admit(const Request& request) {
        m_now = std::max(m_now, request.t);
        auto& history = m_history[request.key];
        Count accepted = 0;
        while (accepted < request.n && acceptsOne(history)) {
            history.push_back(m_now);
            ++accepted;
        }
        return accepted;
    }

private:
    Count countWhere(const std::vector<Timestamp>& history, auto predicate) const {
        return static_cast<Count>(std::count_if(history.begin(), history.end(), predicate));
    }

    bool acceptsOne(const std::vector<Timestamp>& history) const {
        const Timestamp now = m_now;
        const std::int64_t w = m_per;
        const auto limit = static_cast<std::int64_t>(m_limit);
        if (m_algorithm == "fixed")
            return countWhere(history, [&](Timestamp e) { return e / w == now / w; }) < m_limit;
        if (m_algorithm == "log")
            return countWhere(history, [&](Timestamp e) { return now - e < w; }) < m_limit;
        if (m_algorithm == "counter") {
            const auto curr = static_cast<std::int64_t>(
                countWhere(history, [&](Timestamp e) { return e / w == now / w; }));
            const auto prev = static_cast<std::int64_t>(
                countWhere(history, [&](Timestamp e) { return e / w == now / w - 1; }));
            return prev * (w - now % w) + curr * w < limit * w;
        }
        // Token bucket, capacity L, rate L/W, full at the start: the tokens before a request
        // are min over s in {now} and the accepted times of L + (now - s) L/W - A[s, now],
        // A counting the accepted requests at or after s. Scaled by W.
        std::vector<Timestamp> starts = history;
        starts.push_back(now);
        return std::all_of(starts.begin(), starts.end(), [&](Timestamp s) {
            const auto taken =
                static_cast<std::int64_t>(countWhere(history, [&](Timestamp e) { return e >= s; }));
            return limit * w + (now - s) * limit - taken * w >= w;
        });
    }

    std::string m_algorithm;
    Count m_limit;
    std::int64_t m_per;
    Timestamp m_now = 0;
    std::map<std::string, std::vector<Timestamp>> m_history;
};

// Three keys; gaps mostly inside the period, sometimes several periods (so keys are evicted
// and come back), sometimes a late request; mostly single requests, sometimes a batch of up
// to L + 2 (so every limit sees rejections).
std::vector<Request> randomStream(std::uint64_t seed, Count limit, std::int64_t per, int requests) {
    std::mt19937_64 random(seed);
    std::vector<Request> stream;
    Timestamp t = static_cast<Timestamp>(random() % 1000);
    for (int i = 0; i < requests; ++i) {
        const auto roll = random() % 20;
        if (roll < 12)
            t += static_cast<Timestamp>(random() % static_cast<std::uint64_t>(per / 2 + 1));
        else if (roll < 18)
            t += static_cast<Timestamp>(random() % static_cast<std::uint64_t>(per + 1));
        else
            t += static_cast<Timestamp>(random() % static_cast<std::uint64_t>(3 * per + 1));
        const Timestamp late = random() % 10 == 0 ? static_cast<Timestamp>(random() % 5) : 0;
        const Count n = random() % 8 == 0 ? 1 + random() % (limit + 2) : 1;
        stream.push_back({std::max<Timestamp>(0, t - late), "k" + std::to_string(random() % 3), n});
    }
    return stream;
}

std::string names(const std::vector<Count>& decisions) {
    std::string text;
    for (const Count d : decisions)
        text += d == 1 ? 'A' : 'R';
    return text;
}

}  // namespace

class RateLimiterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchesBruteForceOracle_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<qulonglong>("limit");
        QTest::addColumn<qlonglong>("per");
        QTest::addColumn<qulonglong>("seed");
        const std::pair<Count, std::int64_t> limits[] = {{1, 1},  {1, 5},  {2, 60}, {3, 7},
                                                         {5, 10}, {10, 3}, {4, 1}};
        for (const auto name : limiterNames()) {
            for (const auto& [limit, per] : limits) {
                for (qulonglong seed = 1; seed <= 3; ++seed) {
                    const QString algorithm = QString::fromLatin1(name.data(), name.size());
                    QTest::addRow("%s L=%llu W=%lld seed %llu", name.data(),
                                  static_cast<unsigned long long>(limit),
                                  static_cast<long long>(per), seed)
                        << algorithm << qulonglong{limit} << qlonglong{per} << seed;
                }
            }
        }
    }
    void matchesBruteForceOracle() {
        QFETCH(QString, algorithm);
        QFETCH(qulonglong, limit);
        QFETCH(qlonglong, per);
        QFETCH(qulonglong, seed);
        const std::string name = algorithm.toStdString();
        auto limiter = makeLimiter(name, {limit, std::chrono::seconds{per}});
        QVERIFY(limiter);
        Oracle oracle(name, limit, per);
        Count accepted = 0;
        Count rejected = 0;
        const auto stream = randomStream(seed, limit, per, 400);
        for (std::size_t i = 0; i < stream.size(); ++i) {
            const Request& r = stream[i];
            const Count expected = oracle.admit(r);
            const Count got = limiter->admit(r.key, r.t, r.n);
            if (got != expected)
                QFAIL(qPrintable(QStringLiteral("request %1 (t %2, key %3, n %4): accepted %5, "
                                                "the oracle accepts %6")
                                     .arg(i)
                                     .arg(r.t)
                                     .arg(QString::fromStdString(r.key))
                                     .arg(r.n)
                                     .arg(got)
                                     .arg(expected)));
            accepted += got;
            rejected += r.n - got;
        }
        // The streams exercise both decisions and the eviction of idle keys.
        QVERIFY(accepted > 0);
        QVERIFY(rejected > 0);
        QVERIFY(limiter->evictedKeys() > 0);
        QVERIFY(limiter->liveKeys() <= 3);
    }

    void boundaryExample_data() {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<qlonglong>("offset");
        QTest::addColumn<QString>("decisions");
        const std::pair<const char*, const char*> expected[] = {
            {"fixed", "AAAA"}, {"log", "AARR"}, {"counter", "AARA"}, {"bucket", "AARR"}};
        // 2 000 000 040 is a multiple of 60: the same example near t = 2*10^9.
        for (const qlonglong offset : {qlonglong{0}, qlonglong{2'000'000'040}}) {
            for (const auto& [name, decisions] : expected)
                QTest::addRow("%s at +%lld", name, offset)
                    << QString::fromLatin1(name) << offset << QString::fromLatin1(decisions);
        }
    }
    void boundaryExample() {
        QFETCH(QString, algorithm);
        QFETCH(qlonglong, offset);
        QFETCH(QString, decisions);
        auto limiter = makeLimiter(algorithm.toStdString(), {2, 60s});
        std::vector<Count> got;
        for (const Timestamp t : {58, 59, 60, 61})
            got.push_back(limiter->admit("a", offset + t));
        QCOMPARE(QString::fromStdString(names(got)), decisions);
    }

    void headerExamplesAfterTheBurst() {
        auto log = makeLimiter("log", {2, 60s});
        auto bucket = makeLimiter("bucket", {2, 60s});
        for (const Timestamp t : {58, 59, 60, 61}) {
            log->admit("a", t);
            bucket->admit("a", t);
        }
        QCOMPARE(log->admit("a", 117), Count{0});    // 59 still inside (57, 117]
        QCOMPARE(log->admit("a", 118), Count{1});    // 58 expired
        QCOMPARE(bucket->admit("a", 87), Count{0});  // 2 + 28 x 2 = 58 units < 60
        QCOMPARE(bucket->admit("a", 88), Count{1});  // exactly one token
    }

    void batchAcceptsAPrefixAndRejectsTheRest() {
        for (const auto name : limiterNames()) {
            auto limiter = makeLimiter(name, {3, 10s});
            QCOMPARE(limiter->admit("a", 100, 5), Count{3});
            QCOMPARE(limiter->admit("a", 100, 5), Count{0});
            QCOMPARE(limiter->admit("a", 100, 0), Count{0});
            QCOMPARE(limiter->admit("b", 100, 1), Count{1});
        }
    }

    void lateRequestIsDecidedAtTheNewestSecond() {
        for (const auto name : limiterNames()) {
            auto limiter = makeLimiter(name, {1, 10s});
            QCOMPARE(limiter->admit("a", 100), Count{1});
            QCOMPARE(limiter->admit("b", 125), Count{1});
            // At 125 the key "a" is fresh again for every algorithm (counter: 2W = 20 s).
            QCOMPARE(limiter->admit("a", 90), Count{1});
            QCOMPARE(limiter->admit("a", 80), Count{0});
        }
    }

    void outOfRangeLimitIsRejected() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeLimiter("log", {0, 60s}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeLimiter("log", {1, 0s}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, makeLimiter("fixed", {1, -5s}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 makeLimiter("bucket", {kMaxRateLimit + 1, 1s}));
        QVERIFY(makeLimiter("leaky", {1, 1s}) == nullptr);
    }

    // Refilling W seconds of a token bucket gives exactly L tokens, split over two refills
    // whose shares are not whole: L x W = 2.8 * 10^19 does not fit in 64 bits, and a double
    // (53 bits) could not hold these token counts exactly.
    void bucketRefillIsExactWithLargeLimits() {
        const Count limit = 4'000'000'000'000'000'000ULL;
        auto bucket = makeLimiter("bucket", {limit, 7s});
        const Timestamp t0 = 2'000'000'000;
        QCOMPARE(bucket->admit("a", t0, kMaxCount), limit);
        QCOMPARE(bucket->admit("a", t0, 1), Count{0});
        const Count first = bucket->admit("a", t0 + 3, kMaxCount);
        QCOMPARE(first, Count{1'714'285'714'285'714'285ULL});  // floor(3L / 7)
        const Count second = bucket->admit("a", t0 + 7, kMaxCount);
        QCOMPARE(second, Count{2'285'714'285'714'285'715ULL});  // the fractions add up
        QCOMPARE(first + second, limit);
    }

    void counterWeightIsExactWithLargeLimits() {
        const Count limit = 4'000'000'000'000'000'000ULL;
        const std::int64_t per = 1'000'000'000;
        auto counter = makeLimiter("counter", {limit, std::chrono::seconds{per}});
        const Timestamp t0 = 2'000'000'000;  // the start of window 2
        QCOMPARE(counter->admit("a", t0, kMaxCount), limit);
        // Window 3, 3 s in: L x (W - 3) + j x W < L x W  <=>  j < 3L / W = 1.2 * 10^10.
        QCOMPARE(counter->admit("a", t0 + per + 3, kMaxCount), Count{12'000'000'000ULL});
        QCOMPARE(counter->admit("a", t0 + per + 3), Count{0});
    }

    void extremeLimitsDoNotOverflow_data() {
        QTest::addColumn<QString>("algorithm");
        for (const auto name : limiterNames())
            QTest::newRow(name.data()) << QString::fromLatin1(name.data(), name.size());
    }
    void extremeLimitsDoNotOverflow() {
        QFETCH(QString, algorithm);
        auto limiter = makeLimiter(algorithm.toStdString(), {kMaxRateLimit, kMaxRatePeriod});
        const Timestamp t0 = 2'000'000'000;
        QCOMPARE(limiter->admit("a", t0, kMaxCount), kMaxRateLimit);
        QCOMPARE(limiter->admit("a", t0 + 1, 1), algorithm == QLatin1String("bucket")
                                                     ? Count{1}  // L/W = 1 token per second
                                                     : Count{0});
    }

    // 10^6 distinct keys, 1000 a second: the live keys stay within those accepted in the
    // idle horizon, and memory with them.
    void evictionBoundsMemoryAtAMillionKeys_data() {
        QTest::addColumn<QString>("algorithm");
        for (const auto name : limiterNames())
            QTest::newRow(name.data()) << QString::fromLatin1(name.data(), name.size());
    }
    void evictionBoundsMemoryAtAMillionKeys() {
        QFETCH(QString, algorithm);
        auto limiter = makeLimiter(algorithm.toStdString(), {5, 10s});
        constexpr int kKeys = 1'000'000;
        constexpr int kPerSecond = 1000;
        const auto horizon = limiter->idleHorizon().count();
        const std::size_t bound = static_cast<std::size_t>(kPerSecond * (horizon + 1));
        char key[16] = "key";
        std::size_t peakMemory = 0;
        for (int i = 0; i < kKeys; ++i) {
            const auto end = std::to_chars(key + 3, key + sizeof key, i).ptr;
            if (limiter->admit(std::string_view(key, end), 1'000'000 + i / kPerSecond) != 1)
                QFAIL("a fresh key's first request was rejected");
            if (i % 100'000 == 99'999) {
                QVERIFY2(limiter->liveKeys() <= bound, qPrintable(QString::number(i)));
                peakMemory = std::max(peakMemory, limiter->memoryBytes());
            }
        }
        QVERIFY(limiter->evictedKeys() >= Count{kKeys - bound});
        // A few dozen bytes per live key (key, state, node, list links, buckets).
        QVERIFY2(peakMemory <= 160 * bound, qPrintable(QString::number(peakMemory)));
        limiter->advance(2'000'000 + 10 * horizon);
        QCOMPARE(limiter->liveKeys(), std::size_t{0});
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(RateLimiterTest)
#include "tst_rate_limiter.moc"
