// The ring-buffer pseudocode the teaching view shows, and the line each step ends on.
//
// Thread-safe (constants). Line values index kPseudocode; Line::None highlights nothing.
// getHits compares with head - W, not t - W: after a newer hit, seconds up to head - W are
// forgotten, so getHits(t) for t in the past counts (max(head, t) - W, t], exactly what
// RingCounter::count(t) does.
#pragma once

#include <array>
#include <string_view>

namespace hitcounter::teach {

enum class Line {
    None = -1,
    HitHeader = 0,
    DropLate,
    MoveHead,
    PickSlot,
    CheckSecond,
    ResetSlot,
    AddCount,
    Blank,
    GetHeader,
    GetMoveHead,
    GetSum,
    GetLoop,
    GetAdd,       // the comparison
    GetAddCount,  // its "yes": the slot's count joins the total
    GetReturn,
};

inline constexpr std::array<std::string_view, 15> kPseudocode = {
    "hit(t):",
    "    if t <= head - W: return    # too late",
    "    head = max(head, t)",
    "    i = t mod W",
    "    if slot[i].second != t:     # older second",
    "        slot[i] = (t, 0)        # reset it",
    "    slot[i].count += 1",
    "",
    "getHits(t):",
    "    head = max(head, t)",
    "    total = 0",
    "    for each slot s:",
    "        if head - W < s.second <= t:",
    "            total += s.count",
    "    return total",
};

}  // namespace hitcounter::teach
