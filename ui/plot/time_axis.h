// Time axes: every plot over time labels its seconds the same way (docs/gui.md, "Time zones").
//
// GUI thread only.
//  - Clock mode (unix seconds: live sources, access logs, traces whose times are dates):
//    ticks at round times of the zone shown (display_zone.h), labelled hh:mm:ss below a
//    minute's step, hh:mm from a minute, with the date (MM-dd hh:mm) once the range spans a
//    day or more and as yyyy-MM-dd from a day's step, so that no two ticks of one pass read
//    the same. The titled axis names the zone: "clock time (UTC+12:00)", "clock time (local,
//    UTC+01:00)"; it follows the zone when it changes (retitled, relabelled, replotted).
//  - Trace mode (a trace's own small seconds): ticks at whole seconds of 1, 2 or 5 x 10^n,
//    plain numbers with digit grouping ("1,000", never 1.7·10⁹); untitled axes carry the unit
//    ("200 s").
//  - With a TraceWrap (a looping replay), labels past the trace's end show the time within the
//    trace, and ticks stand at round trace times in every pass (20, 40, 60, 20, ... for a
//    60 s trace): a label repeats only in another pass.
#pragma once

#include "ui/plot/qcp.h"

#include <optional>

#include "ui/common/history_update.h"

namespace hitcounter::ui {

// t itself inside the trace or before it; else first + (t - first) mod span.
double wrapTraceTime(double t, const TraceWrap& wrap);

// Times from this value on are dates (unix seconds since 1973-03-03): a trace CSV whose times
// are that large is drawn in clock mode.
inline constexpr Timestamp kFirstDateSecond = 100'000'000;

// Clock: "clock time (ZONE)" with the ticks above; Trace: "trace time (s)".
void setTimeAxis(QCPAxis& axis, TimeAxisMode mode, std::optional<TraceWrap> wrap = std::nullopt);
// setTimeAxis() without the axis title, for small charts under a plot that has it: clock
// ticks as above; trace ticks carry the unit ("200 s").
void setUntitledTimeAxis(QCPAxis& axis, TimeAxisMode mode,
                         std::optional<TraceWrap> wrap = std::nullopt);
// setTimeAxis() for a narrow plot: ticks at least `minimumStep` seconds apart; a clock axis is
// titled with its zone alone ("local, UTC+01:00"), a trace axis "trace time (s)".
void setShortTimeAxis(QCPAxis& axis, TimeAxisMode mode, std::optional<TraceWrap> wrap,
                      double minimumStep);
// True if `axis` shows clock time (set by the functions above in Clock mode).
bool isClockAxis(const QCPAxis& axis);
// True if `axis` is a time axis set by the functions above (either mode).
bool isTimeAxis(const QCPAxis& axis);
// The axis' time `t` as a readout writes it: "2026-12-01 13:05:07 UTC+01:00" (clock, in the
// zone shown) or "t = 1,005 s" (trace), wrapped into the trace like the axis' labels.
QString axisTimeText(const QCPAxis& axis, double t);

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
