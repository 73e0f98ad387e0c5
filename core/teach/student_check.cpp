#include "core/teach/student_check.h"

#include <algorithm>
#include <random>

#include "core/counters/ring_counter.h"
#include "core/teach/number_text.h"
#include "core/teach/shrink.h"

namespace hitcounter::teach {

namespace {

Operation hitAt(Timestamp second, Count repeat = 1) {
    return Operation{Operation::Kind::Hit, second, repeat};
}
Operation query(Timestamp second) {
    return Operation{Operation::Kind::GetHits, second};
}

// How a step failed, for shrinking: a sequence keeps failing "the same way".
enum class FailureKind { None, Answer, Error, Interrupted, OutOfMemory };

FailureKind failureOf(const TraceRun& run) {
    if (!run.difference) {
        return FailureKind::None;
    }
    const CallResult& r =
        *run.difference < run.steps.size() ? run.steps[*run.difference].yours : run.started;
    switch (r.status) {
        case CallResult::Status::Ok:
            return FailureKind::Answer;
        case CallResult::Status::Error:
            return FailureKind::Error;
        case CallResult::Status::Interrupted:
            return FailureKind::Interrupted;
        case CallResult::Status::OutOfMemory:
            return FailureKind::OutOfMemory;
    }
    return FailureKind::Answer;
}

// The getHits answers of a run, nullopt where the call did not return a whole number.
std::vector<std::optional<Count>> answersOf(const TraceRun& run) {
    std::vector<std::optional<Count>> out;
    for (const StepResult& s : run.steps) {
        if (s.op.kind == Operation::Kind::GetHits) {
            out.push_back(s.yours.ok() ? s.yours.answer : std::nullopt);
        }
    }
    return out;
}

// Whether a model's answers are the learner's on every getHits the learner answered.
bool sameAnswers(const std::vector<Count>& model, const std::vector<std::optional<Count>>& yours) {
    if (model.size() < yours.size()) {
        return false;
    }
    for (std::size_t i = 0; i < yours.size(); ++i) {
        if (!yours[i] || *yours[i] != model[i]) {
            return false;
        }
    }
    return true;
}

std::vector<Operation> prefix(const std::vector<Operation>& ops, std::size_t steps) {
    return {ops.begin(), ops.begin() + std::ptrdiff_t(std::min(steps, ops.size()))};
}

}  // namespace

std::string operationText(const Operation& o) {
    std::string text = (o.kind == Operation::Kind::Hit ? "hit " : "getHits ") + num(o.second);
    if (o.repeat > 1) {
        text += " x" + num(o.repeat);
    }
    return text;
}

bool chronological(const std::vector<Operation>& ops) {
    for (std::size_t i = 1; i < ops.size(); ++i) {
        if (ops[i].second < ops[i - 1].second) {
            return false;
        }
    }
    return true;
}

std::vector<CheckTrace> adversarialTraces(std::chrono::seconds window) {
    const Timestamp w = window.count();
    using K = Operation::Kind;
    std::vector<CheckTrace> out;
    out.push_back({"the LeetCode example",
                   {hitAt(1), hitAt(2), hitAt(3), query(4), hitAt(w), query(w), query(w + 1)}});
    out.push_back(
        {"a burst in one second",
         {hitAt(5, 40), query(5), hitAt(6, 3), query(5 + w - 1), query(5 + w), query(6 + w)}});
    out.push_back(
        {"the t - W boundary",
         {hitAt(1), hitAt(2), query(w), query(1 + w), query(2 + w), hitAt(2 + w), query(2 + w)}});
    out.push_back({"a gap longer than W",
                   {hitAt(3), hitAt(4, 2), query(4), hitAt(4 + w + 7), query(4 + w + 7),
                    query(4 + 2 * w + 7)}});
    out.push_back({"hits 2W apart into one slot",
                   {hitAt(7), query(7), hitAt(7 + 2 * w), query(7 + 2 * w), hitAt(7 + 4 * w, 2),
                    query(7 + 4 * w), query(7 + 5 * w - 1)}});
    out.push_back({"one slot reused exactly W later",
                   {hitAt(5, 2), hitAt(5 + w), query(5 + w), query(5 + 2 * w - 1)}});
    out.push_back(
        {"a long quiet, then a query", {hitAt(1), hitAt(2), hitAt(3), query(3 + 10 * w)}});
    CheckTrace busy{"every second busy", {}};
    for (Timestamp t = 1; t <= w + 3; ++t) {
        busy.ops.push_back(hitAt(t));
        if (t % std::max<Timestamp>(7, w / 6) == 0 || t > w) {
            busy.ops.push_back(Operation{K::GetHits, t});
        }
    }
    busy.ops.push_back(query(2 * w + 2));
    out.push_back(std::move(busy));
    return out;
}

std::vector<CheckTrace> randomTraces(std::chrono::seconds window, std::uint64_t seed, int count) {
    const Timestamp w = window.count();
    std::mt19937_64 rng(seed * 0x2545F4914F6CDD1DULL + std::uint64_t(w));
    auto pick = [&](std::int64_t n) { return std::int64_t(rng() % std::uint64_t(n)); };
    std::vector<CheckTrace> out;
    for (int k = 1; k <= count; ++k) {
        CheckTrace trace{"random " + num(k) + " (seed " + num(seed) + ")", {}};
        Timestamp t = 1 + pick(w);
        std::vector<Timestamp> hits;
        while (trace.ops.size() < 30) {
            const auto roll = pick(100);
            if (roll < 50) {
                t += pick(3);
                trace.ops.push_back(hitAt(t, pick(5) == 0 ? Count(2 + pick(6)) : 1));
                hits.push_back(t);
            } else if (roll < 78) {
                t += pick(3);
                trace.ops.push_back(query(t));
            } else if (roll < 88 && !hits.empty()) {  // exactly W (or W - 1) after a hit
                const Timestamp at =
                    hits[std::size_t(pick(std::int64_t(hits.size())))] + w - (pick(2) == 0 ? 0 : 1);
                t = std::max(t, at);
                trace.ops.push_back(query(t));
            } else if (roll < 94) {
                t += w + pick(2 * w);
                trace.ops.push_back(hitAt(t));
                hits.push_back(t);
            } else {
                t += 2 * w;
                trace.ops.push_back(hitAt(t));
                hits.push_back(t);
            }
        }
        trace.ops.push_back(query(t + pick(w + 2)));
        out.push_back(std::move(trace));
    }
    return out;
}

TraceRun runTrace(CounterUnderTest& counter, const CheckTrace& trace, std::chrono::seconds window,
                  bool stopAtDifference, CounterUnderTest::Detail detail) {
    TraceRun run;
    run.name = trace.name;
    RingCounter reference(window);
    counter.setDetail(detail);
    const bool measure = detail != CounterUnderTest::Detail::Answers;
    run.started = counter.start(window);
    if (!run.started.ok()) {
        run.difference = 0;
        return run;
    }
    if (measure) {
        run.started.memoryBytes = counter.memoryBytes();
    }
    for (const Operation& o : trace.ops) {
        StepResult step;
        step.op = o;
        if (o.kind == Operation::Kind::Hit) {
            std::uint64_t operations = 0;
            for (Count n = 0; n < o.repeat; ++n) {
                reference.hit(o.second);
                step.yours = counter.hit(o.second);
                ++run.calls;
                operations += step.yours.operations;
                if (!step.yours.ok()) {
                    break;
                }
            }
            step.yours.operations = operations;
            step.differs = !step.yours.ok();
        } else {
            step.reference = reference.count(o.second);
            step.yours = counter.getHits(o.second);
            ++run.calls;
            step.differs = !step.yours.ok() || step.yours.answer != step.reference;
        }
        if (measure && step.yours.ok()) {
            step.yours.memoryBytes = counter.memoryBytes();
        }
        run.steps.push_back(std::move(step));
        if (run.steps.back().differs && !run.difference) {
            run.difference = run.steps.size() - 1;
            if (stopAtDifference) {
                break;
            }
        }
    }
    return run;
}

namespace {

// Names the first answer mistake whose model answers like the learner on every run given.
std::optional<MistakeId> answerMistake(const std::vector<std::pair<CheckTrace, TraceRun>>& runs,
                                       std::chrono::seconds window) {
    for (const MistakeId id :
         {MistakeId::InclusiveEdge, MistakeId::CountOnly, MistakeId::NoReset}) {
        bool matchesAll = true;
        bool matchesOne = false;
        for (const auto& [trace, run] : runs) {
            const auto yours = answersOf(run);
            bool any = false;
            for (const auto& model :
                 modelAnswers(id, prefix(trace.ops, run.steps.size()), window)) {
                any = any || sameAnswers(model, yours);
            }
            matchesAll = matchesAll && any;
            matchesOne = matchesOne || any;
        }
        if (matchesAll && matchesOne) {
            return id;
        }
    }
    return std::nullopt;
}

}  // namespace

std::vector<GrowthPoint> measureGrowth(CounterUnderTest& counter, std::chrono::seconds window,
                                       const std::function<bool()>& cancelled) {
    std::vector<GrowthPoint> points;
    for (const std::size_t hits : growthProbeSizes()) {
        if (cancelled && cancelled()) {
            break;
        }
        const TraceRun probe = runTrace(counter, {"growth", growthProbe(hits, window)}, window,
                                        false, CounterUnderTest::Detail::Costs);
        const bool returned = probe.started.ok() && probe.steps.size() == 3 &&
                              std::all_of(probe.steps.begin(), probe.steps.end(),
                                          [](const StepResult& s) { return s.yours.ok(); });
        if (!returned) {
            break;  // a counter whose calls do not return has no growth to measure
        }
        points.push_back({hits, probe.steps[1].yours.operations, probe.steps[2].yours.operations,
                          probe.steps[1].yours.memoryBytes, probe.steps[2].yours.memoryBytes});
    }
    return points;
}

CheckReport checkCounter(CounterUnderTest& counter, const CheckOptions& options) {
    CheckReport report;
    const auto cancelled = [&] { return options.cancelled && options.cancelled(); };
    std::vector<CheckTrace> traces;
    if (!options.lessonOperations.empty()) {
        if (chronological(options.lessonOperations)) {
            traces.push_back({"this lesson", options.lessonOperations});
        } else {
            report.lessonNote =
                "The lesson's operations were not run: they go back in time (a late hit or a "
                "query into the past), which LeetCode's problem rules out.";
        }
    }
    const std::vector<CheckTrace> adversarial = adversarialTraces(options.window);
    traces.insert(traces.end(), adversarial.begin(), adversarial.end());
    const std::size_t measured = traces.size();  // the lesson's and the adversarial traces
    const std::vector<CheckTrace> random = randomTraces(options.window, options.seed);
    traces.insert(traces.end(), random.begin(), random.end());
    const std::size_t total = traces.size() + adversarial.size() + growthProbeSizes().size();
    std::size_t done = 0;
    const auto progressed = [&] {
        if (options.progress) {
            options.progress(++done, total);
        }
    };

    std::uint64_t operationSum = 0;
    std::size_t measuredCalls = 0;
    for (std::size_t k = 0; k < traces.size(); ++k) {
        const CheckTrace& trace = traces[k];
        if (cancelled()) {
            report.complete = false;
            return report;
        }
        const bool measure = k < measured;
        TraceRun run =
            runTrace(counter, trace, options.window, true,
                     measure ? CounterUnderTest::Detail::Costs : CounterUnderTest::Detail::Answers);
        ++report.traces;
        report.calls += run.calls;
        for (std::size_t i = 0; measure && i < run.steps.size(); ++i) {
            const StepResult& s = run.steps[i];
            // A "hit t xN" is N calls: its work spread over them for the mean, its largest
            // call unknown, so its share per call for the max too.
            const std::uint64_t calls = s.op.kind == Operation::Kind::Hit ? s.op.repeat : 1;
            report.maxOperations = std::max(report.maxOperations, s.yours.operations / calls);
            operationSum += s.yours.operations;
            measuredCalls += calls;
            report.memoryBytes = std::max(report.memoryBytes, s.yours.memoryBytes);
        }
        progressed();
        if (run.difference) {
            report.agrees = false;
            report.failing = std::move(run);
            const CheckTrace failingTrace{trace.name,
                                          prefix(trace.ops, *report.failing->difference + 1)};
            const FailureKind kind = failureOf(*report.failing);
            if (report.failing->steps.empty()) {
                break;  // the constructor failed: the smallest sequence is no call at all
            }
            report.minimal = shrinkOperations(
                failingTrace.ops,
                [&](const std::vector<Operation>& candidate) {
                    return !cancelled() &&
                           failureOf(runTrace(counter, {"", candidate}, options.window, true,
                                              CounterUnderTest::Detail::Answers)) == kind;
                },
                options.window,
                kind == FailureKind::Answer || kind == FailureKind::Error ? 400 : 24);
            break;
        }
    }
    if (measuredCalls > 0) {
        report.meanOperations = double(operationSum) / double(measuredCalls);
    }
    if (!report.agrees) {
        report.minimalRun = runTrace(counter, {"the smallest failing sequence", report.minimal},
                                     options.window, true);
        std::vector<std::pair<CheckTrace, TraceRun>> runs;
        runs.emplace_back(CheckTrace{"", report.minimal}, report.minimalRun);
        for (const CheckTrace& trace : adversarial) {
            if (cancelled()) {
                break;
            }
            TraceRun whole =
                runTrace(counter, trace, options.window, false, CounterUnderTest::Detail::Answers);
            progressed();
            // A trace whose calls did not all return says nothing about the answers.
            const bool returned =
                whole.started.ok() && std::all_of(whole.steps.begin(), whole.steps.end(),
                                                  [](const StepResult& s) { return s.yours.ok(); });
            if (returned) {
                runs.emplace_back(trace, std::move(whole));
            }
        }
        if (failureOf(report.minimalRun) == FailureKind::Answer) {
            report.mistake = answerMistake(runs, options.window);
        }
    }
    report.growth = measureGrowth(counter, options.window, [&] { return cancelled(); });
    done += growthProbeSizes().size() - 1;
    progressed();
    if (cancelled()) {
        report.complete = false;
        return report;
    }
    if (report.agrees) {
        if (const auto verdict = growthMistake(report.growth, options.window)) {
            report.mistake = verdict->id;
            report.mistakeEvidence = verdict->evidence;
            report.minimal = verdict->probe;
            report.minimalRun = runTrace(counter, {"the probe that shows it", report.minimal},
                                         options.window, false);
        }
    }
    return report;
}

}  // namespace hitcounter::teach
