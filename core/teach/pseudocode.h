// The ring-buffer pseudocode the teaching view shows, and the line each step ends on: the
// textbook scan (kPseudocode) in most lessons, the running total with lazy expiry
// (kRunningPseudocode) in the running-total lesson (Lesson::code).
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
    // The running total with lazy expiry (RingCounter's way; the running-total lesson), in
    // kRunningPseudocode: RunHitHeader is its line 0.
    RunHitHeader,
    RunDropLate,
    RunExpire,
    RunMoveHead,
    RunPickSlot,  // shares its line with RunMoveHead
    RunCheckSecond,
    RunResetSlot,
    RunAddCount,
    RunGetHeader,
    RunPastCheck,
    RunPastSum,
    RunGetExpire,
    RunGetMoveHead,  // shares its line with RunGetExpire
    RunGetReturn,
    RunExpireHeader,
    RunExpireLoop,
    RunExpireSubtract,
};

// Which listing a lesson's code panel shows: the textbook scan (kPseudocode) or the running
// total (kRunningPseudocode).
enum class Code { Scan, RunningTotal };

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

// The running total: getHits at or after the head returns `total`; moving the head expires
// only the slots whose second leaves the window (they keep their second: lazy). As many lines
// as the scan's, so the code panel needs no more room (1280x720): no blank lines, two pairs of
// steps share a line.
inline constexpr std::array<std::string_view, 15> kRunningPseudocode = {
    "hit(t):",
    "    if t <= head - W: return    # too late",
    "    if t > head: expire(t)",
    "    head = max(head, t); i = t mod W",
    "    if slot[i].second != t:     # older second",
    "        slot[i] = (t, 0)        # reset it",
    "    slot[i].count += 1; total += 1",
    "getHits(t):",
    "    if t < head:                # into the past",
    "        return sum of the slots in (head - W, t]",
    "    expire(t); head = t",
    "    return total",
    "expire(t):          # the head moves on to t",
    "    for each slot s in (head - W, t - W]:",
    "        total -= s.count    # s keeps its second",
};

// Line::RunHitHeader + k is on line kRunningLineOf[k] of kRunningPseudocode.
inline constexpr std::array<int, 17> kRunningLineOf = {0, 1, 2,  3,  3,  4,  5,  6, 7,
                                                       8, 9, 10, 10, 11, 12, 13, 14};

inline constexpr Code codeOf(Line line) {
    return int(line) >= int(Line::RunHitHeader) ? Code::RunningTotal : Code::Scan;
}

// The 0-based position of `line` in its listing; -1 for Line::None.
inline constexpr int lineIndex(Line line) {
    if (line == Line::None) {
        return -1;
    }
    return codeOf(line) == Code::RunningTotal
               ? kRunningLineOf[std::size_t(int(line) - int(Line::RunHitHeader))]
               : int(line);
}

// The text of `line` in its listing; empty for Line::None.
inline constexpr std::string_view lineText(Line line) {
    if (line == Line::None) {
        return {};
    }
    return codeOf(line) == Code::RunningTotal ? kRunningPseudocode[std::size_t(lineIndex(line))]
                                              : kPseudocode[std::size_t(lineIndex(line))];
}

}  // namespace hitcounter::teach
