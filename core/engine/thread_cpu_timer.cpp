#include "core/engine/thread_cpu_timer.h"

#include <time.h>

#include <algorithm>

namespace hitcounter {

ThreadCpuTimer::ThreadCpuTimer() : m_overhead(std::chrono::nanoseconds::max()) {
    for (int i = 0; i < kOverheadTries; ++i) {
        const auto start = now();
        m_overhead = std::min(m_overhead, now() - start);
    }
}

std::chrono::nanoseconds ThreadCpuTimer::now() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

std::chrono::nanoseconds ThreadCpuTimer::since(std::chrono::nanoseconds start) const {
    return std::max(now() - start - m_overhead, std::chrono::nanoseconds::zero());
}

}  // namespace hitcounter
