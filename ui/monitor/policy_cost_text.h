// The words and figures the policy comparison's chart and table both show for the policies'
// costs (core/engine/policy_costs.h) and memory.
//
// GUI thread only (translated texts).
//
// Example: nsText(0.84) == "0.84", nsText(2.14) == "2.1", nsText(175.2) == "175";
// memoryText(168) == "168 B", memoryText(16'500) == "16.5 kB".
#pragma once

#include <QString>
#include <cstddef>
#include <string>

#include "core/engine/policy_costs.h"

namespace hitcounter::ui {

// A cost in ns with the digits it needs: "0.84", "2.1", "175", "12,345".
QString nsText(double ns);
// Bytes as in the memory chart, but "168 B", not "168 bytes": the widest figure of its column,
// which took the room of the cost columns at 1024 px.
QString memoryText(std::size_t bytes);
// How the figures were measured, for the tooltips; `costs` says on what.
QString costMethodText(const PolicyCosts& costs);
// The figures of policy `name`, or nullptr before they were measured.
const PolicyCost* costOf(const PolicyCosts& costs, const std::string& name);

}  // namespace hitcounter::ui
