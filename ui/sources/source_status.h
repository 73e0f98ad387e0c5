// The running source's line in the status bar and the sources dock: its description, plus
// for a followed access log the follower's figures (lines, hits, bad lines, rotations,
// truncations), so they show with the other source stats.
//
// GUI thread; reads only the sources' thread-safe stats().
#pragma once

#include <QString>

namespace hitcounter {
class FollowSource;
class ReplaySource;
class Source;
}  // namespace hitcounter

namespace hitcounter::ui {

// e.g. "follow /var/log/nginx/access.log · lines 1,204 · hits 1,200 · bad 4 · rotations 1 ·
// truncations 0" when `follow` (the source as a follower, else null) is given; other sources:
// describe().
QString sourceStatusText(const Source& source, const FollowSource* follow);
// The figures alone: "lines 1,204 · hits 1,200 · bad 4 · rotations 1 · truncations 0".
QString followStatsText(const FollowSource& follow);

// The state the screen shows for the running source (the status bar, a snapshot's settings,
// the state JSON): "playing", "paused", "ended", "failed" or "loading" for a replay (`replay`:
// the source as a replay, else null), "live" or "paused" for the others, "stopped" when none
// runs. `viewsPaused`: the window froze its views (Space), which a live source shows as paused.
QString sourceStateName(const Source* source, const ReplaySource* replay, bool viewsPaused);

}  // namespace hitcounter::ui
