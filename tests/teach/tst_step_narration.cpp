// The facts of a step (step_facts.h) and the words built from them (step_narration.h): the
// running total's narration of every getHits, on every ring lesson and on practice runs with
// late hits and queries into the past, against a plain count of the operations; both listings
// word a hit alike, the scan's adding only what the deque and the vector did.
#include <QTest>

#include <algorithm>
#include <map>

#include "core/teach/lessons.h"
#include "core/teach/practice.h"
#include "core/teach/step_facts.h"
#include "core/teach/step_narration.h"
#include "core/teach/timeline.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::teach;

namespace {

std::vector<Operation> parseOk(const std::string& text) {
    ParseResult result = parseOperations(text);
    if (auto* error = std::get_if<hitcounter::TextProblem>(&result)) {
        qFatal("operations do not parse: %s", error->describe().c_str());
    }
    return std::get<std::vector<Operation>>(result);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// One getHits worked out from the operations alone (no ring, no frame): the hits accepted so
// far per second, the newest second before the query, and the seconds it counts.
struct Query {
    Timestamp second = 0;
    bool past = false;                    // before the newest second
    Timestamp head = 0;                   // max(newest second, t)
    std::map<Timestamp, Count> counted;   // second -> hits, in (head - W, t]
    std::size_t writtenInHeadWindow = 0;  // distinct hit seconds in (head - W, head]
    Count answer() const {
        Count n = 0;
        for (const auto& [s, c] : counted)
            n += c;
        return n;
    }
};

// The getHits of `ops` by step (1-based), by a plain run over the calls.
std::map<std::size_t, Query> queryModel(const std::vector<Operation>& ops, std::int64_t w) {
    std::map<Timestamp, Count> perSecond;
    std::optional<Timestamp> newest;
    std::map<std::size_t, Query> out;
    for (std::size_t k = 0; k < ops.size(); ++k) {
        const Operation& op = ops[k];
        if (op.kind == Operation::Kind::Hit) {
            if (newest && op.second <= *newest - w)
                continue;  // too late: dropped
            perSecond[op.second] += op.repeat;
            newest = std::max(newest.value_or(op.second), op.second);
            continue;
        }
        Query q;
        q.second = op.second;
        q.past = newest && op.second < *newest;
        q.head = std::max(newest.value_or(op.second), op.second);
        for (const auto& [s, c] : perSecond) {
            if (s > q.head - w && s <= op.second)
                q.counted[s] = c;
            if (s > q.head - w && s <= q.head)
                ++q.writtenInHeadWindow;
        }
        newest = q.head;
        out[k + 1] = q;
    }
    return out;
}

std::string windowOf(Timestamp low, Timestamp high) {
    return "(" + std::to_string(low) + ", " + std::to_string(high) + "]";
}

std::string hits(Count n) {
    return std::to_string(n) + (n == 1 ? " hit." : " hits.");
}

// What the running total must say it adds up: the slots of the counted seconds (each in its
// own slot, s mod W: the window is at most W seconds wide), by slot.
std::string addedSlots(const Query& q, std::int64_t w) {
    std::vector<std::pair<Timestamp, Timestamp>> slots;  // (slot, second)
    for (const auto& [s, c] : q.counted)
        slots.push_back({s % w, s});
    std::sort(slots.begin(), slots.end());
    if (slots.empty())
        return "there are none";
    if (slots.size() > 3)
        return std::to_string(slots.size()) + " slots";
    std::string out = slots.size() == 1 ? "slot " : "slots ";
    for (std::size_t i = 0; i < slots.size(); ++i) {
        if (i > 0)
            out += i + 1 == slots.size() ? " and " : ", ";
        out += std::to_string(slots[i].first) + " (second " + std::to_string(slots[i].second) + ")";
    }
    return out;
}

struct Run {
    std::string name;
    std::string operations;
    int window;
};

std::vector<Run> runs() {
    std::vector<Run> out;
    for (const Lesson& l : lessons()) {
        if (l.kind != LessonKind::Ring)
            continue;
        for (int w : {5, 10, int(l.window.count())})
            out.push_back({l.id + " W=" + std::to_string(w), l.operations, w});
    }
    for (int w : {5, 10, 300}) {
        for (std::uint64_t seed = 1; seed <= 8; ++seed)
            out.push_back({"practice " + std::to_string(seed) + " W=" + std::to_string(w),
                           practiceOperations(seed, std::chrono::seconds{w}), w});
    }
    return out;
}

const Frame& stepOf(const Timeline& t, Operation::Kind kind, Timestamp second) {
    for (const Frame& f : t.frames())
        if (f.op && f.op->kind == kind && f.op->second == second)
            return f;
    qFatal("no such step");
}

}  // namespace

class TestStepNarration : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void runningTotalNarratesEveryQueryFromItsFacts_data() {
        QTest::addColumn<std::string>("operations");
        QTest::addColumn<int>("window");
        for (const Run& r : runs())
            QTest::newRow(r.name.c_str()) << r.operations << r.window;
    }
    // A query into the past: the running total covers only (head - W, head] and adds up the
    // slots of the seconds in the query's window, named, with their sum; a query at or after
    // the head returns the running total. The facts and the Cost line agree with the count.
    void runningTotalNarratesEveryQueryFromItsFacts() {
        QFETCH(std::string, operations);
        QFETCH(int, window);
        const auto ops = parseOk(operations);
        const Timeline timeline(ops, std::chrono::seconds{window}, Code::RunningTotal);
        const auto model = queryModel(ops, window);
        int past = 0;
        for (const auto& [step, q] : model) {
            const Frame& f = timeline.frames()[step];
            const std::string& text = f.narration;
            const std::string call = "getHits(" + std::to_string(q.second) + ")";
            const std::string asked = windowOf(q.head - window, q.second);
            QVERIFY2(text.starts_with(call), text.c_str());
            const StepFacts facts =
                stepFacts(f, timeline.frames()[step - 1], window, Code::RunningTotal);
            const auto& query = std::get<QueryFacts>(facts.operation);
            QCOMPARE(query.past, q.past);
            QCOMPARE(query.answer, q.answer());
            std::vector<SlotSecond> summed;
            for (const auto& [s, c] : q.counted)
                summed.push_back({std::size_t(s % window), s, c});
            std::sort(summed.begin(), summed.end(),
                      [](const SlotSecond& a, const SlotSecond& b) { return a.slot < b.slot; });
            QVERIFY(query.summed == summed);
            if (q.past) {
                ++past;
                QVERIFY2(contains(text, "The running total covers only (head - W, head] = " +
                                            windowOf(q.head - window, q.head) +
                                            ", so it adds up the written slots whose second "
                                            "is in " +
                                            asked + ": " + addedSlots(q, window) + ", " +
                                            hits(q.answer())),
                         text.c_str());
                QVERIFY2(!contains(text, "returns the running total"), text.c_str());
                const std::size_t n = q.writtenInHeadWindow;
                QVERIFY2(contains(f.costText, "adds up the " + std::to_string(n) +
                                                  (n == 1 ? " written slot " : " written slots ")),
                         f.costText.c_str());
            } else {
                QVERIFY2(text.starts_with(call +
                                          " returns the running total, the hits in the "
                                          "window " +
                                          asked + ": " + hits(q.answer())),
                         text.c_str());
                QVERIFY2(!contains(text, "covers only"), text.c_str());
            }
            // The running total's lesson shows no deque or vector, and neither does its text.
            for (const char* aside : {"deque", "naive vector scans", "Memory:"})
                QVERIFY2(!contains(text, aside), text.c_str());
        }
        if (contains(operations, "practice"))
            QVERIFY(past > 0);  // practice runs of the default level ask about the past
    }

