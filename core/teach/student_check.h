// The lockstep check of a learner's counter against RingCounter (issue 24: the Code tab and
// `hitcounter-cli teach --code`).
//
// Not thread-safe: it drives one CounterUnderTest, on the thread that owns it.
//
// checkCounter() runs the learner's counter and RingCounter side by side, call by call, on
// sequences that keep LeetCode 362's rule that calls come in chronological order (seconds never
// decrease; many calls may share a second): the lesson's operations when they keep it, then
// the adversarial traces for W (the LeetCode example, a burst, the t - W boundary, a gap longer
// than W, hits 2W apart into one slot, a long quiet then a query, every second busy), then
// seeded random ones (answers only: counting a JavaScript counter's operations slows it some
// 60 times, so the work and the bytes are measured on the lesson's and the adversarial traces
// and the growth probes). A "hit t xN" is N calls of hit(t). The first getHits whose answer
// differs, or the first call that throws or is stopped (time or memory bound), is the first
// difference; that sequence is then shrunk (shrink.h) to a minimal one that still fails the
// same way, which is run once more step by step for the view. Then every adversarial trace is
// run whole, so the answers can be compared with the documented mistakes' models
// (student_mistakes.h), and the growth probes measure the work of a getHits and the bytes
// held as hits pile up (unbounded memory, a linear pop).
//
// Example, W = 10: a counter whose getHits counts t - W too first differs on the LeetCode
// example at "getHits 11" (yours 4, the reference 3); it shrinks to "hit 1; getHits 11", and
// the mistake is "inclusive_edge".
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/teach/counter_under_test.h"
#include "core/teach/operation_parser.h"
#include "core/teach/student_mistakes.h"

namespace hitcounter::teach {

struct CheckTrace {
    std::string name;  // "the LeetCode example", "random 3 (seed 7)"
    std::vector<Operation> ops;
};

// The adversarial traces for `window`, in the order the check runs them.
std::vector<CheckTrace> adversarialTraces(std::chrono::seconds window);
// `count` seeded random chronological traces of 30 operations: mostly small steps with
// repeats, queries at the head and exactly W after an earlier hit, gaps longer than W, jumps of
// exactly 2W. The same seed and window always give the same traces.
std::vector<CheckTrace> randomTraces(std::chrono::seconds window, std::uint64_t seed,
                                     int count = 4);
// True when no operation's second is smaller than the one before it.
bool chronological(const std::vector<Operation>& ops);

// One operation as the learner's counter and the reference saw it.
struct StepResult {
    Operation op;
    // The operation's last call (or its first that did not return); operations summed over
    // its calls.
    CallResult yours;
    std::optional<Count> reference;  // getHits: RingCounter's answer
    bool differs = false;            // another answer, or a call that did not return
};

struct TraceRun {
    std::string name;
    CallResult started;             // the constructor's result
    std::vector<StepResult> steps;  // up to and with the first difference when stopping there
    std::optional<std::size_t> difference;  // its index in steps; steps.size() when the
                                            // constructor failed
    std::size_t calls = 0;
};

// Runs `ops` on a fresh counter and a fresh RingCounter, its calls reporting `detail`. With
// stopAtDifference, it ends at the first difference.
TraceRun runTrace(CounterUnderTest& counter, const CheckTrace& trace, std::chrono::seconds window,
                  bool stopAtDifference,
                  CounterUnderTest::Detail detail = CounterUnderTest::Detail::Everything);

// "hit 5", "hit 5 x3", "getHits 12": the operation in the lesson syntax.
std::string operationText(const Operation& op);

struct CheckOptions {
    std::chrono::seconds window{300};
    std::uint64_t seed = 1;
    std::vector<Operation> lessonOperations;  // run first when chronological
    std::function<bool()> cancelled;          // polled between calls; true stops the check
    std::function<void(std::size_t done, std::size_t total)> progress;  // traces run
};

struct CheckReport {
    bool agrees = true;    // every getHits answered as the reference, no call failed
    bool complete = true;  // false when cancelled before the end
    std::size_t traces = 0;
    std::size_t calls = 0;
    std::string lessonNote;           // why the lesson's operations were not run, or empty
    std::optional<TraceRun> failing;  // the first trace that differed, up to the difference
    // The shrunk failing sequence (or, when the answers agree, the probe that shows a
    // performance mistake), and that sequence run step by step.
    std::vector<Operation> minimal;
    TraceRun minimalRun;
    std::optional<MistakeId> mistake;
    std::string mistakeEvidence;  // the numbers that named it
    // Per call, over the calls of the lesson's and the adversarial traces (not the random
    // ones, not the probes).
    std::uint64_t maxOperations = 0;
    double meanOperations = 0;
    std::size_t memoryBytes = 0;  // the largest size after any of those calls
    std::vector<GrowthPoint> growth;
};

CheckReport checkCounter(CounterUnderTest& counter, const CheckOptions& options);

// The growth probes alone (growthProbeSizes(), student_mistakes.h), smallest first; it stops at
// the first probe whose calls do not all return, or when `cancelled` says so. The Code tab
// measures the write-up's ring with it, to draw the learner's curve against the ring's.
std::vector<GrowthPoint> measureGrowth(CounterUnderTest& counter, std::chrono::seconds window,
                                       const std::function<bool()>& cancelled = {});

}  // namespace hitcounter::teach
