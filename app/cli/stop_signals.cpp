#include "app/cli/stop_signals.h"

#include <pthread.h>

#include <ctime>

namespace hitcounter::cli {

sigset_t blockStopSignals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    return set;
}

bool stopSignalArrived(const sigset_t& set) {
    const timespec zero{};
    return sigtimedwait(&set, nullptr, &zero) > 0;
}

}  // namespace hitcounter::cli