    // The textbook scan words its own way of answering; a hit reads alike in both listings,
    // the scan's only adding what the deque and the vector did.
    void bothListingsShareTheFactsButNotTheWay_data() {
        runningTotalNarratesEveryQueryFromItsFacts_data();
    }
    void bothListingsShareTheFactsButNotTheWay() {
        QFETCH(std::string, operations);
        QFETCH(int, window);
        const auto ops = parseOk(operations);
        const Timeline scan(ops, std::chrono::seconds{window});
        const Timeline running(ops, std::chrono::seconds{window}, Code::RunningTotal);
        const auto model = queryModel(ops, window);
        for (std::size_t k = 1; k < scan.frames().size(); ++k) {
            const Frame& f = scan.frames()[k];
            const std::string& text = f.narration;
            QCOMPARE(f.costText, running.frames()[k].costText);
            if (f.op->kind == Operation::Kind::Hit) {
                QVERIFY2(text.starts_with(running.frames()[k].narration), text.c_str());
                QCOMPARE(contains(text, " The deque pops "), !f.popped.empty());
                continue;
            }
            const Query& q = model.at(k);
            QVERIFY2(!contains(text, "running total"), text.c_str());
            const std::string answer = windowOf(q.head - window, q.second);
            QVERIFY2(contains(text, q.past ? " (not " + windowOf(q.second - window, q.second) +
                                                 "): " + hits(q.answer())
                                           : " adds the slots whose second is in the window " +
                                                 answer + ": " + hits(q.answer())),
                     text.c_str());
            QVERIFY2(contains(text, " The naive vector scans every call it ever stored: " +
                                        std::to_string(f.naive.size()) + "."),
                     text.c_str());
        }
    }

