// OverloadBanner: the orange banner above the plots when the monitor cannot keep up: hits
// dropped (the queue to the counting thread was full) or the queue standing nearly full (the
// counting lags behind the source). The status bar keeps the totals; the banner says what
// happens now and what to do, and hides itself kHoldMs after the last drop or lag.
//
// GUI thread only. Time is passed in (milliseconds of any steady clock), so tests need no
// sleep.
//
// Example: b.observe(0, 0.1, 0); b.observe(5'000'000, 0.1, 1000) -> visible, "5.00 M hits
// dropped"; b.observe(5'000'000, 0.0, 1000 + kHoldMs) -> hidden.
#pragma once

#include <QLabel>
#include <cstdint>

namespace hitcounter::ui {

class OverloadBanner : public QLabel {
    Q_OBJECT
public:
    static constexpr std::int64_t kHoldMs = 5000;
    // A queue filled to this share of its bound for kLagMs on end counts as lag (a backlog
    // that drains within a moment, after a warm-up, does not).
    static constexpr double kLagFill = 0.9;
    static constexpr std::int64_t kLagMs = 2000;

    explicit OverloadBanner(QWidget* parent = nullptr);

    // `dropped`: the dropped hits so far (a total that only grows until reset()); `queueFill`:
    // the queue's bytes or batches over its bound (0..1); `nowMs`: the current time.
    void observe(std::uint64_t dropped, double queueFill, std::int64_t nowMs);
    // A new source: forget the totals seen so far.
    void reset();
    // Hits dropped while the banner has been up (since the first drop of this episode).
    std::uint64_t droppedInEpisode() const { return m_episodeDropped; }

private:
    std::uint64_t m_seen = 0;  // dropped total at the last observe()
    std::uint64_t m_episodeDropped = 0;
    std::int64_t m_lastTroubleMs = 0;
    bool m_lag = false;
    std::int64_t m_fullSinceMs = -1;  // when the queue was last found filling up; -1: not full
};

}  // namespace hitcounter::ui
