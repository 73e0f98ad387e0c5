// The learner's ring (issue 16, build 4): the reference choices never differ from RingCounter;
// each wrong choice is caught at the first step where it must differ, with the kind and the
// narration naming it; the text form round-trips and bad text is refused with a reason.
#include <QTest>
#include <algorithm>
#include <random>

#include "core/counters/ring_counter.h"
#include "core/teach/practice.h"
#include "core/teach/ring_variant.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::teach;

Q_DECLARE_METATYPE(hitcounter::teach::RingVariant)

namespace {

std::vector<Operation> ops(const std::string& text) {
    return std::get<std::vector<Operation>>(parseOperations(text));
}

RingVariant variant(const std::string& text) {
    const auto parsed = parseVariant(text);
    if (const auto* e = std::get_if<TextProblem>(&parsed)) {
        qFatal("bad variant %s: %s", text.c_str(), e->message.c_str());
    }
    return std::get<RingVariant>(parsed);
}

// Random operations: seconds mostly moving on with repeats, late hits inside and outside the
// window, gaps longer than W, getHits at the head, ahead of it and into the past. 400 of them.
std::vector<Operation> randomOperations(std::uint64_t seed, Timestamp w) {
    std::mt19937_64 rng(seed);
    auto below = [&rng](std::uint64_t n) { return std::int64_t(rng() % n); };
    std::vector<Operation> out;
    Timestamp head = below(std::uint64_t(w));
    for (int k = 0; k < 400; ++k) {
        Operation op;
        const auto roll = below(100);
        if (roll < 45) {
            head += below(3);
            op.second = head;
            op.repeat = Count(1 + below(4));
        } else if (roll < 60) {
            op.second = std::max<Timestamp>(0, head - below(std::uint64_t(w) + 3));
            op.repeat = Count(1 + below(2));
        } else if (roll < 64) {
            head += w + below(std::uint64_t(2 * w));
            op.second = head;
        } else {
            op.kind = Operation::Kind::GetHits;
            op.second = std::max<Timestamp>(0, head + below(std::uint64_t(w) + 4) - 2 -
                                                   (roll < 80 ? below(std::uint64_t(w)) : 0));
        }
        out.push_back(op);
    }
    return out;
}

}  // namespace

