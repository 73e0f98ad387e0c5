// The learner's JavaScript in QJSEngine (issue 24): the write-ups' correct ring and deque agree
// with RingCounter on 25 seeds at W = 5, 10 and 300; each documented mistake, written as a
// student would (tests/teach/js/), is caught with a minimal sequence of at most four
// operations and named; a while (true) is stopped within a second and the engine keeps
// working; a memory hog is stopped; a syntax error names its line; the script sees no file,
// network or module API; operations, bytes and variables are read back as documented.
#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include "app/teach_js/js_counter.h"
#include "core/teach/code_templates.h"
#include "core/teach/student_check.h"
#include "tests/test_main.h"

using namespace hitcounter;
using namespace hitcounter::teach;

namespace {

std::string readJs(const char* name) {
    QFile f(QStringLiteral(HITCOUNTER_TEACH_JS_DIR "/%1").arg(QLatin1String(name)));
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", name);
    }
    return f.readAll().toStdString();
}

std::unique_ptr<CounterUnderTest> load(const std::string& source, teachjs::JsLimits limits = {}) {
    LoadedCounter loaded = teachjs::loadJsCounter(source, limits);
    if (const auto* e = std::get_if<TextProblem>(&loaded)) {
        qFatal("does not load: %s", e->describe().c_str());
    }
    return std::move(std::get<std::unique_ptr<CounterUnderTest>>(loaded));
}

std::string joined(const std::vector<Operation>& ops) {
    std::string out;
    for (const Operation& op : ops) {
        out += (out.empty() ? "" : "; ") + operationText(op);
    }
    return out;
}

// A counter whose getHits returns what `body` computes from timestamp t (the class keeps
// `this.a`, an array of 300 zeros, and `this.q`, an empty array).
std::unique_ptr<CounterUnderTest> probe(const std::string& body) {
    return load(
        "class HitCounter { constructor() { this.a = new Array(300).fill(0); "
        "this.q = []; } hit(t) { this.q.push(t); } getHits(t) { " +
        body + " } }");
}

}  // namespace

