// The socket listener's feedback in the sources dock: what it received and why lines were
// refused, so a user whose sender is misconfigured sees it in the monitor (the CLI's `listen`
// prints the same problems).
//
// GUI thread; reads only the listener's thread-safe stats() and problems().
//
// Example: "lines 12 · hits 9 · bad 2 · ignored 1
//           last bad lines:
//           unknown type (2): statsd udp 127.0.0.1:8125 from 127.0.0.1:4711: unknown type: …"
#pragma once

#include <QString>

namespace hitcounter {
class Source;
}  // namespace hitcounter

namespace hitcounter::ui {

// The text above for `source` if it is a socket listener; a null QString otherwise.
// At most kMaxProblemLines problems are listed (the most frequent kinds first).
QString listenerStatsText(const Source& source);
inline constexpr int kMaxProblemLines = 5;

}  // namespace hitcounter::ui
