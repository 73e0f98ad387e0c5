// Helpers shared by the plots over time. GUI thread only.
#pragma once

#include "ui/qcp.h"

#include "ui/history_update.h"

namespace hitcounter::ui {

// Clock: hh:mm:ss ticks of unix seconds, label "clock time"; Trace: plain seconds.
void setTimeAxis(QCPAxis& axis, TimeAxisMode mode);

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