class TestRingVariant : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void referenceChoicesNeverDifferOnRandomSequences() {
        for (int w : {5, 10, 300}) {
            for (std::uint64_t seed = 1; seed <= 25; ++seed) {
                const auto o = randomOperations(seed * 7919 + std::uint64_t(w), w);
                const VariantRun run = runVariant(RingVariant{}, o, std::chrono::seconds{w});
                QVERIFY2(!run.difference, run.difference ? run.difference->narration.c_str() : "");
                QCOMPARE(run.steps.size(), o.size());
                // The run really compared answers: the reference side is RingCounter's.
                RingCounter ring(std::chrono::seconds{w});
                for (std::size_t k = 0; k < o.size(); ++k) {
                    if (o[k].kind == Operation::Kind::Hit) {
                        ring.hit(o[k].second, o[k].repeat);
                    } else {
                        const Count expected = ring.count(o[k].second);
                        QCOMPARE(*run.steps[k].reference.answer, expected);
                        QCOMPARE(*run.steps[k].mine.answer, expected);
                    }
                }
            }
        }
    }

    // The lazy reset is not the only correct ring: clearing the skipped slots (a sweep) is
    // also right, with or without a stored second, except that a count-only ring cannot answer
    // a query into the past.
    void sweepIsCorrectAndCountOnlySweepOnlyFailsIntoThePast() {
        for (int w : {5, 10, 300}) {
            for (std::uint64_t seed = 1; seed <= 10; ++seed) {
                auto o = randomOperations(seed, w);
                const VariantRun run =
                    runVariant(variant("reset=sweep"), o, std::chrono::seconds{w});
                QVERIFY2(!run.difference, run.difference ? run.difference->narration.c_str() : "");
                std::optional<Timestamp> head;
                std::erase_if(o, [&](const Operation& op) {
                    const bool past =
                        op.kind == Operation::Kind::GetHits && head && op.second < *head;
                    if (!past &&
                        (op.kind == Operation::Kind::GetHits || !head || op.second > *head - w)) {
                        head = std::max(head.value_or(op.second), op.second);
                    }
                    return past;
                });
                const VariantRun countOnly =
                    runVariant(variant("reset=sweep,store=count"), o, std::chrono::seconds{w});
                QVERIFY2(!countOnly.difference,
                         countOnly.difference ? countOnly.difference->narration.c_str() : "");
            }
        }
    }

    // Each wrong choice: the first step where its state already differs (the divergence, kind
    // and values as before issue 24), and the failure: the first wrong answer, whose narration
    // traces it back to the cause (issue 24, wrong 5: only a wrong answer is a failure, and a
    // renumbering is none).
    void wrongChoiceIsCaughtAtItsFirstDifferingStep_data() {
        QTest::addColumn<QString>("choice");
        QTest::addColumn<QString>("operations");
        QTest::addColumn<int>("step");
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("mine");
        QTest::addColumn<QString>("reference");
        QTest::addColumn<QString>("named");  // a phrase the divergence's narration contains
        QTest::addColumn<int>("failStep");   // the wrong answer
        QTest::addColumn<QString>("failNamed");
        QTest::newRow("compare >= counts the boundary second")
            << "compare=>="
            << "hit 5; hit 6; getHits 14; getHits 15" << 4 << "answer"
            << "2"
            << "1"
            << "s.second >= head - W counts second 5" << 4
            << "s.second >= head - W counts second 5";
        QTest::newRow("compare >= keeps a hit exactly W late")
            << "compare=>="
            << "hit 12; hit 3; hit 2; hit 12; getHits 12" << 3 << "dropped"
            << "kept"
            << "dropped"
            << "2 <= 12 - 10" << 5 << "hit(2) at step 3 is exactly W seconds older than the head";
        QTest::newRow("index t%(W+1) names slot W")
            << "index=t%(W+1)"
            << "hit 1; hit 9; getHits 9; hit 10; getHits 10" << 4 << "out_of_range"
            << "slot 10 (none)"
            << "slot 0"
            << "10 mod 11 = 10" << 5 << "the missing slot lost the hit";
        QTest::newRow("index t%(W-1) shares a slot")
            << "index=t%(W-1)"
            << "hit 1; hit 8; hit 9; hit 10; getHits 10" << 3 << "slot"
            << "slot 0"
            << "slot 9"
            << "9 mod 9 = 0" << 5 << "two seconds of one window share a slot";
        QTest::newRow("reset never adds to the stale count")
            << "reset=never"
            << "hit 3; hit 3; getHits 3; hit 13; getHits 13" << 4 << "count"
            << "(13, 3)"
            << "(13, 1)"
            << "your reset rule (never) keeps the old count" << 5
            << "your ring never resets a slot";
        QTest::newRow("reset only at count 0 never resets a written slot")
            << "reset=zero"
            << "hit 4; hit 6; hit 14; getHits 14" << 3 << "count"
            << "(14, 2)"
            << "(14, 1)"
            << "your reset rule (zero)" << 4
            << "only when the count is 0) never fires on a written slot";
        QTest::newRow("count only, never reset")
            << "store=count,reset=never"
            << "hit 1; hit 2; getHits 5; hit 11; getHits 11" << 4 << "count"
            << "(?, 2)"
            << "(11, 1)"
            << "older second" << 5 << "still held 1 hit of an older second";
        QTest::newRow("count only with a sweep, a query into the past")
            << "store=count,reset=sweep"
            << "hit 1; hit 12; getHits 12; getHits 5" << 4 << "answer"
            << "1"
            << "0"
            << "seconds after 5" << 4 << "seconds after 5";
        // t mod (W + 1) below slot W only renumbers the slots: no divergence, no failure.
        QTest::newRow("index t%(W+1) renumbering is harmless")
            << "index=t%(W+1)"
            << "hit 12; hit 13; getHits 13; getHits 22" << -1 << ""
            << ""
            << ""
            << "" << -1 << "";
    }

    void wrongChoiceIsCaughtAtItsFirstDifferingStep() {
        QFETCH(QString, choice);
        QFETCH(QString, operations);
        QFETCH(int, step);
        QFETCH(QString, what);
        QFETCH(QString, mine);
        QFETCH(QString, reference);
        QFETCH(QString, named);
        QFETCH(int, failStep);
        QFETCH(QString, failNamed);
        const VariantRun run = runVariant(variant(choice.toStdString()),
                                          ops(operations.toStdString()), std::chrono::seconds{10});
        QCOMPARE(run.divergence.has_value(), step > 0);
        QCOMPARE(run.difference.has_value(), failStep > 0);
        if (step > 0) {
            const Difference& d = *run.divergence;
            QCOMPARE(int(d.step), step);
            QCOMPARE(QString::fromStdString(d.what), what);
            QCOMPARE(QString::fromStdString(d.mine), mine);
            QCOMPARE(QString::fromStdString(d.reference), reference);
            QVERIFY2(d.narration.find(named.toStdString()) != std::string::npos,
                     d.narration.c_str());
            QVERIFY2(d.narration.find("share a slot") == std::string::npos ||
                         choice.contains(QStringLiteral("W-1")),
                     d.narration.c_str());
        }
        if (failStep > 0) {
            const Difference& f = *run.difference;
            QCOMPARE(int(f.step), failStep);
            QCOMPARE(int(run.steps.size()), failStep);  // the run stops at the failure
            QCOMPARE(f.what, std::string("answer"));
            QVERIFY2(f.narration.find(failNamed.toStdString()) != std::string::npos,
                     f.narration.c_str());
        } else {
            QCOMPARE(run.steps.size(), ops(operations.toStdString()).size());
        }
        // The same operations with the reference's choices do not differ.
        QVERIFY(!runVariant(RingVariant{}, ops(operations.toStdString()), std::chrono::seconds{10})
                     .difference);
    }

    // Every wrong choice differs somewhere on random operations, at every W (the tests above
    // pin the step on a chosen sequence; this checks that none of them hides on long runs).
    void everyWrongChoiceDiffersOnRandomSequences() {
        for (const char* choice :
             {"compare=>=", "index=t%(W+1)", "index=t%(W-1)", "reset=never", "reset=zero",
              "store=count,reset=never", "store=count,reset=zero", "store=count,reset=sweep"}) {
            for (int w : {5, 10, 300}) {
                // Then every second busy for 2W: at W = 300 the random seconds span less than a
                // window, where t mod (W - 1) only renumbers (no wrong answer, issue 24).
                auto o = randomOperations(11, w);
                const Timestamp last = std::max_element(o.begin(), o.end(), [](auto& a, auto& b) {
                                           return a.second < b.second;
                                       })->second;
                for (Timestamp t = last + 1; t <= last + 2 * w; ++t) {
                    Operation hit;
                    hit.second = t;
                    o.push_back(hit);
                    Operation get;
                    get.kind = Operation::Kind::GetHits;
                    get.second = t;
                    o.push_back(get);
                }
                const VariantRun run = runVariant(variant(choice), o, std::chrono::seconds{w});
                QVERIFY2(run.difference, choice);
                QVERIFY(!run.difference->narration.empty());
            }
        }
    }

    void bothSidesAreShownAtTheDifference() {
        const VariantRun run = runVariant(variant("reset=never"), ops("hit 3; hit 13; getHits 13"),
                                          std::chrono::seconds{10});
        QVERIFY(run.difference);
        QVERIFY(run.divergence && run.divergence->step == 2);
        const VariantStep& last = run.steps[1];
        QCOMPARE(last.mine.slots.size(), std::size_t(10));
        QCOMPARE(last.reference.slots.size(), std::size_t(10));
        QCOMPARE(last.mine.slots[3], (VariantSlot{13, 2, true, true}));
        QCOMPARE(last.reference.slots[3], (VariantSlot{13, 1, true, true}));
        QCOMPARE(*last.mine.slot, std::size_t(3));
        QVERIFY(!last.mine.slots[4].used);
    }

    void textFormRoundTripsAndBadTextIsNamed() {
        QCOMPARE(formatVariant(RingVariant{}),
                 std::string("compare=>,index=t%W,reset=second,store=second+count"));
        for (const char* text : {"compare=>=,index=t%(W+1),reset=never,store=second+count",
                                 "compare=>,index=t%(W-1),reset=sweep,store=count",
                                 "compare=>,index=t%W,reset=zero,store=count"}) {
            QCOMPARE(formatVariant(variant(text)), std::string(text));
        }
        QCOMPARE(variant(" index = t % w , compare = >= "),
                 (RingVariant{RingVariant::Compare::GreaterEqual}));
        QCOMPARE(variant(""), RingVariant{});
        const auto bad = [](const char* text) {
            const auto parsed = parseVariant(text);
            return std::holds_alternative<TextProblem>(parsed)
                       ? std::get<TextProblem>(parsed).message
                       : std::string();
        };
        QVERIFY(bad("compare=<").find("compare is > or >=") != std::string::npos);
        QVERIFY(bad("index=t%2").find("t%W, t%(W+1) or t%(W-1)") != std::string::npos);
        QVERIFY(bad("colour=red").find("unknown key 'colour'") != std::string::npos);
        QVERIFY(bad("compare").find("expected key=value") != std::string::npos);
        QVERIFY(bad("store=count").find("reset=second needs store=second+count") !=
                std::string::npos);
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestRingVariant)
#include "tst_ring_variant.moc"
