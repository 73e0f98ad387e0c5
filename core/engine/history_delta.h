// The per-second history delta that EngineFrame::history and LimitsFrame::history carry, both
// sides named once: the producer (Engine, LimitsFeed, the worker replacing a frame not taken
// yet) and the mirror (the views' copy, ui/window/view_fan_out.h and LimitsView).
//
// Thread-compatible (functions over the caller's containers). The protocol: a frame says
// `rebuild` (forget every record) or not, then carries the records from its first changed
// second on, oldest first, seconds contiguous (a Record has a Timestamp `second`).
//  - historyDeltaFrom(): the records of the producer's history from second `from` on (all of
//    them on rebuild). O(records returned).
//  - includeUntaken(): a frame that replaces one never taken carries that one's changes too: a
//    rebuild stays a rebuild and the delta starts at the earlier first second.
//  - applyHistoryDelta(): clears the mirror on rebuild, replaces each record whose second the
//    mirror holds and appends the newer ones, then drops the oldest until at most `keep`
//    records (at least 1) are left. O(delta + dropped).
//
// Example: mirror {10, 11, 12}, delta {12', 13} without rebuild, keep 3: {11, 12', 13}.
#pragma once

#include <algorithm>
#include <cstddef>
#include <deque>
#include <limits>
#include <vector>

#include "core/base/types.h"

namespace hitcounter {

// A producer's "first changed second" when nothing changed since its last delta.
inline constexpr Timestamp kNoChangedSecond = std::numeric_limits<Timestamp>::max();

template <class Record>
std::vector<Record> historyDeltaFrom(const std::deque<Record>& history, Timestamp from,
                                     bool rebuild) {
    if (history.empty()) {
        return {};
    }
    const Timestamp first =
        rebuild ? history.front().second : std::max(from, history.front().second);
    if (first > history.back().second) {
        return {};
    }
    return std::vector<Record>(history.begin() + std::ptrdiff_t(first - history.front().second),
                               history.end());
}

template <class Record>
void includeUntaken(bool& rebuild, Timestamp& from, bool untakenRebuild,
                    const std::vector<Record>& untakenDelta) {
    rebuild = rebuild || untakenRebuild;
    if (!untakenDelta.empty()) {
        from = std::min(from, untakenDelta.front().second);
    }
}

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
