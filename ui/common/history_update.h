// HistoryUpdate: what changed in the engine's per-second history since the views last drew
// it. Built once per frame by the main window and handed to every history view.
//
// GUI thread only (it refers to the engine's history, valid for the duration of the frame).
// A view with rebuild == true clears its series; then it replaces every point whose second is
// >= from with the records from `from` on (records before `from` did not change).
#pragma once

#include <deque>

#include "core/engine/engine_snapshot.h"

namespace hitcounter::ui {

struct HistoryUpdate {
    const std::deque<SecondRecord>& history;
    Timestamp from;
    bool rebuild;

    // The first record with second >= from.
    std::deque<SecondRecord>::const_iterator begin() const {
        if (history.empty() || from <= history.front().second) {
            return history.begin();
        }
        const auto offset = from - history.front().second;
        return offset >= static_cast<Timestamp>(history.size())
                   ? history.end()
                   : history.begin() + static_cast<std::ptrdiff_t>(offset);
    }
};

// What the time axis shows: clock time (dates: live sources, access logs, traces of unix
// seconds) or trace seconds (a trace's own small times).
enum class TimeAxisMode { Clock, Trace };

// A replay's trace: [first, first + span). A looping replay's time runs on past the end (each
// pass shifted by span); every time axis labels such times by their place in the trace
// (time_axis.h).
struct TraceWrap {
    Timestamp first = 0;
    Timestamp span = 1;
    bool operator==(const TraceWrap&) const = default;
};

}  // namespace hitcounter::ui
