// HitEvent and HitBatch: what sources produce and the engine consumes. Values only: a batch
// is moved across the thread boundary, never shared.
#pragma once

#include <string>
#include <vector>

#include "core/counters/window_counter.h"

namespace hitcounter {

struct HitEvent {
    Timestamp time = 0;   // whole seconds (trace time for replay, unix time for live sources)
    std::string key;      // item (page, metric name); empty when the source has none
    std::string visitor;  // visitor id; empty when the source has none
    Count count = 1;      // hits this event stands for (statsd "c" value / rate)

    friend bool operator==(const HitEvent&, const HitEvent&) = default;
};

using HitBatch = std::vector<HitEvent>;

}  // namespace hitcounter
