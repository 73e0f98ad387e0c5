#include "ui/plot/series_values.h"

#include <cmath>

#include "ui/plot/qcp.h"

namespace hitcounter::ui {

bool isListed(const QCPGraph& graph) {
    return !graph.property(kMarkerProperty).toBool() &&
           (graph.visible() || graph.property(kDrawnByStackProperty).toBool());
}

std::optional<double> pointAt(const QCPGraph& graph, double t) {
    const auto data = graph.data();
    auto it = data->findBegin(t - 0.5, false);
    if (it == data->constEnd() || std::abs(it->key - t) > 0.5) {
        return std::nullopt;
    }
    return it->value;
}

std::optional<double> ownValueAt(const QCPGraph& graph, double t) {
    const std::optional<double> point = pointAt(graph, t);
    const QCPGraph* below = graph.channelFillGraph();
    if (!point || below == nullptr || !graph.property(kStackedProperty).toBool()) {
        return point;
    }
    return *point - pointAt(*below, t).value_or(0.0);
}

QString readoutName(const QCPGraph& graph) {
    const QString name = graph.property(kReadoutNameProperty).toString();
    return name.isEmpty() ? graph.name() : name;
}

}  // namespace hitcounter::ui