class TestJsCounter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writeUpRingAndDequeAgreeOnTwentyFiveSeedsAtThreeWindows_data() {
        QTest::addColumn<QString>("id");
        QTest::newRow("ring") << "ring";
        QTest::newRow("deque") << "deque";
    }
    void writeUpRingAndDequeAgreeOnTwentyFiveSeedsAtThreeWindows() {
        QFETCH(QString, id);
        const auto counter = load(std::string(codeTemplate(id.toStdString())->source));
        for (int w : {5, 10, 300}) {
            for (std::uint64_t seed = 1; seed <= 25; ++seed) {
                CheckOptions options;
                options.window = std::chrono::seconds{w};
                options.seed = seed;
                const CheckReport report = checkCounter(*counter, options);
                QVERIFY2(report.agrees,
                         qPrintable(QStringLiteral("W %1 seed %2: %3")
                                        .arg(w)
                                        .arg(seed)
                                        .arg(report.failing
                                                 ? QString::fromStdString(
                                                       report.failing->steps.back().yours.message +
                                                       " " + report.failing->name)
                                                 : QString())));
                QVERIFY(!report.mistake);
                QVERIFY(report.calls > 100);
            }
        }
    }

    // The vector answers right too; its cost is the mistake (memory that never falls).
    void vectorTemplateAgreesButIsUnbounded() {
        const auto counter = load(std::string(codeTemplate("vector")->source));
        CheckOptions options;
        options.window = std::chrono::seconds{10};
        const CheckReport report = checkCounter(*counter, options);
        QVERIFY(report.agrees);
        QVERIFY(report.mistake == MistakeId::UnboundedArray);
    }

    void eachDocumentedMistakeIsCaughtSmallAndNamed_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("window");
        QTest::addColumn<QString>("mistake");
        QTest::addColumn<bool>("agrees");
        for (int w : {10, 300}) {
            const auto row = [&](const char* file, const char* mistake, bool agrees) {
                QTest::addRow("%s W=%d", file, w) << file << w << mistake << agrees;
            };
            row("inclusive_edge_ring.js", "inclusive_edge", false);
            row("inclusive_edge_deque.js", "inclusive_edge", false);
            row("count_only.js", "count_only", false);
            row("no_reset.js", "no_reset", false);
            row("unbounded_array.js", "unbounded_array", true);
            row("linear_pop.js", "linear_pop", true);
        }
    }
    void eachDocumentedMistakeIsCaughtSmallAndNamed() {
        QFETCH(QString, file);
        QFETCH(int, window);
        QFETCH(QString, mistake);
        QFETCH(bool, agrees);
        const auto counter = load(readJs(qPrintable(file)));
        CheckOptions options;
        options.window = std::chrono::seconds{window};
        const CheckReport report = checkCounter(*counter, options);
        QCOMPARE(report.agrees, agrees);
        QVERIFY2(report.mistake, qPrintable(QString::fromStdString(joined(report.minimal))));
        QCOMPARE(QString::fromStdString(std::string(mistakeInfo(*report.mistake).name)), mistake);
        QVERIFY2(!report.minimal.empty() && report.minimal.size() <= 4,
                 qPrintable(QString::fromStdString(joined(report.minimal))));
        // The minimal sequence shows it: a wrong answer at its end, or (a cost mistake) the
        // probe's numbers.
        QCOMPARE(report.minimalRun.steps.size(), report.minimal.size());
        if (!agrees) {
            const StepResult& last = report.minimalRun.steps.back();
            QVERIFY(last.differs);
            QVERIFY(last.yours.answer != last.reference);
        } else {
            QVERIFY(!report.mistakeEvidence.empty());
        }
        qInfo("%s W=%d: %s", qPrintable(file), window, joined(report.minimal).c_str());
    }

    // while (true) in getHits: stopped within a second, named, and the engine runs on.
    void aRunawayLoopIsStoppedWithinASecond() {
        const auto counter = load(readJs("runaway.js"));
        QVERIFY(counter->start(std::chrono::seconds{10}).ok());
        QVERIFY(counter->hit(5).ok());
        QElapsedTimer clock;
        clock.start();
        const CallResult r = counter->getHits(5);
        const qint64 took = clock.elapsed();
        QCOMPARE(r.status, CallResult::Status::Interrupted);
        QVERIFY2(took < 1000, qPrintable(QString::number(took)));
        QVERIFY2(r.message.find("getHits(5)") != std::string::npos, r.message.c_str());
        QVERIFY(r.message.find("stopped") != std::string::npos);
        // Its operations are those counted before the stop (this.n = this.n touches a field,
        // which is free: none), not a garbage value (an interrupted engine returned NaN for
        // the count, read as 2^63).
        QCOMPARE(r.operations, std::uint64_t(0));
        // The same engine keeps working: a fresh counter takes hits again.
        QVERIFY(counter->start(std::chrono::seconds{10}).ok());
        QVERIFY(counter->hit(6).ok());
        // And the check counts it as a difference.
        CheckOptions options;
        options.window = std::chrono::seconds{10};
        const CheckReport report = checkCounter(*counter, options);
        QVERIFY(!report.agrees);
        QCOMPARE(report.minimalRun.steps.back().yours.status, CallResult::Status::Interrupted);
        QVERIFY(report.minimal.size() <= 2);
    }

    void aMemoryHogIsStopped() {
        teachjs::JsLimits limits;
        limits.perCall = std::chrono::milliseconds{30000};
        limits.memoryBytes = std::size_t{64} << 20;
        const auto counter = load(readJs("memory_hog.js"), limits);
        QVERIFY(counter->start(std::chrono::seconds{10}).ok());
        const CallResult r = counter->hit(1);
        QCOMPARE(r.status, CallResult::Status::OutOfMemory);
        QVERIFY2(r.message.find("hit(1) took more than 64 MiB") != std::string::npos,
                 r.message.c_str());
        QVERIFY(counter->start(std::chrono::seconds{10}).ok());
    }

    void aSyntaxErrorNamesItsLine() {
        const LoadedCounter loaded = teachjs::loadJsCounter(readJs("syntax_error.js"));
        const auto* e = std::get_if<TextProblem>(&loaded);
        QVERIFY(e);
        QCOMPARE(e->line, 6);
        QVERIFY2(e->describe().find("line 6: SyntaxError") == 0, e->describe().c_str());
        const LoadedCounter none = teachjs::loadJsCounter("class Counter {}");
        QVERIFY(std::get_if<TextProblem>(&none));
        QVERIFY(std::get<TextProblem>(none).message.find("no HitCounter") != std::string::npos);
        // An exception while the script runs names its line too.
        const LoadedCounter thrown = teachjs::loadJsCounter("\n\nnull.x;\nclass HitCounter {}");
        QCOMPARE(std::get<TextProblem>(thrown).line, 3);
    }

    // No file, network, module or timer API: QJSEngine without extensions.
    void theScriptSeesNoFileOrNetworkApi() {
        const auto counter = probe(
            "return [typeof XMLHttpRequest, typeof require, typeof fetch, typeof Qt, "
            "typeof setTimeout, typeof process, typeof print].filter(x => x !== 'undefined')"
            ".length;");
        QVERIFY(counter->start(std::chrono::seconds{10}).ok());
        const CallResult r = counter->getHits(1);
        QVERIFY2(r.ok(), r.message.c_str());
        QCOMPARE(*r.answer, Count(0));
        const LoadedCounter imports =
            teachjs::loadJsCounter("import('/etc/passwd');\nclass HitCounter {}");
        QVERIFY(std::get_if<TextProblem>(&imports));
    }

    // Operations are the reads and writes of what the fields hold: a loop over 300 slots reads
    // each slot once (reading the field this.a is free); shift counts one; slice counts every
    // element it copies.
    void operationsCountTheStatesReadsAndWrites() {
        auto loop = probe("let s = 0; for (let i = 0; i < 300; i++) s += this.a[i]; return s;");
        QVERIFY(loop->start(std::chrono::seconds{10}).ok());
        QCOMPARE(loop->getHits(1).operations, std::uint64_t(300));
        auto shift = probe("this.q.shift(); return 0;");
        QVERIFY(shift->start(std::chrono::seconds{10}).ok());
        for (int i = 0; i < 50; ++i)
            QVERIFY(shift->hit(1).ok());
        QCOMPARE(shift->getHits(1).operations, std::uint64_t(1));  // q.shift
        auto slice = probe("this.q = this.q.slice(0); return 0;");
        QVERIFY(slice->start(std::chrono::seconds{10}).ok());
        for (int i = 0; i < 50; ++i)
            QVERIFY(slice->hit(1).ok());
        // slice reads every element (and the length and the method itself).
        const std::uint64_t sliced = slice->getHits(1).operations;
        QVERIFY2(sliced >= 50 && sliced <= 56, qPrintable(QString::number(sliced)));
    }

    // The bytes, by the documented estimate, counted here independently.
    void memoryIsEstimatedAsDocumented() {
        auto counter = probe("return 0;");
        QVERIFY(counter->start(std::chrono::seconds{10}).ok());
        // The instance: a header, two keys with their slots; each array a header and its
        // slots (the numbers sit in them).
        const std::size_t instance = 16 + 2 * (8 + 8);
        const std::size_t a = 16 + 300 * 8;
        const std::size_t q = 16;
        QCOMPARE(counter->memoryBytes(), instance + a + q);
        QVERIFY(counter->hit(7).ok());
        QCOMPARE(counter->memoryBytes(), instance + a + q + 8);
        // Strings and nested arrays: [7, "ab"] holds a header, two slots and the string.
        auto nested = probe("this.q.push([t, 'ab']); return 0;");
        QVERIFY(nested->start(std::chrono::seconds{10}).ok());
        QVERIFY(nested->getHits(7).ok());
        QCOMPARE(nested->memoryBytes(), instance + a + (16 + 8) + (16 + 2 * 8) + (16 + 2 * 2));
    }

    void variablesAndConsoleAreReadBack() {
        auto counter = probe("console.log('at', t, this.q); return this.q.length;");
        QVERIFY(counter->start(std::chrono::seconds{10}).ok());
        QVERIFY(counter->hit(4).ok());
        QVERIFY(counter->hit(9).ok());
        const CallResult r = counter->getHits(9);
        QCOMPARE(r.returned, std::string("2"));
        QCOMPARE(r.output, std::string("at 9 [4, 9]"));
        QCOMPARE(r.variables.size(), std::size_t(2));
        QCOMPARE(r.variables[0].name, std::string("a"));
        QVERIFY(r.variables[0].isList);
        QCOMPARE(r.variables[0].length, std::size_t(300));
        QCOMPARE(r.variables[0].items.size(), std::size_t(300));
        QCOMPARE(r.variables[1].name, std::string("q"));
        QCOMPARE(r.variables[1].items, (std::vector<std::string>{"4", "9"}));
        QCOMPARE(r.variables[1].text, std::string("[4, 9]"));
    }

    // A write-up's solution with 300 written in, pasted unchanged: right at W = 300.
    void aPastedWriteUpSolutionRunsUnchanged() {
        const auto counter = load(readJs("leetcode_paste.js"));
        CheckOptions options;
        options.window = std::chrono::seconds{300};
        QVERIFY(checkCounter(*counter, options).agrees);
        const auto odd = probe("return 1.5;");
        QVERIFY(odd->start(std::chrono::seconds{10}).ok());
        const CallResult r = odd->getHits(1);
        QVERIFY(r.ok());
        QVERIFY(!r.answer);
        QCOMPARE(r.returned, std::string("1.5"));
    }
};

HITCOUNTER_TEST_GUILESS_MAIN(TestJsCounter)
#include "tst_js_counter.moc"
