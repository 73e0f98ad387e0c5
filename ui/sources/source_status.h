// The state the screen shows for the running source (the status bar, a snapshot's settings,
// the state JSON), from what the source offers (core/sources/source_capabilities.h).
//
// GUI thread; reads only the source's thread-safe progress and pause state.
#pragma once

#include <QString>

namespace hitcounter {
class Source;
}  // namespace hitcounter

namespace hitcounter::ui {

// "playing", "paused", "ended", "failed" or "loading" for a seekable source (a replay: its
// progress, paused if it is Pausable and paused), "live" or "paused" for the others, "stopped"
// when none runs. `viewsPaused`: the window froze its views (Space), which a live source shows
// as paused.
QString sourceStateName(Source* source, bool viewsPaused);

}  // namespace hitcounter::ui
