// What the window says about a replayed stream's progress (ReplayProgress, from the Seekable
// capability): that it loaded, that it has nothing to play and why, where a gzip file was cut.
// `file` is the replayed file as the user named it. The source session reports them once each
// (SourceSession::tick); --state-json --seek prints the empty-trace text on stderr.
//
// Any thread (pure functions of their arguments); replayLoadedText() reads the zone shown.
#pragma once

#include <QString>
#include <QStringList>

#include "core/sources/replay_progress.h"

namespace hitcounter::ui {

// How many files go with the one named: "and 1 more file", "and 3 more files"; empty for 0.
QString moreFilesText(qsizetype more);
// How a replay of `files` (at least one) is named on screen: the first file's name, and how
// many more there are ("access.log and 3 more files").
QString replayFilesName(const QStringList& files);

// Why a loaded replay of `file` has nothing to play (no good row): "FILE: the trace is empty: no
// hits to replay", that all its rows are bad, with the first, that the filter refused every
// line ("FILE: no hits to replay: the filter refuses all 3,260 lines"), or that it was cut
// before its first row. Empty unless it ended without a good row.
QString emptyReplayText(const ReplayProgress& progress, const QString& file);

// Where a gzip file cut short was cut: "FILE: truncated at line 1608: 1,607 lines replayed",
// FILE the one cut (ReplayProgress::truncatedFile); empty unless one was.
QString replayTruncationText(const ReplayProgress& progress);

// What the status bar says once a replay of `file` has loaded: its rows and the trace times it
// spans ("Loaded t.csv: 1,000 rows, trace time 1 s to 1,000 s"; with a filter "Loaded a.log:
// 674 rows (2,586 lines refused by the filter), trace time ..."; with `clockTimes` dates and
// clock times in the zone shown, named: "… 2009-03-01 06:00:00 to 2009-03-01 07:00:00 UTC"). Empty
// while loading, or for a replay with nothing to play.
QString replayLoadedText(const ReplayProgress& progress, const QString& file, bool clockTimes);

}  // namespace hitcounter::ui
