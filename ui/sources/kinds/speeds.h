// The speeds offered to a source with its own time (the simulator's and a replay's: the sources
// dock, --speed): seconds of its time per wall-clock second, and the stored "speed" key both
// kinds read.
//
// GUI thread (SettingsReader).
#pragma once

#include <array>

namespace hitcounter::ui {

class SettingsReader;

inline constexpr std::array<double, 6> kSpeeds{0.5, 1.0, 2.0, 10.0, 100.0, 1000.0};

// The stored "speed" (the current group's), one of kSpeeds; `fallback` if absent or bad (a bad
// one is reset and named).
double loadSpeed(SettingsReader& settings, double fallback);

}  // namespace hitcounter::ui
