// The socket listener's figures in the sources dock: what it received and how many lines were
// refused, by kind, so a user whose sender is misconfigured sees it in the monitor; the lines
// themselves, with their sender, are in the bad lines table (bad_lines_view.h). The CLI's
// `listen` prints the same problems.
//
// GUI thread; reads only the listener's thread-safe stats() and problems().
//
// Example: "lines 12 · hits 9 · bad 2 · ignored 1
//           problems: unknown type 2 (the Bad lines tab lists the lines)"
#pragma once

#include <QString>

namespace hitcounter {
class SocketListener;
}  // namespace hitcounter

namespace hitcounter::ui {

// The text above for `listener`. Every kind of problem is named (at most
// LineIngest::kMaxProblemKinds), the most frequent first.
QString listenerStatsText(const SocketListener& listener);

}  // namespace hitcounter::ui
