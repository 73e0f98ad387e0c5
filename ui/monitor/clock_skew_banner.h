// ClockSkewBanner: the orange banner above the plots when a live source's newest line is far
// from the clock (a followed log years old, or a sender's clock hours off): how far, and what
// it does to the counts. Hits older than the window on arrival count as too late
// (engine_worker.h); hits ahead of the clock are counted at their own time.
//
// GUI thread only. Times are passed in (unix seconds), so tests need no clock.
//
// Example: observe("access.log", 1'258'000'000, 1'767'000'000, 300) -> visible, "The newest
// line of access.log is 16 years 1 month behind the clock ..."; observe(.., now - 2, now, 300)
// -> hidden.
#pragma once

#include <QLabel>
#include <optional>

#include "core/base/types.h"

namespace hitcounter::ui {

// "16 years 1 month", "3 days 4 h", "5 h 12 min", "12 min 5 s", "45 s" (whole units, the
// largest two).
QString durationText(Timestamp seconds);

// What the banner says about `newest` (the newest line's time) against `now`, or empty when
// it is within the window behind or kAheadSeconds ahead.
QString clockSkewText(const QString& source, Timestamp newest, Timestamp now,
                      Timestamp windowSeconds);

class ClockSkewBanner : public QLabel {
    Q_OBJECT
public:
    // Lines this far ahead of the clock are still "now" (a sender a little fast).
    static constexpr Timestamp kAheadSeconds = 60;

    explicit ClockSkewBanner(QWidget* parent = nullptr);

    // Shows or hides the banner for the newest line of `source` (nullopt: none yet).
    void observe(const QString& source, std::optional<Timestamp> newest, Timestamp now,
                 Timestamp windowSeconds);
    void applyTheme(bool dark);
};

}  // namespace hitcounter::ui
