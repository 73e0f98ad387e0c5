#include "app/cli/stop_signals.h"

#include <pthread.h>

#include <cstring>
#include <ctime>

namespace hitcounter::cli {

namespace {
constexpr int kStopSignals[] = {SIGHUP,  SIGINT,  SIGQUIT,   SIGTERM, SIGALRM, SIGUSR1, SIGUSR2,
                                SIGPOLL, SIGPROF, SIGVTALRM, SIGXCPU, SIGXFSZ, SIGPWR,  SIGSTKFLT};
}  // namespace

void ignoreBrokenPipe() {
    std::signal(SIGPIPE, SIG_IGN);
}

sigset_t blockStopSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (const int signal : kStopSignals)
        sigaddset(&set, signal);
    for (int signal = SIGRTMIN; signal <= SIGRTMAX; ++signal)
        sigaddset(&set, signal);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    return set;
}

int stopSignalArrived(const sigset_t& set) {
    const timespec zero{};
    const int signal = sigtimedwait(&set, nullptr, &zero);
    return signal > 0 ? signal : 0;
}

std::string signalName(int signal) {
    const char* abbreviation = sigabbrev_np(signal);
    return abbreviation ? std::string("SIG") + abbreviation : "signal " + std::to_string(signal);
}

}  // namespace hitcounter::cli
