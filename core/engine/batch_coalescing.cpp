#include "core/engine/batch_coalescing.h"

#include "core/base/saturating.h"

namespace hitcounter {

void coalesceBySecond(std::span<const HitEvent> events, std::vector<SecondHits>& runs) {
    runs.clear();
    for (const HitEvent& e : events) {
        if (!runs.empty() && runs.back().time == e.time) {
            runs.back().count = saturatingAdd(runs.back().count, e.count);
        } else {
            runs.push_back(SecondHits{e.time, e.count});
        }
    }
}

}  // namespace hitcounter
