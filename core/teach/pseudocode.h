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

// Why each line is there (issue 24: the lines expand into a "why", Algorithms in Action
// style), one sentence per Line value in its order; empty for Line::None and the blank line.
inline constexpr std::array<std::string_view, 32> kWhy = {
    // kPseudocode
    "A hit records one call at second t.",
    "Second t is at or before the open end head - W: no query can count it again, and its slot "
    "may already belong to a newer second, so it is dropped.",
    "The head is the newest second seen; a late hit does not move it back.",
    "W slots for W seconds: seconds W apart share a slot, and only one of them can be in the "
    "window at a time.",
    "The slot may still hold an older second (W, 2W, ... seconds ago), and its count belongs "
    "to that second.",
    "That older second has left the window, so its count is thrown away now, when the slot is "
    "reused: a lazy reset, nothing is cleared in between.",
    "Every hit of one second grows one count: memory stays W slots, however busy the second.",
    "",
    "Count the hits in the window (max(head, t) - W, t].",
    "A query after the head moves it: the seconds up to head - W are forgotten from then on.",
    "The scan keeps no total between queries: each getHits adds its window up from zero "
    "(the running-total lesson keeps one instead).",
    "The textbook scan looks at all W slots: W slot visits for every query.",
    "Open on the left: a second exactly W before the head is out. Closed on the right: second "
    "t is in. A query into the past leaves out the seconds after t.",
    "This slot's second is in the window: all of its hits count.",
    "The sum of the slots whose second is in the window.",
    // kRunningPseudocode
    "A hit records one call at second t.",
    "Second t is at or before the open end head - W: it can never be counted again, so it is "
    "dropped.",
    "When the head moves on, the slots whose second leaves the window must leave the running "
    "total first.",
    "The head is the newest second seen; a late hit does not move it back.",
    "W slots for W seconds: seconds W apart share a slot.",
    "The slot may still hold an older second, whose count is not this second's.",
    "That older second has already left the total; its count is thrown away on reuse.",
    "One more hit in the slot, and in the running total of the window.",
    "Count the hits in the window (max(head, t) - W, t].",
    "The total covers (head - W, head]: a query before the head needs a sum of its own.",
    "Only the written slots of the window can hold seconds in (head - W, t].",
    "Moving the head to t first takes the seconds that leave the window out of the total.",
    "Now the total is exactly the window (t - W, t].",
    "No scan: the running total is the answer.",
    "expire(t) visits only the slots whose second leaves the window.",
    "Each written slot leaves the total at most once: expiring costs no more than writing did.",
    "The slot keeps its second and count (lazy): it is only taken out of the total.",
};

// Why `line` is there; empty for Line::None.
inline constexpr std::string_view lineWhy(Line line) {
    return line == Line::None ? std::string_view() : kWhy[std::size_t(int(line))];
}

}  // namespace hitcounter::teach
