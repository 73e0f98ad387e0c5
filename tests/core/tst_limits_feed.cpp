// LimitsFeed, the Rate limits lab on the counting thread: its decisions are the LimitLab's on
// the same events, its per-second records are contiguous and bounded, frames applied as the
// GUI applies them (incrementally, with skipped frames merged) rebuild exactly the full
// history, and a disabled feed does nothing.
#include <QTest>
#include <deque>
#include <random>

#include "core/engine/limits_feed.h"
#include "core/limiters/limit_lab.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

LimitsOptions options(Count l, std::int64_t w, bool perKey = true) {
    LimitsOptions o;
    o.enabled = true;
    o.limit = RateLimit{l, std::chrono::seconds(w)};
    o.perKey = perKey;
    return o;
}

// Random per-key traffic with gaps and late events.
HitBatch randomEvents(unsigned seed, int n) {
    std::mt19937 rng(seed);
    HitBatch events;
    Timestamp t = 1000;
    for (int i = 0; i < n; ++i) {
        t += rng() % 4 == 0 ? Timestamp(rng() % 3) : 0;
        const Timestamp time = rng() % 10 == 0 ? t - Timestamp(rng() % 5) : t;
        events.push_back(
            HitEvent{time, "k" + std::to_string(rng() % 7), "v", Count(1 + rng() % 3)});
    }
    return events;
}

// Applies a frame's history as MainWindow / LimitsView do.
void applyFrame(std::deque<LimitSecond>& held, const LimitsFrame& frame) {
    if (frame.rebuild) {
        held.clear();
    }
    for (const LimitSecond& r : frame.history) {
        if (!held.empty() && r.second <= held.back().second && r.second >= held.front().second) {
            held[std::size_t(r.second - held.front().second)] = r;
        } else {
            held.push_back(r);
        }
    }
    while (held.size() > frame.options.historySeconds) {
        held.pop_front();
    }
}

void compareHistory(const std::deque<LimitSecond>& a, const std::deque<LimitSecond>& b) {
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].second, b[i].second);
        QCOMPARE(a[i].accepted, b[i].accepted);
        QCOMPARE(a[i].rejected, b[i].rejected);
        QCOMPARE(a[i].windowMax, b[i].windowMax);
    }
}

}  // namespace

