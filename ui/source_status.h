// The running source's line in the status bar and the sources dock: its description, plus
// for a followed access log the follower's figures (lines, hits, bad lines, rotations,
// truncations), so they show with the other source stats.
//
// GUI thread; reads only the sources' thread-safe stats().
#pragma once

#include <QString>

namespace hitcounter {
class FollowSource;
class Source;
}  // namespace hitcounter

namespace hitcounter::ui {

// e.g. "follow /var/log/nginx/access.log · lines 1,204 · hits 1,200 · bad 4 · rotations 1 ·
// truncations 0"; other sources: describe().
QString sourceStatusText(const Source& source);
// The figures alone: "lines 1,204 · hits 1,200 · bad 4 · rotations 1 · truncations 0".
QString followStatsText(const FollowSource& follow);

}  // namespace hitcounter::ui
