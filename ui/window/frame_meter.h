// FrameMeter: frame durations (update + replot) and resident memory, for --bench-frames.
//
// GUI thread only. Keeps every recorded duration (the bench records a bounded number).
// percentile(50) is the median; rssBytes() reads /proc/self/statm (0 where unavailable).
#pragma once

#include <chrono>
#include <cstddef>
#include <vector>

namespace hitcounter::ui {

class FrameMeter {
public:
    void record(std::chrono::nanoseconds frame) { m_frames.push_back(frame); }
    std::size_t frames() const { return m_frames.size(); }
    // Nearest-rank percentile in milliseconds, p in [0, 100]; 0 without frames.
    double percentileMs(double p) const;
    double maxMs() const { return percentileMs(100.0); }

    static std::size_t rssBytes();

private:
    std::vector<std::chrono::nanoseconds> m_frames;
};

}  // namespace hitcounter::ui
