// Timeline: every lesson stepped forward and back against an independent reference model of
// the ring, the deque and the naive vector; narration, resets, pops and memory.
#include <QTest>

#include <algorithm>
#include <map>

#include "core/teach/lessons.h"
#include "core/teach/timeline.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::teach;

namespace {

std::vector<Operation> parseOk(const std::string& text) {
    ParseResult result = parseOperations(text);
    if (auto* error = std::get_if<TextProblem>(&result)) {
        qFatal("lesson does not parse: %s", error->describe().c_str());
    }
    return std::get<std::vector<Operation>>(result);
}

// The cost model of issue 16 build 2, written from the operations alone: the textbook scan
// visits W slots per getHits and one per hit; the running total visits the slots whose second
// leaves the window when the head moves, plus a hit's own slot; a query into the past visits
// the window's written slots. (scan, running, expired slots) per operation.
struct Visits {
    std::size_t scan = 0;
    std::size_t running = 0;
    std::vector<std::size_t> expired;
};

std::vector<Visits> visitModel(const std::vector<Operation>& ops, std::int64_t w) {
    std::map<std::int64_t, std::pair<Timestamp, Count>> slots;  // slot -> (second, count)
    std::optional<Timestamp> head;
    std::vector<Visits> out;
    auto expire = [&](Timestamp newHead) {
        std::vector<std::pair<Timestamp, std::size_t>> leaving;
        if (head && newHead > *head) {
            for (const auto& [i, s] : slots) {
                if (s.first > *head - w && s.first <= newHead - w)
                    leaving.push_back({s.first, std::size_t(i)});
            }
        }
        std::sort(leaving.begin(), leaving.end());
        std::vector<std::size_t> expired;
        for (const auto& l : leaving)
            expired.push_back(l.second);
        return expired;
    };
    for (const Operation& op : ops) {
        Visits v;
        const std::int64_t i = ((op.second % w) + w) % w;
        if (op.kind == Operation::Kind::Hit) {
            if (head && op.second <= *head - w) {
                out.push_back(v);
                continue;
            }
            v.expired = expire(head ? std::max(*head, op.second) : op.second);
            v.scan = 1;
            v.running = v.expired.size() + 1;
            head = head ? std::max(*head, op.second) : op.second;
            auto& slot = slots[i];
            if (slot.first != op.second || slot.second == 0)
                slot = {op.second, 0};
            slot.second += op.repeat;
        } else {
            v.scan = std::size_t(w);
            if (head && op.second < *head) {
                for (const auto& [k, s] : slots)
                    v.running += s.first > *head - w ? 1 : 0;
            } else {
                v.expired = expire(op.second);
                v.running = v.expired.size();
                head = op.second;
            }
        }
        out.push_back(v);
    }
    return out;
}

// The textbook algorithms written out plainly, to check the frames recorded from the real
// counters. State after each operation.
struct Expected {
    std::vector<RingSlot> ring;
    std::vector<Pair> deque;
    std::vector<Pair> naive;
    std::optional<Count> answer;
};

std::vector<Expected> referenceRun(const std::vector<Operation>& ops, std::int64_t w) {
    std::vector<Expected> states;
    std::vector<RingSlot> ring(static_cast<std::size_t>(w));
    std::map<Timestamp, Count> perSecond;  // accepted hits; the deque is its suffix
    std::vector<Pair> naive;
    std::optional<Timestamp> head;
    auto snapshot = [&](std::optional<Count> answer) {
        Expected e;
        e.ring = ring;
        for (auto& s : e.ring) {
            s.inWindow = s.used && head && s.second > *head - w;
        }
        for (const auto& [second, count] : perSecond) {
            if (head && second > *head - w) {
                e.deque.push_back({second, count});
            }
        }
        e.naive = naive;
        e.answer = answer;
        return e;
    };
    states.push_back(snapshot(std::nullopt));
    for (const Operation& op : ops) {
        if (op.kind == Operation::Kind::Hit) {
            if (head && op.second <= *head - w) {
                states.push_back(snapshot(std::nullopt));
                continue;
            }
            head = head ? std::max(*head, op.second) : op.second;
            RingSlot& slot = ring[static_cast<std::size_t>(op.second % w)];
            if (!slot.used || slot.second != op.second) {
                slot = RingSlot{op.second, 0, false, true};
            }
            slot.count += op.repeat;
            perSecond[op.second] += op.repeat;
            for (Count i = 0; i < op.repeat; ++i) {
                naive.push_back({op.second, 1});
            }
            states.push_back(snapshot(std::nullopt));
        } else {
            head = head ? std::max(*head, op.second) : op.second;
            Count sum = 0;
            for (const auto& [second, count] : perSecond) {
                if (second > *head - w && second <= op.second) {
                    sum += count;
                }
            }
            states.push_back(snapshot(sum));
        }
    }
    return states;
}

void compareFrame(const Frame& frame, const Expected& expected, std::size_t step) {
    const QByteArray where = "step " + QByteArray::number(qulonglong(step));
    QVERIFY2(frame.step == step, where);
    QVERIFY2(frame.ring == expected.ring, where + ": ring differs");
    QVERIFY2(frame.deque == expected.deque, where + ": deque differs");
    QVERIFY2(frame.naive == expected.naive, where + ": naive vector differs");
    QVERIFY2(frame.answer == expected.answer, where + ": getHits answer differs");
    QVERIFY2(!frame.narration.empty(), where + ": no narration");
}

// The running-total listing (kRunningPseudocode), checked against the previous frame and plain
// recounts: the lines in the order the code runs them, the expired slots (those whose second
// leaves the window when the head moves, oldest first) subtracted one by one, the slot's state
// at each line and the total after it; a query into the past sums the window's written slots.
Count recountWindow(const Frame& f) {
    Count total = 0;
    for (const RingSlot& s : f.ring)
        total += s.used && s.inWindow ? s.count : 0;
    return total;
}

void checkRunningSubSteps(const Timeline& timeline, int window) {
    const auto& frames = timeline.frames();
    for (std::size_t k = 1; k < frames.size(); ++k) {
        const Frame& f = frames[k];
        const Frame& prev = frames[k - 1];
        const Operation& op = *f.op;
        QVERIFY(!f.subSteps.empty());
        QCOMPARE(f.codeLine, f.subSteps.back().line);
        for (const SubStep& s : f.subSteps)
            QCOMPARE(codeOf(s.line), Code::RunningTotal);
        Count total = recountWindow(prev);
        // The slots expire(t) must visit, oldest first.
        std::vector<std::size_t> expired;
        if (prev.head && op.second > *prev.head && !f.dropped) {
            for (std::size_t i = 0; i < prev.ring.size(); ++i)
                if (prev.ring[i].used && prev.ring[i].inWindow &&
                    prev.ring[i].second <= op.second - window)
                    expired.push_back(i);
            std::sort(expired.begin(), expired.end(), [&](std::size_t a, std::size_t b) {
                return prev.ring[a].second < prev.ring[b].second;
            });
        }
        std::vector<Line> want;
        auto expireLines = [&] {
            if (expired.empty())
                want.push_back(Line::RunExpireLoop);
            for (std::size_t j = 0; j < expired.size(); ++j)
                want.push_back(Line::RunExpireSubtract);
        };
        std::vector<Line> lines;
        for (const SubStep& s : f.subSteps)
            lines.push_back(s.line);
        // Each subtraction takes its slot's count out of the total, the slot kept as it was.
        std::size_t e = 0;
        for (const SubStep& s : f.subSteps) {
            if (s.line != Line::RunExpireSubtract)
                continue;
            QVERIFY(e < expired.size());
            QCOMPARE(*s.slot, expired[e]);
            RingSlot stale = prev.ring[expired[e]];
            stale.inWindow = false;
            QCOMPARE(s.slotState, stale);
            total -= stale.count;
            QCOMPARE(s.total, std::optional<Count>{total});
            ++e;
        }
        QCOMPARE(e, expired.size());
        if (op.kind == Operation::Kind::Hit) {
            QCOMPARE(f.subSteps.front().line, Line::RunDropLate);
            QCOMPARE(f.subSteps.front().taken, std::optional<bool>{f.dropped});
            if (f.dropped) {
                QCOMPARE(f.subSteps.size(), std::size_t{1});
                continue;
            }
            const std::size_t i = std::size_t(op.second % window);
            const RingSlot before = prev.ring[i];
            const bool differs = !before.used || before.second != op.second;
            want = {Line::RunDropLate, Line::RunExpire};
            if (prev.head && op.second > *prev.head)
                expireLines();
            for (Line l : {Line::RunMoveHead, Line::RunPickSlot, Line::RunCheckSecond})
                want.push_back(l);
            if (differs)
                want.push_back(Line::RunResetSlot);
            want.push_back(Line::RunAddCount);
            QVERIFY2(lines == want, f.subSteps.back().text.c_str());
            for (const SubStep& s : f.subSteps) {
                if (s.line == Line::RunDropLate || s.line == Line::RunExpire ||
                    s.line == Line::RunMoveHead || s.line == Line::RunPickSlot ||
                    s.line == Line::RunCheckSecond) {
                    QCOMPARE(s.slot, std::optional<std::size_t>{i});
                    QCOMPARE(s.slotState, before);
                }
                if (s.line == Line::RunResetSlot)
                    QCOMPARE(s.slotState, (RingSlot{op.second, 0, true, true}));
            }
            QCOMPARE(f.subSteps.back().slotState, f.ring[i]);
            QCOMPARE(f.subSteps.back().total, std::optional<Count>{total + op.repeat});
            QCOMPARE(*f.subSteps.back().total, recountWindow(f));
        } else {
            const bool past = prev.head && op.second < *prev.head;
            QCOMPARE(f.subSteps.front().line, Line::RunPastCheck);
            QCOMPARE(f.subSteps.front().taken, std::optional<bool>{past});
            if (past) {
                // One comparison per written slot of the window, then the return.
                std::size_t written = 0;
                for (const RingSlot& s : f.ring)
                    written += s.used && s.inWindow ? 1 : 0;
                want.assign(written + 2, Line::RunPastSum);
                want.front() = Line::RunPastCheck;
                QVERIFY(lines == want);
                QCOMPARE(f.subSteps.size() - 2, f.runningVisits);
            } else {
                want = {Line::RunPastCheck, Line::RunGetExpire};
                if (prev.head && op.second > *prev.head)
                    expireLines();
                want.push_back(Line::RunGetMoveHead);
                want.push_back(Line::RunGetReturn);
                QVERIFY(lines == want);
                QCOMPARE(*f.subSteps.back().total, recountWindow(f));
                QCOMPARE(expired.size(), f.runningVisits);
            }
            QCOMPARE(f.subSteps.back().total, f.answer);
        }
    }
}

const Lesson& lessonById(const std::string& id) {
    const auto& all = lessons();
    return *std::find_if(all.begin(), all.end(), [&](const Lesson& l) { return l.id == id; });
}

std::vector<Count> answers(const Timeline& timeline) {
    std::vector<Count> out;
    for (const Frame& f : timeline.frames()) {
        if (f.answer) {
            out.push_back(*f.answer);
        }
    }
    return out;
}

}  // namespace

class TestTimeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyLessonMatchesTheReferenceForwardAndBack_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < lessons().size(); ++i) {
            if (lessons()[i].kind == LessonKind::Ring)  // tst_limiter_timeline: the others
                QTest::newRow(lessons()[i].id.c_str()) << int(i);
        }
    }

    void everyLessonMatchesTheReferenceForwardAndBack() {
        QFETCH(int, index);
        const Lesson& lesson = lessons()[std::size_t(index)];
        QVERIFY(!lesson.title.empty());
        QVERIFY(lesson.goal.size() > 100);
        const auto ops = parseOk(lesson.operations);
        QVERIFY(!ops.empty());
        const Timeline timeline(ops, lesson.window);
        const auto expected = referenceRun(ops, lesson.window.count());
        QCOMPARE(timeline.frames().size(), ops.size() + 1);
        for (std::size_t k = 0; k < expected.size(); ++k) {
            compareFrame(timeline.frames()[k], expected[k], k);
        }
        for (std::size_t k = expected.size(); k-- > 0;) {
            compareFrame(timeline.frames()[k], expected[k], k);
        }
    }

    void leetCodeExampleAnswersThreeFourThree() {
        const Lesson& lesson = lessonById("example");
        QCOMPARE(lesson.window.count(), 300);
        const Timeline timeline(parseOk(lesson.operations), lesson.window);
        QCOMPARE(answers(timeline), (std::vector<Count>{3, 4, 3}));
        const Frame& last = timeline.frames().back();
        QCOMPARE(last.op->second, 301);
        QCOMPARE(last.popped, (std::vector<Pair>{{1, 1}}));
        QVERIFY(!last.ring[1].inWindow);
        QCOMPARE(last.ring[1].second, 1);
    }

    void scaledTwinGivesTheSameAnswers() {
        const Lesson& lesson = lessonById("example10");
        const Timeline timeline(parseOk(lesson.operations), lesson.window);
        QCOMPARE(answers(timeline), (std::vector<Count>{3, 4, 3}));
    }

    void resetOfAStaleSlotIsRecordedAndNarrated() {
        const Timeline timeline(parseOk("hit 1\nhit 301"), std::chrono::seconds{300});
        const Frame& f = timeline.frames()[2];
        QCOMPARE(f.slot, std::optional<std::size_t>{1});
        QCOMPARE(f.resetFrom, (std::optional<Pair>{Pair{1, 1}}));
        // The frame shows the slot after the add, so it ends on the add (issue 16, wrong 4);
        // the reset has its own sub-step, with the slot at (301, 0).
        QCOMPARE(f.codeLine, Line::AddCount);
        const auto reset = std::find_if(f.subSteps.begin(), f.subSteps.end(),
                                        [](const SubStep& s) { return s.line == Line::ResetSlot; });
        QVERIFY(reset != f.subSteps.end());
        QCOMPARE(reset->slotState, (RingSlot{301, 0, true, true}));
        QCOMPARE(f.subSteps.back().line, Line::AddCount);
        QCOMPARE(f.subSteps.back().slotState, f.ring[1]);
        QCOMPARE(f.ring[1], (RingSlot{301, 1, true, true}));
        const std::string sentence =
            "hit(301) lands in slot 1 (301 mod 300), which still holds second 1: that second "
            "left the window, so the slot is reset to (301, 1).";
        QVERIFY2(f.narration.find(sentence) != std::string::npos, f.narration.c_str());
    }

    void sameSecondAddsToTheSlotWithoutReset() {
        const Timeline timeline(parseOk("hit 4\nhit 4 x3"), std::chrono::seconds{10});
        const Frame& f = timeline.frames()[2];
        QVERIFY(!f.resetFrom);
        QCOMPARE(f.codeLine, Line::AddCount);
        QCOMPARE(f.ring[4].count, 4u);
        QCOMPARE(f.deque, (std::vector<Pair>{{4, 4}}));
        QCOMPARE(f.dequeTouched, std::optional<std::size_t>{0});
        QCOMPARE(f.naiveAdded, std::size_t{3});
        QVERIFY2(f.narration.find("from 1 to 4") != std::string::npos, f.narration.c_str());
    }

    void hitExactlyWindowAgoIsDroppedAndChangesNothing() {
        const Timeline timeline(parseOk("hit 12\nhit 2"), std::chrono::seconds{10});
        const Frame& before = timeline.frames()[1];
        const Frame& f = timeline.frames()[2];
        QVERIFY(f.dropped);
        QCOMPARE(f.codeLine, Line::DropLate);
        QVERIFY(f.ring == before.ring);
        QVERIFY(f.deque == before.deque);
        QVERIFY(f.naive == before.naive);
        QCOMPARE(f.head, std::optional<Timestamp>{12});
        QVERIFY2(f.narration.find("too late") != std::string::npos, f.narration.c_str());
        QVERIFY2(f.narration.find("slot 2 belongs to second 12") != std::string::npos,
                 f.narration.c_str());
    }

    void lateHitInsideWindowIsInsertedInOrder() {
        const Timeline timeline(parseOk("hit 3\nhit 8\nhit 6"), std::chrono::seconds{10});
        const Frame& f = timeline.frames()[3];
        QCOMPARE(f.deque, (std::vector<Pair>{{3, 1}, {6, 1}, {8, 1}}));
        QCOMPARE(f.dequeTouched, std::optional<std::size_t>{1});
        QCOMPARE(f.head, std::optional<Timestamp>{8});
        QVERIFY2(f.narration.rfind("Late", 0) == 0, f.narration.c_str());
    }

    void ringMemoryIsFixedWhileTheNaiveVectorGrows() {
        const Lesson& lesson = lessonById("burst");
        const Timeline timeline(parseOk(lesson.operations), lesson.window);
        const auto& frames = timeline.frames();
        for (const Frame& f : frames) {
            QCOMPARE(f.ringBytes, frames.front().ringBytes);
        }
        QCOMPARE(frames.back().naive.size(), std::size_t{54});
        QVERIFY(frames.back().naiveBytes >= 54 * sizeof(Pair));
        QVERIFY(frames.back().naiveBytes > frames.back().dequeBytes);
    }

    void gapLeavesEverySlotStaleAndEmptiesTheDeque() {
        const Lesson& lesson = lessonById("gap");
        const Timeline timeline(parseOk(lesson.operations), lesson.window);
        const auto& frames = timeline.frames();
        const auto quiet = std::find_if(frames.begin(), frames.end(),
                                        [](const Frame& f) { return f.op && f.op->second == 40; });
        QVERIFY(quiet != frames.end());
        QCOMPARE(quiet->answer, std::optional<Count>{0});
        QVERIFY(quiet->deque.empty());
        QCOMPARE(quiet->popped.size(), std::prev(quiet)->deque.size());
        for (const RingSlot& s : quiet->ring) {
            QVERIFY(!s.inWindow);
        }
    }

    // Issue 16, wrong 1: W = 10, hit 1; hit 12; getHits 5. The counter forgot seconds up to
    // 12 - 10 = 2, so the effective window is (2, 5], not (-5, 5]; the pseudocode's comparison
    // run on the slots gives the counter's 0 (the old `s.second > t - W` gave 2).
    void getHitsIntoThePastUsesTheEffectiveWindow() {
        const Timeline timeline(parseOk("hit 1\nhit 12\ngetHits 5"), std::chrono::seconds{10});
        const Frame& f = timeline.frames()[3];
        QCOMPARE(f.answer, std::optional<Count>{0});
        QCOMPARE(f.windowText(), std::string("(2, 5]"));
        QVERIFY2(f.narration.find("(2, 5]") != std::string::npos, f.narration.c_str());
        QVERIFY2(f.narration.find("already forgotten") != std::string::npos, f.narration.c_str());
        const std::string_view line = kPseudocode[std::size_t(Line::GetAdd)];
        QVERIFY(line.find("if head - W < s.second <= t:") != std::string_view::npos);
        int compared = 0;
        for (const SubStep& s : f.subSteps) {
            if (s.line == Line::GetAdd) {
                ++compared;
                QCOMPARE(s.taken, std::optional<bool>{false});
            }
        }
        QCOMPARE(compared, 2);  // slots 1 (second 1) and 2 (second 12), both out
        QCOMPARE(f.subSteps.back().total, std::optional<Count>{0});
    }

    // Issue 24, wrong 1: a step counts what its own window counts. getHits(5) after hits at 1
    // and 12 (W = 10) has the window (2, 5]: second 12 is in the head's window (2, 12] but not
    // counted; the frame says so for every structure.
    void aQueryIntoThePastCountsByItsOwnWindow() {
        const Timeline timeline(parseOk("hit 1\nhit 12\ngetHits 5\ngetHits 12"),
                                std::chrono::seconds{10});
        const Frame& past = timeline.frames()[3];
        QCOMPARE(past.ring[2].second, 12);
        QVERIFY(past.ring[2].inWindow);  // alive for the ring (head - W, head]
        QVERIFY(!past.counts(12));       // but not counted by getHits(5)
        QVERIFY(!past.counts(2) && past.counts(3) && past.counts(5) && !past.counts(6));
        const Frame& now = timeline.frames()[4];
        QVERIFY(now.counts(12) && !now.counts(2));
        QVERIFY(!timeline.frames()[0].counts(0));
    }

    // Issue 24, wrong 4: at a sub-step every structure is as that line left it. "hit 3; hit
    // 13", after "head = max(3, 13) = 13": the head and its window moved, slot 3 still holds
    // (3, 1), now stale; no reset shown yet, no add; the deque and the vector as before.
    void aSubStepShowsEveryStructureAtThatMoment() {
        const Timeline timeline(parseOk("hit 3\nhit 13\ngetHits 13"), std::chrono::seconds{10});
        const Frame& before = timeline.frames()[1];
        const Frame& whole = timeline.frames()[2];
        std::size_t head = 0;
        std::size_t reset = 0;
        for (std::size_t k = 0; k < whole.subSteps.size(); ++k) {
            head = whole.subSteps[k].line == Line::MoveHead ? k : head;
            reset = whole.subSteps[k].line == Line::ResetSlot ? k : reset;
        }
        QVERIFY(head > 0 && reset > head);
        const Frame atHead = timeline.frameAt(2, head);
        QVERIFY(atHead.partial);
        QCOMPARE(atHead.head, std::optional<Timestamp>{13});
        QCOMPARE(atHead.windowText(), std::string("(3, 13]"));
        QCOMPARE(atHead.ring[3], (RingSlot{3, 1, false, true}));
        QVERIFY(!atHead.resetFrom);
        QCOMPARE(atHead.deque, before.deque);
        QCOMPARE(atHead.naive.size(), before.naive.size());
        QCOMPARE(atHead.codeLine, Line::MoveHead);
        const Frame atLate = timeline.frameAt(2, 0);  // the late check, before the head moves
        QCOMPARE(atLate.head, std::optional<Timestamp>{3});
        QCOMPARE(atLate.ring[3], (RingSlot{3, 1, true, true}));
        const Frame atReset = timeline.frameAt(2, reset);
        QCOMPARE(atReset.ring[3], (RingSlot{13, 0, true, true}));
        QCOMPARE(atReset.resetFrom, (std::optional<Pair>{Pair{3, 1}}));
        QCOMPARE(atReset.deque, before.deque);
        // The last line is the whole frame; so is no sub-step.
        QCOMPARE(timeline.frameAt(2, whole.subSteps.size() - 1).ring, whole.ring);
        QVERIFY(!timeline.frameAt(2, std::nullopt).partial);
        // getHits: no answer before its return, the sum so far instead.
        const Frame& query = timeline.frames()[3];
        const Frame atSum = timeline.frameAt(3, 1);  // total = 0
        QVERIFY(!atSum.answer);
        QCOMPARE(atSum.partialTotal, std::optional<Count>{0});
        QCOMPARE(atSum.windowText(), query.windowText());
        QCOMPARE(timeline.frameAt(3, query.subSteps.size() - 1).answer, query.answer);
    }

    // Issue 24, wrong 8: a late hit that resets its slot does not move the head, and the
    // narration does not say it does.
    void aLateHitsNarrationMovesNoHead() {
        const Timeline timeline(parseOk("hit 3\nhit 14\nhit 13"), std::chrono::seconds{10});
        const Frame& f = timeline.frames()[3];
        QCOMPARE(f.head, std::optional<Timestamp>{14});
        QVERIFY(f.resetFrom);
        QVERIFY2(f.narration.find("as the head reaches it") == std::string::npos,
                 f.narration.c_str());
        QVERIFY2(f.narration.find("head moved") == std::string::npos, f.narration.c_str());
        QVERIFY2(f.narration.find("when its head passed second 13 on its way to 14") !=
                     std::string::npos,
                 f.narration.c_str());
    }

    // Issue 24, wrong 6: the deque's bytes are its buffer's. In the memory lesson its buffer
    // keeps popped pairs until it compacts, and holds 5 pairs in more bytes than 5 pairs take;
    // at W = 10 after 80 busy seconds it takes more than the vector, and says so.
    void theDequesMemoryStoryIsItsBuffers() {
        const Lesson& memory = lessonById("memory");
        const Timeline m(parseOk(memory.operations), memory.window);
        for (const Frame& f : m.frames()) {
            QVERIFY(f.dequeCapacity >= f.deque.size() + f.dequePoppedKept);
            QVERIFY2(f.memoryText.find("pairs once") == std::string::npos, f.memoryText.c_str());
            if (f.dequePoppedKept > 0) {
                QVERIFY2(f.memoryText.find(std::to_string(f.dequePoppedKept) +
                                           (f.dequePoppedKept == 1 ? " pair" : " pairs") +
                                           " already popped, kept until it compacts") !=
                             std::string::npos,
                         f.memoryText.c_str());
            }
        }
        std::string ops;
        for (int t = 1; t <= 80; ++t)
            ops += "hit " + std::to_string(t) + "\n";
        ops += "getHits 80\n";
        const Timeline busy(parseOk(ops), std::chrono::seconds{10});
        const Frame& last = busy.frames().back();
        QVERIFY(last.dequeBytes > last.naiveBytes);
        QCOMPARE(last.deque.size(), std::size_t{10});
        QVERIFY2(last.memoryText.find("more than the ring and the vector") != std::string::npos,
                 last.memoryText.c_str());
        QVERIFY2(last.memoryText.find("in a buffer of " + std::to_string(last.dequeCapacity)) !=
                     std::string::npos,
                 last.memoryText.c_str());
    }

    // Issue 16, build 1 and "Done when": every sub-step's highlighted line and state on every
    // ring lesson at W = 5, 10 and 300, against the previous frame and a plain recount.
    void everySubStepHasTheRightLineAndState_data() {
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("window");
        for (std::size_t i = 0; i < lessons().size(); ++i) {
            if (lessons()[i].kind != LessonKind::Ring)
                continue;
            for (int w : {5, 10, 300}) {
                QTest::addRow("%s W=%d", lessons()[i].id.c_str(), w) << int(i) << w;
            }
        }
    }
    void everySubStepHasTheRightLineAndState() {
        QFETCH(int, index);
        QFETCH(int, window);
        // Every lesson through the running-total listing too (its own lesson shows only that
        // one): gaps, late hits and queries into the past all take its paths.
        const Timeline running(parseOk(lessons()[std::size_t(index)].operations),
                               std::chrono::seconds{window}, Code::RunningTotal);
        checkRunningSubSteps(running, window);
        if (QTest::currentTestFailed())
            return;
        if (lessons()[std::size_t(index)].code == Code::RunningTotal)
            return;
        const Timeline timeline(parseOk(lessons()[std::size_t(index)].operations),
                                std::chrono::seconds{window});
        const auto& frames = timeline.frames();
        QVERIFY(frames[0].subSteps.empty());
        for (std::size_t k = 1; k < frames.size(); ++k) {
            const Frame& f = frames[k];
            const Frame& prev = frames[k - 1];
            const Operation& op = *f.op;
            QVERIFY(!f.subSteps.empty());
            // Lines run in program order (the loop line repeats).
            for (std::size_t i = 1; i < f.subSteps.size(); ++i) {
                QVERIFY2(int(f.subSteps[i].line) >= int(f.subSteps[i - 1].line) ||
                             f.subSteps[i - 1].line == Line::GetAdd ||
                             f.subSteps[i - 1].line == Line::GetAddCount,
                         f.subSteps[i].text.c_str());
            }
            QCOMPARE(f.codeLine, f.subSteps.back().line);
            if (op.kind == Operation::Kind::Hit) {
                const std::size_t i = std::size_t(op.second % window);
                QCOMPARE(f.subSteps.front().line, Line::DropLate);
                QCOMPARE(f.subSteps.front().taken, std::optional<bool>{f.dropped});
                if (f.dropped) {
                    QCOMPARE(f.subSteps.size(), std::size_t{1});
                    QVERIFY(prev.head && op.second <= *prev.head - window);
                    continue;
                }
                const RingSlot before = prev.ring[i];
                const bool differs = !before.used || before.second != op.second;
                std::vector<Line> lines;
                for (const SubStep& s : f.subSteps) {
                    lines.push_back(s.line);
                    QCOMPARE(s.slot, std::optional<std::size_t>{i});
                    if (s.line < Line::ResetSlot)
                        QCOMPARE(s.slotState, before);  // nothing written yet
                    if (s.line == Line::CheckSecond)
                        QCOMPARE(s.taken, std::optional<bool>{differs});
                    if (s.line == Line::ResetSlot)
                        QCOMPARE(s.slotState, (RingSlot{op.second, 0, true, true}));
                }
                std::vector<Line> want{Line::DropLate, Line::MoveHead, Line::PickSlot,
                                       Line::CheckSecond};
                if (differs)
                    want.push_back(Line::ResetSlot);
                want.push_back(Line::AddCount);
                QVERIFY(lines == want);
                const SubStep& add = f.subSteps.back();
                QCOMPARE(add.slotState.second, op.second);
                QCOMPARE(add.slotState.count, (differs ? 0 : before.count) + op.repeat);
                QCOMPARE(add.slotState, f.ring[i]);
            } else {
                const Timestamp head = prev.head ? std::max(*prev.head, op.second) : op.second;
                QCOMPARE(f.windowLow, std::optional<Timestamp>{head - window});
                QCOMPARE(f.windowHigh, std::optional<Timestamp>{op.second});
                QCOMPARE(f.subSteps.front().line, Line::GetMoveHead);
                QCOMPARE(f.subSteps[1].line, Line::GetSum);
                QCOMPARE(f.subSteps.back().line, Line::GetReturn);
                Count recount = 0;
                std::size_t compared = 0;
                Count runningSum = 0;
                for (const SubStep& s : f.subSteps) {
                    if (s.line != Line::GetAdd && s.line != Line::GetAddCount)
                        continue;
                    QCOMPARE(s.line == Line::GetAddCount, s.taken.value());
                    ++compared;
                    const RingSlot& slot = f.ring[*s.slot];
                    QCOMPARE(s.slotState, slot);
                    const bool in = slot.second > head - window && slot.second <= op.second;
                    QCOMPARE(s.taken, std::optional<bool>{in});
                    runningSum += in ? slot.count : 0;
                    QCOMPARE(s.total, std::optional<Count>{runningSum});
                }
                for (const RingSlot& slot : f.ring) {
                    if (slot.used && slot.second > head - window && slot.second <= op.second)
                        recount += slot.count;
                }
                QCOMPARE(compared,
                         std::size_t(std::count_if(f.ring.begin(), f.ring.end(),
                                                   [](const RingSlot& s) { return s.used; })));
                QCOMPARE(recount, *f.answer);
                QCOMPARE(f.subSteps.back().total, f.answer);
            }
        }
    }

    // Issue 16, wrong 6: the stored second buys a lazy reset, not correctness.
    void whySecondTeachesTheLazyReset() {
        const Lesson& lesson = lessonById("why-second");
        QVERIFY(lesson.goal.find("lazy") != std::string::npos);
        QVERIFY(lesson.goal.find("could not tell") == std::string::npos);
        QVERIFY(lesson.goal.find("would say 3") == std::string::npos);
        const Timeline timeline(parseOk(lesson.operations), lesson.window);
        bool sawReset = false;
        for (const Frame& f : timeline.frames()) {
            QVERIFY2(f.narration.find("could not tell") == std::string::npos, f.narration.c_str());
            if (f.resetFrom) {
                sawReset = true;
                QVERIFY2(f.narration.find("lazy") != std::string::npos, f.narration.c_str());
                // hit 13 after head 3: a count-only ring sweeps the 10 slots passed over.
                QVERIFY2(f.narration.find("sweep the 10 slots") != std::string::npos,
                         f.narration.c_str());
            }
        }
        QVERIFY(sawReset);
    }

    // Issue 16, wrong 5: the deque is the smaller one in the burst lesson, costs more only when
    // many seconds are busy (the memory lesson shows when), and its bytes never fall.
    void memoryStoryMatchesTheBytes() {
        const Lesson& burst = lessonById("burst");
        const Timeline b(parseOk(burst.operations), burst.window);
        QVERIFY(b.frames().back().dequeBytes < b.frames().back().ringBytes);
        QVERIFY(burst.goal.find("the deque is the smallest") != std::string::npos);
        QVERIFY(burst.goal.find("never fall") != std::string::npos);

        const Lesson& memory = lessonById("memory");
        const Timeline m(parseOk(memory.operations), memory.window);
        bool crossed = false;
        bool poppedWithoutShrinking = false;
        for (std::size_t k = 1; k < m.frames().size(); ++k) {
            const Frame& f = m.frames()[k];
            QVERIFY(f.dequeBytes >= m.frames()[k - 1].dequeBytes);  // never falls
            if (f.narration.find("more than the ring") != std::string::npos) {
                QVERIFY(f.dequeBytes > f.ringBytes);
                QVERIFY(m.frames()[k - 1].dequeBytes <= m.frames()[k - 1].ringBytes);
                crossed = true;
            }
            if (f.popped.size() > 5) {
                QVERIFY2(f.narration.find("do not fall") != std::string::npos, f.narration.c_str());
                poppedWithoutShrinking = true;
            }
        }
        QVERIFY(crossed);
        QVERIFY(poppedWithoutShrinking);
    }

    // Issue 16, wrong 7: the off-by-one lesson asks before it tells; the gap lesson counts the
    // slots that were really written.
    void lessonTextsDoNotGiveAwayOrOverstate() {
        const Lesson& boundary = lessonById("boundary");
        for (const char* spoiler : {"counted at 14", "not at 15", "5 > 14 - 10"}) {
            QVERIFY2(boundary.goal.find(spoiler) == std::string::npos, spoiler);
        }
        const Lesson& gap = lessonById("gap");
        QVERIFY(gap.title.find("every slot goes stale") == std::string::npos);
        const Timeline timeline(parseOk(gap.operations), gap.window);
        const auto quiet = std::find_if(timeline.frames().begin(), timeline.frames().end(),
                                        [](const Frame& f) { return f.op && f.op->second == 40; });
        const auto written = std::count_if(quiet->ring.begin(), quiet->ring.end(),
                                           [](const RingSlot& s) { return s.used; });
        const std::string claim =
            std::to_string(written) + " of the " + std::to_string(gap.window.count());
        QVERIFY2(gap.goal.find(claim) != std::string::npos, claim.c_str());
    }

    // Issue 16, build 2: the slot visits of every step of every ring lesson at W = 5, 10 and
    // 300 against the separate model above: the scan visits W slots per getHits, the running
    // total only the slots it expires (and a hit its own slot).
    void slotVisitsMatchTheCostModel_data() {
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("window");
        for (std::size_t i = 0; i < lessons().size(); ++i) {
            if (lessons()[i].kind != LessonKind::Ring)
                continue;
            for (int w : {5, 10, 300})
                QTest::addRow("%s W=%d", lessons()[i].id.c_str(), w) << int(i) << w;
        }
    }
    void slotVisitsMatchTheCostModel() {
        QFETCH(int, index);
        QFETCH(int, window);
        const auto ops = parseOk(lessons()[std::size_t(index)].operations);
        const Timeline timeline(ops, std::chrono::seconds{window});
        const auto expected = visitModel(ops, window);
        std::size_t scanSum = 0;
        std::size_t runningSum = 0;
        QCOMPARE(timeline.frames()[0].scanVisits, std::size_t(0));
        QCOMPARE(timeline.frames()[0].runningVisits, std::size_t(0));
        for (std::size_t k = 0; k < ops.size(); ++k) {
            const Frame& f = timeline.frames()[k + 1];
            const QByteArray where = QByteArray::number(qulonglong(k + 1));
            QVERIFY2(f.scanVisits == expected[k].scan, where);
            QVERIFY2(f.runningVisits == expected[k].running, where);
            QVERIFY2(f.expired == expected[k].expired, where);
            scanSum += f.scanVisits;
            runningSum += f.runningVisits;
            QCOMPARE(f.scanVisitsSoFar, scanSum);
            QCOMPARE(f.runningVisitsSoFar, runningSum);
            QVERIFY2(f.costText.find(std::to_string(f.runningVisits)) != std::string::npos,
                     f.costText.c_str());
            if (ops[k].kind == Operation::Kind::GetHits)
                QVERIFY2(f.costText.find("visits all " + std::to_string(window) + " slots") !=
                             std::string::npos,
                         f.costText.c_str());
        }
    }

    // The running-total lesson's story in numbers, W = 10.
    void runningTotalLessonVisitsOnlyWhatExpires() {
        const Lesson& lesson = lessonById("running-total");
        QCOMPARE(lesson.chart, LessonChart::SlotVisits);
        const Timeline timeline(parseOk(lesson.operations), lesson.window);
        auto at = [&](Operation::Kind kind, Timestamp t) -> const Frame& {
            for (const Frame& f : timeline.frames())
                if (f.op && f.op->kind == kind && f.op->second == t)
                    return f;
            qFatal("no such step");
        };
        const auto get = Operation::Kind::GetHits;
        QCOMPARE(at(get, 5).scanVisits, std::size_t(10));
        QCOMPARE(at(get, 5).runningVisits, std::size_t(0));  // nothing left the window
        QCOMPARE(at(get, 6).runningVisits, std::size_t(0));
        QCOMPARE(at(get, 11).runningVisits, std::size_t(1));  // second 1 leaves (1, 11]
        QCOMPARE(at(get, 11).expired, std::vector<std::size_t>{1});
        QCOMPARE(at(get, 12).expired, std::vector<std::size_t>{2});  // second 2 (x2) leaves
        QCOMPARE(at(Operation::Kind::Hit, 12).runningVisits, std::size_t(1));
        QCOMPARE(at(get, 8).runningVisits, std::size_t(2));  // the past: slots 5 and 2 (12)
        QCOMPARE(at(get, 8).answer, std::optional<Count>(1));
        QCOMPARE(at(get, 15).expired, std::vector<std::size_t>{5});
        QCOMPARE(at(get, 40).expired, std::vector<std::size_t>{2});  // second 12
        const Frame& last = timeline.frames().back();
        QCOMPARE(last.scanVisitsSoFar, std::size_t(11 * 10 + 6));  // 11 getHits, 6 hits
        QCOMPARE(last.runningVisitsSoFar, std::size_t(12));
        QVERIFY(last.runningVisitsSoFar * 4 < last.scanVisitsSoFar);
    }

    void windowOutsideTheTeachingRangeIsRejected() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Timeline({}, std::chrono::seconds{4}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Timeline({}, std::chrono::seconds{301}));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestTimeline)
#include "tst_timeline.moc"
