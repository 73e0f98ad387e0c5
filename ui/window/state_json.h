// The screen's state as JSON (`hitcounter --state-json OUT`, docs/gui.md "The screen's state"):
// every figure the monitor shows, for tests and scripts that compare it with the CLI and with
// independent recounts.
//
// GUI thread only. Reads what the window last drew (MainWindow::lastFrame(), history(),
// the views' state); never the engine. One function per field, in the order written:
//   time, total, policies, keys      (the window's counts at `time`)
//   seek_ms    (after a seek only) milliseconds from the seek request until every view showed
//              the exact state at `time`
//   time_zone, time_zone_choice, utc_offset_seconds   (the zone shown, display_zone.h)
//   source     {kind, state, warnings, description}
//   per_second [{t, hits, 2xx, 3xx, 4xx, 5xx, other}]  the live plot's last W seconds up to
//              the head, per status class whatever the drawing mode (other: no status, 1xx)
//   ring       [{slot, second, count, in_window}]      the ring's W slots
//   alerts     [{key, threshold, time, direction}]     the threshold crossings listed ("total":
//              all keys together; direction "up" or "down")
//   costs      {policy: {ns_per_hit, ns_per_get_hits, samples}}, fleet (only while the Fleet tab
//              is shown): view_state_json.h
// A field is added as one more function in state_json.cpp and one call in stateJson().
//
// Example: {"time": 1005, "total": 21, "policies": {"ring": 21, ...}, "keys": [...],
//           "time_zone": "UTC", ..., "source": {"kind": "replay", "state": "paused", ...}, ...}
#pragma once

#include <QByteArray>
#include <QString>
#include <chrono>
#include <optional>

#include "core/base/types.h"

namespace hitcounter::ui {

class MainWindow;

// The JSON above, one object and a newline; `time` is the second it describes (a replay's
// seek target, a live source's head); `seekTook`, if given, is written as seek_ms.
QByteArray stateJson(const MainWindow& window, Timestamp time,
                     std::optional<std::chrono::duration<double, std::milli>> seekTook = {});

}  // namespace hitcounter::ui
