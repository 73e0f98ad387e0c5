#include "ui/monitor/policy_cost_text.h"

#include <QObject>

#include "ui/common/number_text.h"
#include "ui/plot/plot_layout.h"

namespace hitcounter::ui {

QString nsText(double ns) {
    return humanNumber(ns, ns < 1 ? 2 : ns < 100 ? 1 : 0);
}

QString memoryText(std::size_t bytes) {
    return bytes < 1000 ? QObject::tr("%L1 B").arg(qulonglong(bytes)) : formatBytes(bytes);
}

QString costMethodText(const PolicyCosts& costs) {
    if (costs.policies.empty()) {
        return QObject::tr(
            "Not measured yet: the first figures come a few seconds after hits arrive.");
    }
    return QObject::tr(
               "Measured beside the counting thread (never on the GUI thread, at the lowest "
               "priority, so ingest is not slowed): every few seconds the hits the source "
               "delivers next (here %L1 hits over %L2 s, as delivered, not summed per second), "
               "repeated to %L3 hit() calls, are replayed through a fresh instance of each "
               "policy in a tight loop (ns per hit); then %L4 getHits calls at the head, which "
               "moves one second every 64 calls (ns per getHits). The policies take turns, %5 "
               "samples each; a figure is their median in thread CPU time, its whisker their "
               "spread (lowest to highest). Measurement %6. Hot-loop benchmarks: "
               "docs/benchmarks.md.")
        .arg(qulonglong(costs.streamEvents))
        .arg(qlonglong(costs.streamSeconds))
        .arg(qulonglong(costs.hitOps))
        .arg(qulonglong(costs.getHitsOps))
        .arg(costs.policies.front().samples)
        .arg(costs.refresh);
}

const PolicyCost* costOf(const PolicyCosts& costs, const std::string& name) {
    for (const PolicyCost& cost : costs.policies) {
        if (cost.name == name) {
            return &cost;
        }
    }
    return nullptr;
}

}  // namespace hitcounter::ui