    // The running-total lesson's query into the past, whole (W = 10, head 12, slot 5 holds
    // second 5 of (2, 8]; slot 2 holds 12, in the head's window but after 8).
    void runningTotalLessonsPastQuery() {
        const Lesson& lesson =
            *std::find_if(lessons().begin(), lessons().end(),
                          [](const Lesson& l) { return l.id == "running-total"; });
        const Timeline timeline(parseOk(lesson.operations), lesson.window, lesson.code);
        QCOMPARE(stepOf(timeline, Operation::Kind::GetHits, 8).narration,
                 std::string("getHits(8) asks about the past: the newest second is 12, so seconds "
                             "up to 2 are already forgotten and the window is (2, 8] (not (-2, "
                             "8]). The running total covers only (head - W, head] = (2, 12], so "
                             "it adds up the written slots whose second is in (2, 8]: slot 5 "
                             "(second 5), 1 hit. Stale slot 1 (second 1) is left out."));
        QCOMPARE(stepOf(timeline, Operation::Kind::GetHits, 11).narration,
                 std::string("getHits(11) returns the running total, the hits in the window (1, "
                             "11]: 3 hits. Stale slot 1 (second 1) is left out."));
    }

    // What a ring of counts only would have cleared instead of a lazy reset, one case each.
    void aResetSaysWhatACountsOnlyRingClears_data() {
        QTest::addColumn<std::string>("operations");
        QTest::addColumn<int>("clear");
        QTest::addColumn<std::int64_t>("swept");
        QTest::addColumn<std::string>("words");
        QTest::newRow("the head moves on by one")
            << std::string("hit 3\nhit 12\nhit 13") << int(CountsOnlyClear::OneStep)
            << std::int64_t{0} << std::string("as the head reaches it");
        // Issue 25: the head reached 12 with getHits(12), so there was no way on to 12.
        QTest::newRow("the head is there already")
            << std::string("hit 2\ngetHits 12\nhit 12") << int(CountsOnlyClear::Reached)
            << std::int64_t{0} << std::string("when its head reached second 12).");
        QTest::newRow("a late hit")
            << std::string("hit 3\nhit 14\nhit 13") << int(CountsOnlyClear::Passed)
            << std::int64_t{0} << std::string("when its head passed second 13 on its way to 14");
        QTest::newRow("a gap") << std::string("hit 3\nhit 6\nhit 33") << int(CountsOnlyClear::Swept)
                               << std::int64_t{10}
                               << std::string(
                                      "moved from 6 to 33, where a ring of counts only "
                                      "would have had to sweep the 10 slots");
        QTest::newRow("a short jump")
            << std::string("hit 3\nhit 12\nhit 15\nhit 23") << int(CountsOnlyClear::Swept)
            << std::int64_t{8} << std::string("sweep the 8 slots");
    }
    void aResetSaysWhatACountsOnlyRingClears() {
        QFETCH(std::string, operations);
        QFETCH(int, clear);
        QFETCH(std::int64_t, swept);
        QFETCH(std::string, words);
        const Timeline timeline(parseOk(operations), std::chrono::seconds{10});
        const auto& frames = timeline.frames();
        const StepFacts facts = stepFacts(frames.back(), frames[frames.size() - 2], 10, Code::Scan);
        const auto& hit = std::get<HitFacts>(facts.operation);
        QVERIFY(hit.resetFrom);
        QCOMPARE(int(hit.countsOnly), clear);
        QCOMPARE(hit.sweptSlots, swept);
        QVERIFY2(contains(frames.back().narration, words), frames.back().narration.c_str());
        QCOMPARE(narration(facts), frames.back().narration);
    }

    // A dropped hit: its slot's owner is a fact, and the words name it.
    void aDroppedHitNamesItsSlotsOwner() {
        const Timeline timeline(parseOk("hit 12\nhit 2"), std::chrono::seconds{10});
        const StepFacts facts =
            stepFacts(timeline.frames()[2], timeline.frames()[1], 10, Code::RunningTotal);
        const auto& hit = std::get<HitFacts>(facts.operation);
        QVERIFY(hit.dropped);
        QCOMPARE(hit.owner, (std::optional<SlotSecond>{SlotSecond{2, 12, 1}}));
        QVERIFY(contains(narration(facts), "Its slot 2 belongs to second 12 now."));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestStepNarration)
#include "tst_step_narration.moc"
