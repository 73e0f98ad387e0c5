// The learner's JavaScript hit counter run in Qt's own engine, QJSEngine (issue 24): the
// teach::CounterUnderTest of the Code tab and of `hitcounter-cli teach --code`.
//
// Not thread-safe: the counter and its engine belong to the thread that called loadJsCounter()
// (the GUI runs it on a worker thread); only the watchdog (js_watchdog.h) reaches in, through
// QJSEngine::setInterrupted, which is thread-safe.
//
// The source is LeetCode's shape, `class HitCounter { constructor() {...} hit(timestamp) {...}
// getHits(timestamp) {...} }`, or the older `var HitCounter = function () {...}` with methods on
// its prototype; a write-up's solution pastes in unchanged. start(W) sets the global `W` and
// constructs `new HitCounter(W)`, so a constructor may take the window as an optional argument
// (`constructor(w = 300)`) or read W. The engine has ECMAScript's built-ins and a console
// (what a call prints comes back in CallResult::output), nothing else: no file, network, timer
// or module access (QJSEngine without installExtensions; `import` is a syntax error in a
// script).
//
// Bounds: each call (the constructor too) may run `limits.perCall`; the watchdog interrupts it
// after that (a `while (true) {}` is stopped within the bound plus the watchdog's 5 ms tick),
// and the call ends Interrupted with a message naming it. It also stops a call once the
// process's resident memory grows `limits.memoryBytes` beyond what it was when the call began
// (OutOfMemory). A stopped call's counter is dropped; the next start() makes a fresh one.
//
// What a call returns: CallResult::operations and memoryBytes as js_prelude.h counts them,
// variables = the instance's own fields after the call.
//
// Errors in the source: a syntax error names its line (TextProblem::line), and so does an
// exception thrown while the script itself runs; a source without HitCounter is refused.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "core/teach/counter_under_test.h"

namespace hitcounter::teachjs {

struct JsLimits {
    std::chrono::milliseconds perCall{250};
    std::size_t memoryBytes = std::size_t{256} << 20;
};

teach::LoadedCounter loadJsCounter(const std::string& source, JsLimits limits = {});

// loadJsCounter with the default limits, as a teach::CounterLoader.
teach::CounterLoader jsCounterLoader(JsLimits limits = {});

}  // namespace hitcounter::teachjs
