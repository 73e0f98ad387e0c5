// The lockstep check and the shrinking (issue 24), on counters written here in C++ behind the
// same interface as the learner's JavaScript: an exact counter agrees everywhere; a counter
// with a documented mistake first differs, shrinks to a sequence of at most four operations
// that still fails, and gets the mistake's name; a counter that throws keeps throwing in the
// shrunk sequence; the traces keep LeetCode's chronological order; the growth probes name an
// unbounded array and a linear pop from the numbers alone.
#include <QTest>

#include <map>

#include "core/teach/shrink.h"
#include "core/teach/student_check.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::teach;

namespace {

// A counter of (second, count) pairs in a map, with switchable mistakes, counting one
// operation per pair it looks at and 16 bytes per pair it holds.
class MapCounter final : public CounterUnderTest {
public:
    bool inclusive = false;  // counts second t - W
    bool forgets = true;     // drops what left the window (else keeps every hit: unbounded)
    bool scansAll = false;   // getHits looks at every pair held, also when nothing leaves
    std::optional<Timestamp> throwsFrom;  // getHits(t) throws for t >= this

    void setDetail(Detail) override {}
    std::size_t memoryBytes() override { return 16 + 16 * m_pairs.size(); }

    CallResult start(std::chrono::seconds window) override {
        m_w = window.count();
        m_pairs.clear();
        return state(0);
    }
    CallResult hit(Timestamp t) override {
        ++m_pairs[t];
        return state(1);
    }
    CallResult getHits(Timestamp t) override {
        if (throwsFrom && t >= *throwsFrom) {
            CallResult r;
            r.status = CallResult::Status::Error;
            r.message = "getHits(" + std::to_string(t) + ") threw TypeError";
            return r;
        }
        const auto out = [&](Timestamp second) {
            return inclusive ? second < t - m_w : second <= t - m_w;
        };
        std::uint64_t visits = 1;
        while (forgets && !m_pairs.empty() && out(m_pairs.begin()->first)) {
            m_pairs.erase(m_pairs.begin());
            ++visits;
        }
        if (scansAll) {
            visits += m_pairs.size();
        }
        Count total = 0;
        for (const auto& [second, count] : m_pairs) {
            total += !out(second) && second <= t ? count : 0;
        }
        CallResult r = state(visits);
        r.answer = total;
        r.returned = std::to_string(total);
        return r;
    }

private:
    CallResult state(std::uint64_t operations) {
        CallResult r;
        r.operations = operations;
        Variable pairs{"pairs", true, {}, {}, m_pairs.size()};
        for (const auto& [second, count] : m_pairs) {
            pairs.items.push_back("[" + std::to_string(second) + ", " + std::to_string(count) +
                                  "]");
        }
        r.variables.push_back(std::move(pairs));
        return r;
    }

    Timestamp m_w = 300;
    std::map<Timestamp, Count> m_pairs;
};

std::vector<Operation> ops(const std::string& text) {
    return std::get<std::vector<Operation>>(parseOperations(text));
}

std::string joined(const std::vector<Operation>& list) {
    std::string out;
    for (const Operation& op : list) {
        out += (out.empty() ? "" : "; ") + operationText(op);
    }
    return out;
}

}  // namespace

