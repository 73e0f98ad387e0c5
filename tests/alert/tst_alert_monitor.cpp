// AlertMonitor: firing and clearing seconds against a brute-force evaluation written here
// (window counts summed from the list of hits, the rule's state walked second by second),
// on hand-made streams and on random ones with bursts and gaps longer than the window; a gap
// of a billion seconds evaluated at once; late hits; names.
#include <QTest>

#include <cmath>
#include <limits>
#include <random>

#include "core/alert/alert_monitor.h"
#include "tests/test_main.h"

using namespace hitcounter;

namespace {

constexpr std::chrono::seconds kWindow{300};
constexpr Timestamp kNotHeld = std::numeric_limits<Timestamp>::min();  // no streak yet

AlertRule parsed(const std::string& text) {
    return std::move(std::get<AlertRule>(AlertRule::parse(text)));
}

std::vector<AlertRule> rules(std::initializer_list<std::string> texts) {
    std::vector<AlertRule> out;
    for (const std::string& t : texts)
        out.push_back(parsed(t));
    return out;
}

// A hit of the test's own: its second, and whether it is an error (series bit 0).
struct Hit {
    Timestamp time;
    bool error;
};

HitEvent eventOf(const Hit& h) {
    HitEvent e;
    e.time = h.time;
    e.series = h.error ? 1 : 0;
    return e;
}

// Replays `hits` (in time order) as the CLI does: before each hit, the seconds before it.
std::vector<AlertEvent> run(AlertMonitor& monitor, const std::vector<Hit>& hits, Timestamp end) {
    std::vector<AlertEvent> events;
    const auto take = [&](std::vector<AlertEvent> more) {
        events.insert(events.end(), more.begin(), more.end());
    };
    for (const Hit& h : hits) {
        take(monitor.advanceTo(h.time - 1));
        monitor.add(eventOf(h));
    }
    take(monitor.advanceTo(end));
    return events;
}

// "1900 fire", "104 clear": a transition as the comparisons show it.
QString transition(Timestamp second, bool firing) {
    return QStringLiteral("%1 %2").arg(second).arg(firing ? "fire" : "clear");
}

// The rule "errors / all > ratio for hold clear < clearRatio" walked second by second from
// the first hit to `end`, its window counts summed from `hits` directly.
QStringList bruteForce(const std::vector<Hit>& hits, double ratio, Timestamp hold,
                       double clearRatio, Timestamp end) {
    QStringList out;
    bool firing = false;
    Timestamp heldSince = kNotHeld;
    for (Timestamp s = hits.front().time; s <= end; ++s) {
        double all = 0, errors = 0;
        for (const Hit& h : hits)
            if (h.time > s - kWindow.count() && h.time <= s) {
                ++all;
                errors += h.error ? 1 : 0;
            }
        const bool defined = all > 0;
        const double value = defined ? errors / all : 0;
        if (firing) {
            if (!defined || value < clearRatio) {
                firing = false;
                out.push_back(transition(s, false));
            }
            continue;
        }
        if (!defined || !(value > ratio)) {
            heldSince = kNotHeld;
            continue;
        }
        if (heldSince == kNotHeld)
            heldSince = s;
        if (s - heldSince >= hold) {
            firing = true;
            heldSince = kNotHeld;
            out.push_back(transition(s, true));
        }
    }
    return out;
}

QStringList secondsOf(const std::vector<AlertEvent>& events) {
    QStringList out;
    for (const AlertEvent& e : events)
        out.push_back(transition(e.second, e.firing));
    return out;
}

}  // namespace

class AlertMonitorTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theHeadersExample() {
        AlertMonitor monitor(rules({"errors: count(status=5xx) / count(*) > 50% for 2s"}), kWindow);
        QCOMPARE(monitor.series()->at(0).text(), std::string("status=5xx"));
        const auto events =
            run(monitor, {{10, true}, {10, false}, {11, true}, {12, true}, {13, true}}, 13);
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(events[0].second, Timestamp(13));
        QVERIFY(events[0].firing);
        QCOMPARE(events[0].value, 0.8);
        QCOMPARE(monitor.name(0), std::string("errors"));
        QVERIFY(monitor.state(0) == AlertState::Firing);
    }

    void aFiringRuleClearsWithHysteresis() {
        // Errors 3 of 4 hits, then only good hits: the ratio falls each second; it clears
        // below 40 %, not at 60 %.
        AlertMonitor monitor(rules({"count(status=5xx) / count(*) > 60% clear < 40%"}), kWindow);
        std::vector<Hit> hits{{100, true}, {100, true}, {100, true}, {100, false}};
        for (Timestamp t = 101; t <= 110; ++t)
            hits.push_back({t, false});
        const auto events = run(monitor, hits, 110);
        // 3/4 = 75 % at 100 fires; 3/5 = 60 % at 101 does not clear (no longer above, but not
        // below 40 %); 3/8 = 37.5 % at 104 clears.
        QCOMPARE(secondsOf(events), (QStringList{transition(100, true), transition(104, false)}));
        QCOMPARE(monitor.name(0), std::string("rule1"));
        QVERIFY(events[1].value < 0.4);
    }

    void randomStreamsEqualTheBruteForce() {
        std::mt19937_64 random(2026);
        for (int round = 0; round < 40; ++round) {
            // Bursts of mostly good hits, error storms, and quiet gaps up to twice the window.
            std::vector<Hit> hits;
            Timestamp t = 1'000'000;
            std::uniform_int_distribution<int> phase(0, 9), step(0, 3), gap(1, 700);
            while (hits.size() < 400) {
                const int kind = phase(random);
                const int length = step(random) * 10 + 5;
                for (int i = 0; i < length; ++i) {
                    t += kind == 0 ? gap(random) : step(random);
                    const bool storm = kind >= 8;
                    hits.push_back({t, storm ? (random() % 4 != 0) : (random() % 20 == 0)});
                }
            }
            const Timestamp hold = Timestamp(step(random) * 7);
            const Timestamp end = t + 400;
            AlertMonitor monitor(rules({"count(status=5xx) / count(*) > 25% for " +
                                        std::to_string(hold) + "s clear < 10%"}),
                                 kWindow);
            const auto got = secondsOf(run(monitor, hits, end));
            const auto want = bruteForce(hits, 0.25, hold, 0.10, end);
            if (got != want)
                qInfo("round %d, hold %lld", round, static_cast<long long>(hold));
            QCOMPARE(got, want);
        }
    }

    void aRuleHeldThroughAGapFiresInsideIt() {
        // "No traffic for 10 minutes": the window is empty from 1300 on (the last hit at
        // 1000, window 300), so the rule holds from 1300 and fires at 1900, inside a gap
        // evaluated at once up to a billion seconds later.
        AlertMonitor monitor(rules({"quiet: count(*) < 1 for 10m"}), kWindow);
        monitor.add(eventOf({1000, false}));
        const auto events = monitor.advanceTo(1'000'000'000);
        QCOMPARE(secondsOf(events), (QStringList{transition(1900, true)}));
        QCOMPARE(*monitor.evaluatedThrough(), Timestamp(1'000'000'000));
        // Due exactly at the last second of a jump: fired there, not one later.
        AlertMonitor exact(rules({"quiet: count(*) < 1 for 10m"}), kWindow);
        exact.add(eventOf({1000, false}));
        QVERIFY(exact.advanceTo(1899).empty());
        QCOMPARE(secondsOf(exact.advanceTo(1900)), (QStringList{transition(1900, true)}));
        // The next hit clears it at its own second.
        monitor.add(eventOf({1'000'000'001, false}));
        QCOMPARE(secondsOf(monitor.advanceTo(1'000'000'001)),
                 (QStringList{transition(1'000'000'001, false)}));
    }

    // A live source that stays silent from its start: evaluated from startAt() on, its empty
    // windows count 0 (defined), so "no traffic" fires, inside one jump.
    void evaluationStartsAtStartAtWithoutAnyHit() {
        AlertMonitor monitor(
            rules({"quiet: count(*) < 1 for 10s", "ratio: count(*) / count(*) > 0"}), kWindow);
        monitor.startAt(100);
        QCOMPARE(secondsOf(monitor.advanceTo(109)), QStringList{});
        QCOMPARE(secondsOf(monitor.advanceTo(5000)), (QStringList{transition(110, true)}));
        monitor.startAt(7000);  // started already: no effect
        QCOMPARE(*monitor.evaluatedThrough(), Timestamp(5000));
    }

    void aLateHitCountsFromTheNextEvaluation() {
        AlertMonitor monitor(rules({"count(*) >= 3"}), kWindow);
        monitor.add(eventOf({50, false}));
        monitor.add(eventOf({51, false}));
        QVERIFY(monitor.advanceTo(52).empty());
        monitor.add(eventOf({49, false}));  // late, but in the window
        QCOMPARE(secondsOf(monitor.advanceTo(53)), (QStringList{transition(53, true)}));
        // Nothing is evaluated before the first hit.
        AlertMonitor empty(rules({"count(*) < 1"}), kWindow);
        QVERIFY(empty.advanceTo(100).empty());
        QVERIFY(!empty.evaluatedThrough().has_value());
    }

    // Response times and bytes: 100 fast hits a second (0.1 s), then from 110 to 119 five of
    // them slow (3 s), 5xx and 200 bytes each. p99 and the 5xx bytes by hand: the nearest-rank
    // p99 of n times is slow once more than n - ceil(0.99 n) of them are (0.1 and 3 s lie far
    // on either side of the thresholds, so the sketch's 1 % cannot move a transition).
    void responseTimesAndBytesByHand() {
        AlertMonitor monitor(
            rules({"slow: p99(*) > 1 for 2s clear < 0.5", "heavy: bytes(status=5xx) >= 3000"}),
            kWindow);
        QVERIFY(monitor.series() != nullptr);
        QStringList got, want;
        qint64 fast = 0, slow = 0;
        bool slowFiring = false, heavyFiring = false;
        Timestamp heldSince = kNotHeld;
        for (Timestamp s = 100; s <= 260; ++s) {
            for (const AlertEvent& e : monitor.advanceTo(s - 1))
                got << transition(e.second, e.firing) + " " +
                           QString::fromStdString(monitor.name(e.rule));
            const int slowNow = s >= 110 && s < 120 ? 5 : 0;
            for (int i = 0; i < 100; ++i) {
                HitEvent e;
                e.time = s;
                e.seconds = i < slowNow ? 3.0f : 0.1f;
                e.bytes = i < slowNow ? 200 : 10;
                e.series = i < slowNow ? 1 : 0;
                monitor.add(e);
            }
            fast += 100 - slowNow;
            slow += slowNow;
            const qint64 n = fast + slow;
            const bool p99Slow = slow > n - qint64(std::ceil(0.99 * double(n)));
            if (!slowFiring && p99Slow) {
                if (heldSince == kNotHeld)
                    heldSince = s;
                if (s - heldSince >= 2) {
                    slowFiring = true;
                    want << transition(s, true) + " slow";
                }
            } else if (!slowFiring) {
                heldSince = kNotHeld;
            } else if (!p99Slow) {
                slowFiring = false;
                heldSince = kNotHeld;
                want << transition(s, false) + " slow";
            }
            if (!heavyFiring && slow * 200 >= 3000) {
                heavyFiring = true;
                want << transition(s, true) + " heavy";
            }
        }
        for (const AlertEvent& e : monitor.advanceTo(260))
            got << transition(e.second, e.firing) + " " +
                       QString::fromStdString(monitor.name(e.rule));
        QVERIFY2(want.size() == 3, qPrintable(want.join(", ")));  // fired, cleared; heavy fired
        QCOMPARE(got, want);
    }

    void countsSaturate() {
        AlertMonitor monitor(rules({"count(*) > 1000000"}), kWindow);
        HitEvent huge;
        huge.time = 5;
        huge.count = std::numeric_limits<Count>::max();
        monitor.add(huge);
        monitor.add(huge);
        const auto events = monitor.advanceTo(5);
        QCOMPARE(events.size(), std::size_t(1));
        QCOMPARE(events[0].value, double(std::numeric_limits<Count>::max()));
    }

    void namesMustDiffer() {
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            AlertMonitor(rules({"a: count(*) > 1", "a: count(*) > 2"}), kWindow));
        // Unnamed rules take their place's name; a rule naming no filter needs no series.
        AlertMonitor monitor(rules({"count(*) > 1", "b: rate(*) > 2"}), kWindow);
        QCOMPARE(monitor.name(0), std::string("rule1"));
        QCOMPARE(monitor.name(1), std::string("b"));
        QVERIFY(monitor.series() == nullptr);
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(AlertMonitorTest)
#include "tst_alert_monitor.moc"
