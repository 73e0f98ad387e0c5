// Helpers shared by the plots over time. GUI thread only.
#pragma once

#include "ui/qcp.h"

#include <optional>

#include "ui/history_update.h"

namespace hitcounter::ui {

// A replay's trace: [first, first + span). A looping replay's time runs on past the end (each
// pass shifted by span); such times are labelled by their place in the trace.
struct TraceWrap {
    Timestamp first = 0;
    Timestamp span = 1;
    bool operator==(const TraceWrap&) const = default;
};
// t itself inside the trace or before it; else first + (t - first) mod span.
double wrapTraceTime(double t, const TraceWrap& wrap);

// Clock: hh:mm:ss ticks of unix seconds, label "clock time"; Trace: plain seconds. With a
// wrap, tick labels past the trace's end show the time within the trace.
void setTimeAxis(QCPAxis& axis, TimeAxisMode mode, std::optional<TraceWrap> wrap = std::nullopt);
// setTimeAxis() without the axis title, for small charts under a plot that has it: clock
// ticks read hh:mm:ss; trace ticks carry the unit ("200 s").
void setUntitledTimeAxis(QCPAxis& axis, TimeAxisMode mode);

// Replaces the points of `graph` from update.from on with value(record) per record, and
// drops points older than the history.
template <typename ValueOf>
void applyHistory(QCPGraph& graph, const HistoryUpdate& update, ValueOf value) {
    if (update.rebuild) {
        graph.data()->clear();
    } else {
        graph.data()->removeAfter(static_cast<double>(update.from) - 0.5);
    }
    if (!update.history.empty()) {
        graph.data()->removeBefore(static_cast<double>(update.history.front().second) - 0.5);
    }
    QVector<double> keys;
    QVector<double> values;
    for (auto it = update.begin(); it != update.history.end(); ++it) {
        keys.push_back(static_cast<double>(it->second));
        values.push_back(value(*it));
    }
    graph.addData(keys, values, true);
}

}  // namespace hitcounter::ui
