// History mirror: the receiving side of the per-second history delta that EngineFrame::history
// and LimitsFrame::history carry, named once (MainWindow and LimitsView keep their copy of the
// history with it).
//
// Thread-compatible (a function over the caller's containers). The protocol: a frame says
// `rebuild` (forget every record) or not, then carries the records from its first changed
// second on, oldest first, seconds contiguous. applyHistoryDelta() clears the mirror on rebuild,
// replaces each record whose second the mirror holds and appends the newer ones, then drops the
// oldest until at most `keep` records (at least 1) are left. O(delta + dropped).
//
// Example: mirror {10, 11, 12}, delta {12', 13} without rebuild, keep 3: {11, 12', 13}.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <vector>

namespace hitcounter {

template <class Record>
void applyHistoryDelta(std::deque<Record>& mirror, const std::vector<Record>& delta, bool rebuild,
                       std::size_t keep) {
    if (rebuild) {
        mirror.clear();
    }
    for (const Record& record : delta) {
        if (!mirror.empty() && record.second <= mirror.back().second &&
            record.second >= mirror.front().second) {
            mirror[std::size_t(record.second - mirror.front().second)] = record;
        } else {
            mirror.push_back(record);
        }
    }
    const std::size_t bound = std::max<std::size_t>(keep, 1);
    while (mirror.size() > bound) {
        mirror.pop_front();
    }
}

}  // namespace hitcounter
