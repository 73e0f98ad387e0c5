#include "ui/window/frame_meter.h"

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <fstream>

namespace hitcounter::ui {

double FrameMeter::percentileMs(double p) const {
    if (m_frames.empty()) {
        return 0.0;
    }
    std::vector<std::chrono::nanoseconds> sorted = m_frames;
    std::sort(sorted.begin(), sorted.end());
    const double rank = std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * double(sorted.size()));
    const std::size_t index = rank < 1.0 ? 0 : static_cast<std::size_t>(rank) - 1;
    return std::chrono::duration<double, std::milli>(sorted[std::min(index, sorted.size() - 1)])
        .count();
}

std::size_t FrameMeter::rssBytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    std::size_t resident = 0;
    if (!(statm >> pages >> resident)) {
        return 0;
    }
    return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace hitcounter::ui
