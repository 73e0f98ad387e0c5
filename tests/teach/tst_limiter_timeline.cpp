// LimiterTimeline (core/teach/limiter_timeline.h): the rate-limit lessons decide as the core
// limiters do, the boundary-burst and token-bucket lessons show what their goals promise,
// every step has a reason, getHits moves the clock without a request, bad names are refused.
#include <QTest>

#include <algorithm>
#include <cmath>

#include "core/limiters/limiter_factory.h"
#include "core/teach/lessons.h"
#include "core/teach/limiter_questions.h"
#include "core/teach/limiter_timeline.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::teach;
using namespace std::chrono_literals;

namespace {

std::vector<Operation> parseOk(const std::string& text) {
    auto parsed = parseOperations(text);
    return std::get<std::vector<Operation>>(parsed);
}

const Lesson& lessonById(const std::string& id) {
    const auto& all = lessons();
    return *std::find_if(all.begin(), all.end(), [&](const Lesson& l) { return l.id == id; });
}

LimiterTimeline timelineOf(const Lesson& lesson) {
    return LimiterTimeline(parseOk(lesson.operations), {lesson.limit, lesson.window},
                           lesson.limiters);
}

// Per lane, "A" for each accepted request and "R" for each rejected one, step by step.
std::vector<std::string> verdicts(const LimiterTimeline& timeline) {
    std::vector<std::string> out(timeline.names().size());
    for (const auto& frame : timeline.frames()) {
        for (std::size_t i = 0; i < frame.lanes.size(); ++i) {
            if (const auto& d = frame.lanes[i].decision)
                out[i] += std::string(d->accepted, 'A') + std::string(d->rejected, 'R');
        }
    }
    return out;
}

}  // namespace

class TestLimiterTimeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void rateLimitLessonsDecideLikeTheCoreLimiters_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < lessons().size(); ++i) {
            if (lessons()[i].kind == LessonKind::RateLimit)
                QTest::newRow(lessons()[i].id.c_str()) << int(i);
        }
    }
    void rateLimitLessonsDecideLikeTheCoreLimiters() {
        QFETCH(int, index);
        const Lesson& lesson = lessons()[std::size_t(index)];
        QVERIFY(lesson.goal.size() > 100);
        const auto timeline = timelineOf(lesson);
        QCOMPARE(timeline.frames().size(), timeline.operations().size() + 1);
        for (std::size_t i = 0; i < lesson.limiters.size(); ++i) {
            auto limiter = makeLimiter(lesson.limiters[i], {lesson.limit, lesson.window});
            for (std::size_t k = 1; k < timeline.frames().size(); ++k) {
                const auto& frame = timeline.frames()[k];
                const auto& lane = frame.lanes[i];
                QVERIFY(!frame.narration.empty());
                if (frame.op->kind != Operation::Kind::Hit)
                    continue;
                QVERIFY(lane.decision.has_value());
                QCOMPARE(lane.decision->accepted,
                         limiter->admit("user", frame.op->second, frame.op->repeat));
                QVERIFY(!lane.reason.empty());
                QVERIFY(frame.narration.find(lane.reason) != std::string::npos);
            }
        }
    }

    void boundaryBurstLessonShowsFixedLettingFourThrough() {
        const auto timeline = timelineOf(lessonById("limit-burst"));
        // Issue 24: all four limiters side by side, the two of the lesson first.
        QCOMPARE(timeline.names(), (std::vector<std::string>{"fixed", "log", "counter", "bucket"}));
        // 58 59 60 61 118 119 120
        const auto all = verdicts(timeline);
        QCOMPARE((std::vector<std::string>{all[0], all[1]}),
                 (std::vector<std::string>{"AAAARRA", "AARRAAR"}));
        const auto& at60 = timeline.frames()[3];
        QCOMPARE(at60.lanes[0].window, std::int64_t{1});
        QCOMPARE(at60.lanes[0].current, Count{1});
        QCOMPARE(at60.lanes[1].log, (std::vector<Pair>{{58, 1}, {59, 1}}));
        QVERIFY(at60.lanes[1].reason.find("58 and 59 still in (0, 60]") != std::string::npos);
        const auto& at118 = timeline.frames()[5];
        QCOMPARE(at118.lanes[1].expired, (std::vector<Pair>{{58, 1}}));
        QCOMPARE(at118.lanes[1].log, (std::vector<Pair>{{59, 1}, {118, 1}}));
    }

    void tokenBucketLessonForgivesEvenlySpacedRequests() {
        const auto timeline = timelineOf(lessonById("limit-bucket"));
        QCOMPARE(timeline.names(), (std::vector<std::string>{"bucket", "log", "fixed", "counter"}));
        // 5 x3, 6, 15, 25, 35, 45, 100 x4
        const auto all = verdicts(timeline);
        QCOMPARE((std::vector<std::string>{all[0], all[1]}),
                 (std::vector<std::string>{"AAARAAAAAAAR", "AAARRRAAAAAR"}));
        // L = 3, W = 30: a token is 30 units. Empty after the burst, one token 10 s later.
        QCOMPARE(timeline.frames()[1].lanes[0].tokenUnits, Count{0});
        QCOMPARE(timeline.frames()[2].lanes[0].tokenUnits, Count{3});
        QVERIFY(timeline.frames()[3].lanes[0].reason.find("1.00 of 3 tokens") != std::string::npos);
    }

    void getHitsMovesTheClockWithoutARequest() {
        const LimiterTimeline timeline(parseOk("hit 10\nhit 10\ngetHits 75"), {2, 60s},
                                       {"log", "bucket", "counter"});
        const auto& last = timeline.frames().back();
        QCOMPARE(*last.clock, Timestamp{75});
        QVERIFY(!last.lanes[0].decision);
        QCOMPARE(last.lanes[0].expired, (std::vector<Pair>{{10, 2}}));
        QVERIFY(last.lanes[0].log.empty());
        QCOMPARE(last.lanes[1].tokenUnits, Count{120});  // full again: 2 tokens of 60 units
        QCOMPARE(last.lanes[2].previous, Count{2});      // window 0 is the previous one at 75
        QCOMPARE(last.lanes[2].weighted, Count{2 * (60 - 15)});
        QCOMPARE(last.lanes[0].accepted, Count{2});
    }

    // Issue 24: the write-up's table of the bucket's tokens left per request, 1.00, 0.97,
    // 0.63, 0.30, 0.30, recounted here from its rule (2 tokens, one earned every 30 s).
    void theBucketsTokensLeftPerRequest() {
        const auto timeline = timelineOf(lessonById("limit-tokens"));
        QCOMPARE(timeline.names().front(), std::string("bucket"));
        const auto& left = timeline.frames().back().lanes[0].tokensLeft;
        std::vector<std::string> shown;
        for (const Count units : left)
            shown.push_back(tokensText(units, 60));
        QCOMPARE(shown, (std::vector<std::string>{"1.00", "0.97", "0.63", "0.30", "0.30"}));
        double tokens = 2;
        Timestamp last = 58;
        std::vector<double> model;
        for (const Operation& op : timeline.operations()) {
            tokens = std::min(2.0, tokens + double(op.second - last) * 2.0 / 60.0);
            last = op.second;
            if (tokens >= 1)
                tokens -= 1;
            model.push_back(tokens);
        }
        QCOMPARE(model.size(), left.size());
        for (std::size_t i = 0; i < model.size(); ++i)
            QVERIFY(std::abs(model[i] - double(left[i]) / 60.0) < 1e-9);
        QCOMPARE(verdicts(timeline)[0], std::string("AAAAR"));
    }

    // Issue 24: Predict in a rate-limit lesson asks before each single request which limiters
    // accept it, and names the mistake per limiter.
    void limiterQuestionsAreGradedPerLimiter() {
        const auto timeline = timelineOf(lessonById("limit-burst"));
        const auto questions = limiterQuestions(timeline);
        QCOMPARE(questions.size(), std::size_t(7));
        const LimiterQuestion& at60 = questions[2];
        QCOMPARE(at60.second, Timestamp{60});
        QCOMPARE(at60.accepted, (std::vector<bool>{true, false, false, false}));
        QVERIFY(diagnoseLimiters(timeline, at60, at60.accepted).right);
        const auto wrong = diagnoseLimiters(timeline, at60, {false, true, false, true});
        QVERIFY(!wrong.right);
        QCOMPARE(wrong.mistakes,
                 (std::vector<std::string>{"forgetting that a fixed window starts empty",
                                           "forgetting the requests of the last W seconds",
                                           "less than one token left"}));
        QVERIFY2(wrong.text.find("which had accepted 0 of 2") != std::string::npos,
                 wrong.text.c_str());
        // A batch is not asked.
        const auto bucket = limiterQuestions(timelineOf(lessonById("limit-bucket")));
        for (const LimiterQuestion& q : bucket)
            QVERIFY(q.second != 5 && q.second != 100);
    }

    // Issue 24, wrong 7: the start frame names the bucket only in a lesson that has one.
    void theStartNamesOnlyTheLimitersShown() {
        const LimiterTimeline burst({}, RateLimit{2, std::chrono::seconds{60}}, {"fixed", "log"});
        QVERIFY2(burst.frames()[0].narration.find("bucket") == std::string::npos,
                 burst.frames()[0].narration.c_str());
        const LimiterTimeline bucket({}, RateLimit{3, std::chrono::seconds{30}}, {"bucket", "log"});
        QVERIFY2(
            bucket.frames()[0].narration.find("the bucket full (3 tokens)") != std::string::npos,
            bucket.frames()[0].narration.c_str());
    }

    void badNamesAreRefused() {
        const auto ops = parseOk("hit 1");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LimiterTimeline(ops, {2, 60s}, {"leaky"}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 LimiterTimeline(ops, {2, 60s}, {"log", "log"}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, LimiterTimeline(ops, {0, 60s}, {"log"}));
    }
};

HITCOUNTER_TEST_APPLESS_MAIN(TestLimiterTimeline)
#include "tst_limiter_timeline.moc"
