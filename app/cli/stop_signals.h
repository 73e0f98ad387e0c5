// Stop signals for the CLI's commands (listen, simulate, gen) without a handler setting a
// flag: the signals are blocked and the main loop polls for them, so every catchable signal
// that would end the process (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2,
// SIGPOLL, SIGPROF, SIGVTALRM, SIGXCPU, SIGXFSZ, SIGSTKFLT, SIGPWR and the real-time
// signals) ends the command the same orderly way: the recording is finished and the report
// printed. SIGPIPE is ignored for the whole CLI (ignoreBrokenPipe), so a closed stdout shows
// as a write error the command reports (exit code 1) after finishing its recording. Faults
// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS) are crashes: a recording then
// stays FILE.partial. SIGKILL and SIGSTOP cannot be caught.
//
// Threading: call blockStopSignals() on the main thread before starting any worker thread
// (threads inherit the mask, so only the main loop ever takes the signals).
#pragma once

#include <csignal>
#include <string>

namespace hitcounter::cli {

// Makes writes to a closed pipe fail with EPIPE instead of killing the process; main() calls
// it once for every command.
void ignoreBrokenPipe();
// Blocks the stop signals in this thread and every thread started after it; returns the set.
sigset_t blockStopSignals();
// The stop signal that arrived (consuming it), or 0 if none did; never waits.
int stopSignalArrived(const sigset_t& set);
// "SIGINT" for SIGINT and so on; "signal N" for one without a name.
std::string signalName(int signal);

}  // namespace hitcounter::cli
