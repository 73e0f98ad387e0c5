// Fields of the window's state JSON (state_json.h, docs/gui.md) that one view each
// draws, as JSON text to splice into it:
//  - costsJson: {"deque": {"ns_per_hit": 3.1, "ns_per_get_hits": 2.9, "samples": 5}, ...}, the
//    policy comparison's cost figures (the medians); {} before the first measurement.
//  - fleetJson: the Fleet tab: {"state": "live", "count": 6846, "instances": [{"name": "web1",
//    "alive": true}], "outages": [{"from": ..., "to": ..., "restarted": false}], "loss": null};
//    `alive` is null while Redis is unreachable (not known), `to` null while an outage lasts,
//    `loss` (FleetLoss: at, before, after, lost_hits, logs_left) while lost counts are in the
//    window.
//
// GUI thread only (reads the views' values).
#pragma once

#include <QByteArray>

#include "core/engine/policy_costs.h"

namespace hitcounter::ui {

class FleetView;

QByteArray costsJson(const PolicyCosts& costs);
QByteArray fleetJson(const FleetView& fleet);

}  // namespace hitcounter::ui
