// What each counting policy costs per operation, as the CostMeter (cost_meter.h) measured it
// on the recent stream: values that travel in every EngineFrame to the policy comparison and
// the state JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/types.h"

namespace hitcounter {

// One measured quantity: the median of the samples and their spread.
struct CostFigure {
    double median = 0;
    double low = 0;   // the lowest sample
    double high = 0;  // the highest sample
};

struct PolicyCost {
    std::string name;
    CostFigure nsPerHit;
    CostFigure nsPerGetHits;
    std::size_t samples = 0;  // behind each figure
};

// The newest figures, with what they were measured on. Empty `policies`: nothing measured yet.
struct PolicyCosts {
    std::uint64_t refresh = 0;         // 1, 2, ... one per measurement
    std::size_t streamEvents = 0;      // hit events captured (as delivered)
    Timestamp streamSeconds = 0;       // the seconds they span (last - first + 1)
    std::size_t hitOps = 0;            // hit() calls per sample (the stream, repeated)
    std::size_t getHitsOps = 0;        // count() calls per sample
    std::vector<PolicyCost> policies;  // "ring" first, then EngineOptions::policies order
};

}  // namespace hitcounter