class TestLimitsFeed : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decisionsAreTheLabsOnTheSameEvents_data() {
        QTest::addColumn<bool>("perKey");
        QTest::newRow("per key") << true;
        QTest::newRow("all traffic") << false;
    }
    void decisionsAreTheLabsOnTheSameEvents() {
        QFETCH(bool, perKey);
        const HitBatch events = randomEvents(7, 3000);
        const LimitsOptions o = options(5, 9, perKey);
        LimitsFeed feed(o);
        feed.feed(events);
        LimitLab lab(o.algorithms, o.limit);
        for (const HitEvent& e : events) {
            lab.admit(perKey ? std::string_view(e.key) : kAllTrafficKey, e.time, e.count);
        }
        LimitsFrame frame;
        feed.fill(frame, nullptr);
        QCOMPARE(frame.lanes.size(), lab.lanes().size());
        for (std::size_t i = 0; i < frame.lanes.size(); ++i) {
            QCOMPARE(frame.lanes[i].accepted, lab.lanes()[i].accepted);
            QCOMPARE(frame.lanes[i].rejected, lab.lanes()[i].rejected);
            QCOMPARE(frame.lanes[i].maxInAnyWindow, lab.lanes()[i].peak.peak());
            QCOMPARE(frame.lanes[i].memoryBytes, lab.lanes()[i].limiter->memoryBytes());
            // per-second sums are the totals; windowMax never exceeds the peak
            Count accepted = 0;
            Count rejected = 0;
            for (const LimitSecond& s : frame.history) {
                accepted += s.accepted[i];
                rejected += s.rejected[i];
                QVERIFY(s.windowMax[i] <= frame.lanes[i].maxInAnyWindow);
            }
            QCOMPARE(accepted, frame.lanes[i].accepted);
            QCOMPARE(rejected, frame.lanes[i].rejected);
        }
        // records are contiguous seconds up to the head
        for (std::size_t s = 1; s < frame.history.size(); ++s) {
            QCOMPARE(frame.history[s].second, frame.history[s - 1].second + 1);
        }
        QCOMPARE(frame.history.back().second, frame.head);
        QVERIFY(frame.lanes[0].rejected > 0);
    }

    void incrementalFramesRebuildTheFullHistory() {
        const HitBatch events = randomEvents(11, 4000);
        LimitsOptions o = options(4, 6);
        o.historySeconds = 200;  // shorter than the trace: the front is trimmed too
        LimitsFeed feed(o);
        std::deque<LimitSecond> held;
        std::shared_ptr<LimitsFrame> untaken;
        std::mt19937 rng(3);
        for (std::size_t i = 0; i < events.size(); i += 37) {
            const std::size_t n = std::min<std::size_t>(37, events.size() - i);
            feed.feed(std::span(events).subspan(i, n));
            auto frame = std::make_shared<LimitsFrame>();
            feed.fill(*frame, untaken.get());
            if (rng() % 3 == 0) {
                untaken = frame;  // the GUI did not take it: the next one replaces it
                continue;
            }
            untaken.reset();
            applyFrame(held, *frame);
        }
        if (untaken) {
            applyFrame(held, *untaken);
        }
        compareHistory(held, feed.history());
        QVERIFY(held.size() <= 200);
    }

    void aLongGapStartsANewHistoryAndResetForgetsEverything() {
        LimitsOptions o = options(2, 60);
        o.historySeconds = 100;
        LimitsFeed feed(o);
        feed.feed(HitBatch{{10, "a", "", 1}, {12, "a", "", 1}});
        QCOMPARE(feed.history().size(), std::size_t(3));
        LimitsFrame first;
        feed.fill(first, nullptr);
        QVERIFY(first.rebuild);
        feed.feed(HitBatch{{500, "a", "", 1}});  // 487 quiet seconds > 100
        QCOMPARE(feed.history().size(), std::size_t(1));
        LimitsFrame second;
        feed.fill(second, nullptr);
        QVERIFY(second.rebuild);
        QCOMPARE(second.history.size(), std::size_t(1));
        QCOMPARE(second.lanes[0].accepted, Count(3));  // the lab itself keeps counting
        feed.reset();
        LimitsFrame third;
        feed.fill(third, nullptr);
        QVERIFY(third.rebuild);
        QVERIFY(third.empty);
        QCOMPARE(third.lanes[0].accepted, Count(0));
        QVERIFY(third.history.empty());
        QCOMPARE(third.options, o);
    }

    void aDisabledFeedDoesNothing() {
        LimitsFeed feed;
        QVERIFY(!feed.enabled());
        feed.feed(randomEvents(1, 100));
        LimitsFrame frame;
        feed.fill(frame, nullptr);
        QVERIFY(frame.empty);
        QVERIFY(frame.lanes.empty());
        QVERIFY(frame.history.empty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LimitsFeed(options(0, 60)));
    }

    void rejectedKeysAreRankedAcrossAlgorithms() {
        LimitsFeed feed(options(1, 60));
        HitBatch events;
        for (int i = 0; i < 5; ++i) {
            events.push_back(HitEvent{100 + i, "hot", "", 3});
            events.push_back(HitEvent{100 + i, "warm", "", 1});
        }
        feed.feed(events);
        LimitsFrame frame;
        feed.fill(frame, nullptr);
        QCOMPARE(frame.rejectedKeys.size(), std::size_t(2));
        QCOMPARE(frame.rejectedKeys[0].key, std::string("hot"));
        QCOMPARE(frame.rejectedKeys[0].rejected.size(), frame.lanes.size());
        // fixed (L = 1 per minute): hot accepted 1 of 15, warm 1 of 5
        QCOMPARE(frame.rejectedKeys[0].rejected[0], Count(14));
        QCOMPARE(frame.rejectedKeys[1].rejected[0], Count(4));
        QCOMPARE(frame.lanes[0].topRejected[0].key, std::string("hot"));
    }
};

HITCOUNTER_TEST_MAIN(TestLimitsFeed)
#include "tst_limits_feed.moc"
