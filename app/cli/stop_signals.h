// SIGINT/SIGTERM for headless commands (listen, simulate) without a handler setting a flag:
// the signals are blocked and the main loop polls for them.
//
// Threading: call blockStopSignals() on the main thread before starting any worker thread
// (threads inherit the mask, so only the main loop ever takes the signals).
#pragma once

#include <csignal>

namespace hitcounter::cli {

// Blocks SIGINT and SIGTERM in this thread and every thread started after it; returns the set.
sigset_t blockStopSignals();
// True if SIGINT or SIGTERM arrived (consumes it); never waits.
bool stopSignalArrived(const sigset_t& set);

}  // namespace hitcounter::cli