class TestStudentCheck : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void exactCounterAgreesOnEveryTrace() {
        for (int w : {5, 10, 300}) {
            MapCounter counter;
            CheckOptions options;
            options.window = std::chrono::seconds{w};
            options.seed = 3;
            const CheckReport report = checkCounter(counter, options);
            QVERIFY(report.agrees);
            QVERIFY(report.complete);
            QVERIFY(!report.mistake);
            QVERIFY(report.minimal.empty());
            QCOMPARE(report.traces, adversarialTraces(options.window).size() +
                                        randomTraces(options.window, 3).size());
            QVERIFY(report.calls > 100);
            QVERIFY(report.maxOperations >= 1);
            QVERIFY(report.memoryBytes >= 32);
            QCOMPARE(report.growth.size(), growthProbeSizes().size());
        }
    }

    // `<=` at the edge: the first difference shrinks to "hit 1; getHits 1+W" and is named.
    void inclusiveEdgeShrinksAndIsNamed() {
        for (int w : {5, 10, 300}) {
            MapCounter counter;
            counter.inclusive = true;
            CheckOptions options;
            options.window = std::chrono::seconds{w};
            const CheckReport report = checkCounter(counter, options);
            QVERIFY(!report.agrees);
            QVERIFY(report.failing);
            const StepResult& first = report.failing->steps[*report.failing->difference];
            QCOMPARE(first.op.kind, Operation::Kind::GetHits);
            QVERIFY(first.yours.answer != first.reference);
            QCOMPARE(joined(report.minimal), "hit 1; getHits " + std::to_string(1 + w));
            QCOMPARE(report.minimalRun.steps.size(), std::size_t(2));
            QCOMPARE(*report.minimalRun.steps[1].yours.answer, Count(1));
            QCOMPARE(*report.minimalRun.steps[1].reference, Count(0));
            QVERIFY(report.mistake == MistakeId::InclusiveEdge);
        }
    }

    // A counter that throws from getHits(50) on: the shrunk sequence still throws, in one call.
    void aThrowingCallShrinksToItself() {
        MapCounter counter;
        counter.throwsFrom = 50;
        CheckOptions options;
        options.window = std::chrono::seconds{10};
        const CheckReport report = checkCounter(counter, options);
        QVERIFY(!report.agrees);
        QCOMPARE(report.minimal.size(), std::size_t(1));
        QCOMPARE(report.minimal[0].kind, Operation::Kind::GetHits);
        QVERIFY(report.minimal[0].second >= 1);
        QCOMPARE(report.minimalRun.steps.back().yours.status, CallResult::Status::Error);
        QVERIFY(!report.mistake);  // throwing is no documented mistake
    }

    // ddmin on its own: the smallest sequence that still has a hit at 3 mod 10 and a getHits
    // at least 10 seconds after it; repeats go down to one, seconds move down to 1 while the
    // predicate still holds.
    void shrinkFindsAOneMinimalSequence() {
        int tries = 0;
        const FailurePredicate fails = [&](const std::vector<Operation>& o) {
            ++tries;
            for (std::size_t i = 0; i < o.size(); ++i) {
                if (o[i].kind != Operation::Kind::Hit || o[i].second % 10 != 3) {
                    continue;
                }
                for (std::size_t k = i + 1; k < o.size(); ++k) {
                    if (o[k].kind == Operation::Kind::GetHits && o[k].second >= o[i].second + 10)
                        return true;
                }
            }
            return false;
        };
        const auto start =
            ops("hit 11; hit 12 x4; getHits 12; hit 23 x3; hit 24; getHits 25; hit 30; getHits 33; "
                "getHits 40; hit 41");
        QVERIFY(fails(start));
        const auto small = shrinkOperations(start, fails, std::chrono::seconds{10});
        QCOMPARE(QString::fromStdString(joined(small)), QStringLiteral("hit 3; getHits 13"));
        QVERIFY(chronological(small));
        QVERIFY(tries < 400);
        // The budget bounds the work: with 3 tries the result still fails.
        const auto rough = shrinkOperations(start, fails, std::chrono::seconds{10}, 3);
        QVERIFY(fails(rough));
        QVERIFY(rough.size() <= start.size());
    }

    void tracesAreChronologicalAndSeeded() {
        for (int w : {5, 10, 300}) {
            const std::chrono::seconds window{w};
            for (const CheckTrace& t : adversarialTraces(window)) {
                QVERIFY2(chronological(t.ops), t.name.c_str());
                QVERIFY(t.ops.front().second >= 1);
            }
            const auto a = randomTraces(window, 7);
            const auto b = randomTraces(window, 7);
            const auto c = randomTraces(window, 8);
            QCOMPARE(a.size(), std::size_t(4));
            for (std::size_t i = 0; i < a.size(); ++i) {
                QVERIFY(chronological(a[i].ops));
                QCOMPARE(joined(a[i].ops), joined(b[i].ops));
                QCOMPARE(a[i].ops.back().kind, Operation::Kind::GetHits);
            }
            QVERIFY(joined(a[0].ops) != joined(c[0].ops));
        }
    }

    // The lesson's operations run first, unless they go back in time.
    void lessonOperationsRunWhenChronological() {
        MapCounter counter;
        CheckOptions options;
        options.window = std::chrono::seconds{10};
        options.lessonOperations = ops("hit 1; hit 2; getHits 11");
        CheckReport report = checkCounter(counter, options);
        QVERIFY(report.lessonNote.empty());
        QCOMPARE(report.traces, std::size_t(1) + adversarialTraces(options.window).size() + 4);
        options.lessonOperations = ops("hit 8; hit 6; getHits 10");
        report = checkCounter(counter, options);
        QVERIFY(report.lessonNote.find("go back in time") != std::string::npos);
        QCOMPARE(report.traces, adversarialTraces(options.window).size() + 4);
    }

    // The performance mistakes, from the growth probes of counters that answer right.
    void growthNamesAnUnboundedArrayAndALinearPop() {
        const std::chrono::seconds window{10};
        std::vector<GrowthPoint> unbounded;
        std::vector<GrowthPoint> linear;
        std::vector<GrowthPoint> quadratic;
        std::vector<GrowthPoint> fine;
        for (std::size_t n : growthProbeSizes()) {
            unbounded.push_back({n, 5, 5, 16 + 8 * n, 16 + 8 * n});
            linear.push_back({n, 2 * n, 3 * n, 16 + 8 * n, 16});
            quadratic.push_back({n, 6, n * n / 2, 16 + 8 * n, 16});
            fine.push_back({n, 7, 6 * n, 16 + 8 * n, 16});
        }
        auto verdict = growthMistake(unbounded, window);
        QVERIFY(verdict && verdict->id == MistakeId::UnboundedArray);
        QVERIFY(verdict->evidence.find("3216 bytes") != std::string::npos);
        QCOMPARE(joined(verdict->probe), std::string("hit 1 x400; getHits 21"));
        verdict = growthMistake(linear, window);
        QVERIFY(verdict && verdict->id == MistakeId::LinearPop);
        QCOMPARE(joined(verdict->probe), std::string("hit 1 x400; getHits 1"));
        verdict = growthMistake(quadratic, window);
        QVERIFY(verdict && verdict->id == MistakeId::LinearPop);
        QVERIFY(!growthMistake(fine, window));
    }

    void everyDocumentedMistakeHasANameAndAModelOrAProbe() {
        QCOMPARE(documentedMistakes().size(), std::size_t(5));
        for (const MistakeInfo& m : documentedMistakes()) {
            QCOMPARE(&mistakeInfo(m.id), &m);
            QVERIFY(!m.name.empty() && !m.title.empty() && !m.why.empty());
            const bool answers = m.id == MistakeId::InclusiveEdge || m.id == MistakeId::CountOnly ||
                                 m.id == MistakeId::NoReset;
            const auto models =
                modelAnswers(m.id, ops("hit 1; hit 11; getHits 11"), std::chrono::seconds{10});
            QCOMPARE(models.empty(), !answers);
        }
        // The models differ from the reference where the mistake shows: W = 10.
        const std::chrono::seconds w{10};
        QCOMPARE(modelAnswers(MistakeId::InclusiveEdge, ops("hit 1; getHits 11"), w)[0],
                 std::vector<Count>{1});
        QCOMPARE(modelAnswers(MistakeId::CountOnly, ops("hit 1; getHits 12"), w)[0],
                 std::vector<Count>{1});
        QCOMPARE(modelAnswers(MistakeId::NoReset, ops("hit 1; hit 11; getHits 11"), w)[0],
                 std::vector<Count>{2});
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestStudentCheck)
#include "tst_student_check.moc"
