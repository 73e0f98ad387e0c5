// readTimeTarget: the time a person types to go to in a replay (the replay bar's "Go to"
// box), read against the replay's current time and the zone the screen shows times in:
//
//   -15m, +30s, -1h30m, +2d, -90      relative to `now` (units s, m, h, d; a bare number: s)
//   06:55, 06:55:30                   that clock time in the zone shown, on the day `now` is
//   2009-04-22 06:55[:30]             a date and a time in the zone shown ('T' between, too)
//   ... Z, ... +12:00, ... -0700      a date and time with its own offset (UTC, or the one written)
//   1240383300                        unix seconds (with clock times; trace seconds otherwise)
//
// With trace times (a trace CSV of small seconds: `clockTimes` false) only seconds and
// relative times are taken. The result is not clamped to the trace: the caller does that.
//
// A pure function of its arguments (any thread). The problem names what was typed and what
// is expected.
//
// Example (zone UTC, now = 1240383300 = 2009-04-22 06:55:00):
//     readTimeTarget("-15m", ...) == 1240382400;  readTimeTarget("06:50:30", ...) == 1240383030
#pragma once

#include <QString>
#include <variant>

#include "core/base/types.h"
#include "ui/plot/display_zone.h"

namespace hitcounter::ui {

// The time, or why `text` is not one.
std::variant<Timestamp, QString> readTimeTarget(const QString& text, Timestamp now, bool clockTimes,
                                                const DisplayZone& zone);

}  // namespace hitcounter::ui
