// Timeline: every lesson stepped forward and back against an independent reference model of
// the ring, the deque and the naive vector; narration, resets, pops and memory.
#include <QTest>

#include <algorithm>
#include <map>

#include "core/teach/lessons.h"
#include "core/teach/timeline.h"

using namespace hitcounter;
using namespace hitcounter::teach;

namespace {

std::vector<Operation> parseOk(const std::string& text) {
    ParseResult result = parseOperations(text);
    if (auto* error = std::get_if<ParseError>(&result)) {
        qFatal("lesson does not parse: %s", error->describe().c_str());
    }
    return std::get<std::vector<Operation>>(result);
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
        QCOMPARE(f.codeLine, Line::ResetSlot);
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

    void windowOutsideTheTeachingRangeIsRejected() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Timeline({}, std::chrono::seconds{4}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Timeline({}, std::chrono::seconds{301}));
    }
};

QTEST_GUILESS_MAIN(TestTimeline)
#include "tst_timeline.moc"
