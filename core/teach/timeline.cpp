#include "core/teach/timeline.h"

#include <algorithm>
#include <stdexcept>

#include "core/counters/compacting_queue.h"
#include "core/counters/deque_counter.h"
#include "core/counters/naive_counter.h"
#include "core/counters/ring_counter.h"
#include "core/teach/number_text.h"

namespace hitcounter::teach {

namespace {

std::string pairText(const Pair& p) {
    return "(" + num(p.second) + ", " + num(p.count) + ")";
}

std::string windowText(Timestamp head, std::int64_t w) {
    return "(" + num(head - w) + ", " + num(head) + "]";
}

std::string pairList(const std::vector<Pair>& pairs) {
    std::string out;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (i > 0) {
            out += i + 1 == pairs.size() ? " and " : ", ";
        }
        out += pairText(pairs[i]);
    }
    return out;
}

std::string hitsText(const Operation& op) {
    if (op.repeat == 1) {
        return "hit(" + num(op.second) + ") lands";
    }
    return num(op.repeat) + " hits at second " + num(op.second) + " land";
}

std::vector<RingSlot> snapshot(const RingCounter& ring) {
    std::vector<RingSlot> slots(ring.slotCount());
    for (std::size_t i = 0; i < slots.size(); ++i) {
        const RingCounter::Slot s = ring.slot(i);
        // A written slot always has a positive count: hits are at least one.
        slots[i] = RingSlot{s.second, s.count, s.inWindow, s.count > 0};
    }
    return slots;
}

std::vector<Pair> snapshot(const DequeCounter& deque) {
    std::vector<Pair> out;
    for (const auto& e : deque.entries()) {
        out.push_back({e.second, e.count});
    }
    return out;
}

std::vector<Pair> snapshot(const NaiveCounter& naive) {
    std::vector<Pair> out;
    for (const auto& c : naive.calls()) {
        out.push_back({c.second, c.count});
    }
    return out;
}

std::string dequeSentence(const Frame& f) {
    if (f.popped.empty()) {
        return "";
    }
    return " The deque pops " + pairList(f.popped) + " from its front.";
}

std::string pairsText(std::size_t n) {
    return num(Count{n}) + (n == 1 ? " pair" : " pairs");
}

// What the deque's buffer holds besides the live pairs (issue 24, wrong 6): the popped pairs it
// keeps until it compacts and the free room; empty when there is neither.
std::string dequeBufferText(const Frame& f) {
    const std::size_t free = f.dequeCapacity - f.deque.size() - f.dequePoppedKept;
    std::string text;
    if (f.dequePoppedKept > 0) {
        text += pairsText(f.dequePoppedKept) + " already popped, kept until it compacts (after " +
                num(Count{CompactingQueue<int>::kCompactAfter}) + " pops)";
    }
    if (free > 0) {
        text += (text.empty() ? "" : " and ") + num(Count{free}) + " free";
    }
    return text;
}

// What the memory really does: the deque costs more than the ring once its buffer outgrows
// the ring's fixed bytes, and its bytes never fall after pops (the popped pairs stay until it
// compacts, and the buffer keeps its capacity).
std::string memorySentence(const Frame& f, const Frame& previous) {
    if (f.dequeBytes > f.ringBytes && previous.dequeBytes <= previous.ringBytes) {
        const std::string extra = dequeBufferText(f);
        return " Memory: the deque now takes " + num(Count{f.dequeBytes}) + " bytes, more than " +
               "the ring's fixed " + num(Count{f.ringBytes}) + ": its buffer has room for " +
               pairsText(f.dequeCapacity) + ", " + num(Count{f.deque.size()}) +
               " of them live (one per busy second of the window)" +
               (extra.empty() ? "" : ", " + extra) + ".";
    }
    if (!f.popped.empty() && f.dequeBytes >= previous.dequeBytes) {
        return " Its " + num(Count{f.dequeBytes}) +
               " bytes do not fall after the pops: popped pairs stay in the buffer until it "
               "compacts, and the buffer keeps its capacity.";
    }
    return "";
}

// What a ring of counts only would have swept when the head moved from the previous head to t.
std::string lazySweep(const Frame& previous, Timestamp t, std::int64_t w) {
    if (previous.head && t <= *previous.head) {
        // A late hit: the head stays where it is (issue 24, wrong 8); a ring of counts only
        // cleared this slot back when its head passed second t.
        return " (a ring of counts only would have cleared this slot already, when its head "
               "passed second " +
               num(t) + " on its way to " + num(*previous.head) + ")";
    }
    if (!previous.head || t == *previous.head + 1) {
        return " (a ring of counts only would clear this one slot as the head reaches it: the "
               "same work here; the stored second pays off after a gap)";
    }
    const std::int64_t skipped = std::min<std::int64_t>(t - *previous.head, w);
    return ": nothing was cleared while the head moved from " + num(*previous.head) + " to " +
           num(t) + ", where a ring of counts only would have had to sweep the " + num(skipped) +
           " slots the head passed over";
}

// For a dropped hit: whose slot it would have clobbered, the reason a ring must drop it.
std::string ownerSentence(const Frame& f) {
    const RingSlot& owner = f.ring[*f.slot];
    if (!owner.used || !owner.inWindow) {
        return "";
    }
    return " Its slot " + num(Count{*f.slot}) + " belongs to second " + num(owner.second) + " now.";
}

std::string narrateHit(const Frame& f, const Frame& previous, std::int64_t w) {
    const Operation& op = *f.op;
    const std::string slotName =
        "slot " + num(*f.slot) + " (" + num(op.second) + " mod " + num(w) + ")";
    if (f.dropped) {
        return "hit(" + num(op.second) + ") is too late: the newest second is " +
               num(*previous.head) + ", so the window is " + windowText(*previous.head, w) +
               " and second " + num(op.second) + " is not in it. All three structures drop it; " +
               "nothing changes." + ownerSentence(f);
    }
    std::string text;
    if (previous.head && op.second < *previous.head) {
        text = "Late but still inside the window " + windowText(*f.head, w) + ": ";
    }
    const RingSlot& before = previous.ring[*f.slot];
    const RingSlot& after = f.ring[*f.slot];
    text += hitsText(op) + " in " + slotName;
    if (f.resetFrom) {
        text += ", which still holds second " + num(f.resetFrom->second) +
                ": that second left the window, so the slot is reset to " +
                pairText({after.second, after.count}) +
                ". The stored second makes this reset lazy, on reuse" +
                lazySweep(previous, op.second, w) + ".";
    } else if (before.used) {
        text += ", which already holds second " + num(op.second) + ": its count goes from " +
                num(before.count) + " to " + num(after.count) + ".";
    } else {
        text += ", which is empty: it now holds " + pairText({after.second, after.count}) + ".";
    }
    return text + dequeSentence(f) + memorySentence(f, previous);
}

std::string narrateGetHits(const Frame& f, const Frame& previous, std::int64_t w) {
    const Operation& op = *f.op;
    std::string text;
    if (previous.head && op.second < *previous.head) {
        text = "getHits(" + num(op.second) + ") asks about the past: the newest second is " +
               num(*f.head) + ", so seconds up to " + num(*f.head - w) +
               " are already forgotten and the window is " + f.windowText() + " (not (" +
               num(op.second - w) + ", " + num(op.second) + "]): " + num(*f.answer) +
               (*f.answer == 1 ? " hit." : " hits.");
    } else {
        text = "getHits(" + num(op.second) + ") adds the slots whose second is in the window " +
               f.windowText() + ": " + num(*f.answer) + (*f.answer == 1 ? " hit." : " hits.");
    }
    std::vector<std::string> stale;  // "4 (second 4)", at most three named
    std::size_t staleCount = 0;
    for (std::size_t i = 0; i < f.ring.size(); ++i) {
        const RingSlot& s = f.ring[i];
        if (s.used && !s.inWindow && ++staleCount <= 3) {
            stale.push_back(num(Count{i}) + " (second " + num(s.second) + ")");
        }
    }
    if (staleCount == 1) {
        text += " Stale slot " + stale[0] + " is left out.";
    } else if (staleCount <= 3 && staleCount > 0) {
        text += " Stale slots ";
        for (std::size_t i = 0; i < stale.size(); ++i) {
            text += (i == 0 ? "" : i + 1 == stale.size() ? " and " : ", ") + stale[i];
        }
        text += " are left out.";
    } else if (staleCount > 3) {
        text += " " + num(Count{staleCount}) + " stale slots are left out.";
    }
    text += dequeSentence(f) + memorySentence(f, previous);
    text +=
        " The naive vector scans every call it ever stored: " + num(Count{f.naive.size()}) + ".";
    return text;
}

std::string slotText(const RingSlot& s) {
    return s.used ? pairText({s.second, s.count}) : std::string("empty");
}

// The hit's lines as the pseudocode runs them; `before` is the slot before the hit.
std::vector<SubStep> hitSubSteps(const Frame& f, const Frame& previous, std::int64_t w) {
    const Operation& op = *f.op;
    const std::size_t i = *f.slot;
    const RingSlot& before = previous.ring[i];
    std::vector<SubStep> out;
    auto add = [&](Line line, std::string text, RingSlot state, std::optional<bool> taken) {
        out.push_back(SubStep{line, std::move(text), i, state, std::nullopt, taken});
    };
    if (previous.head) {
        const bool late = f.dropped;
        add(Line::DropLate,
            num(op.second) + " <= " + num(*previous.head) + " - " + num(w) + "? " +
                (late ? "yes: too late, return (nothing changes)" : "no"),
            before, late);
        if (late) {
            return out;
        }
    } else {
        add(Line::DropLate, "no head yet: nothing is too late", before, false);
    }
    add(Line::MoveHead,
        "head = max(" + (previous.head ? num(*previous.head) : std::string("none")) + ", " +
            num(op.second) + ") = " + num(*f.head),
        before, std::nullopt);
    add(Line::PickSlot, "i = " + num(op.second) + " mod " + num(w) + " = " + num(Count{i}), before,
        std::nullopt);
    const bool differs = !before.used || before.second != op.second;
    add(Line::CheckSecond,
        "slot[" + num(Count{i}) + "].second = " +
            (before.used ? num(before.second) : std::string("none (never written)")) +
            " != " + num(op.second) + "? " + (differs ? "yes" : "no"),
        before, differs);
    RingSlot state = before;
    if (differs) {
        state = RingSlot{op.second, 0, true, true};
        add(Line::ResetSlot,
            "slot[" + num(Count{i}) + "] = " + pairText({op.second, 0}) +
                (before.used ? " (second " + num(before.second) + " left the window)"
                             : std::string(" (first write)")),
            state, std::nullopt);
    }
    state = f.ring[i];
    add(Line::AddCount,
        "slot[" + num(Count{i}) + "].count += " + num(op.repeat) + ": " + slotText(state), state,
        std::nullopt);
    return out;
}

// getHits's lines: one comparison per written slot, the never-written ones in one note.
std::vector<SubStep> getSubSteps(const Frame& f, const Frame& previous) {
    const Operation& op = *f.op;
    std::vector<SubStep> out;
    out.push_back(SubStep{Line::GetMoveHead,
                          "head = max(" +
                              (previous.head ? num(*previous.head) : std::string("none")) + ", " +
                              num(op.second) + ") = " + num(*f.head),
                          std::nullopt,
                          {},
                          std::nullopt,
                          std::nullopt});
    Count total = 0;
    out.push_back(SubStep{Line::GetSum, "total = 0", std::nullopt, {}, total, std::nullopt});
    std::size_t unused = 0;
    const Timestamp low = *f.windowLow;
    for (std::size_t i = 0; i < f.ring.size(); ++i) {
        const RingSlot& s = f.ring[i];
        if (!s.used) {
            ++unused;
            continue;
        }
        const bool in = s.second > low && s.second <= op.second;
        if (in) {
            total += s.count;
        }
        out.push_back(SubStep{
            in ? Line::GetAddCount : Line::GetAdd,
            "slot " + num(Count{i}) + ": " + num(low) + " < " + num(s.second) +
                " <= " + num(op.second) + "? " +
                (in ? "yes: total += " + num(s.count) + " = " + num(total) : std::string("no")),
            i, s, total, in});
    }
    if (unused > 0) {
        out.push_back(SubStep{Line::GetLoop,
                              num(Count{unused}) + " never-written slot" +
                                  (unused == 1 ? " holds" : "s hold") + " nothing to add",
                              std::nullopt,
                              {},
                              total,
                              std::nullopt});
    }
    out.push_back(SubStep{
        Line::GetReturn, "return total = " + num(total), std::nullopt, {}, total, std::nullopt});
    return out;
}

std::string visits(std::size_t n) {
    return std::to_string(n) + (n == 1 ? " slot visit" : " slot visits");
}

// Which slots the running total expires when the head moves from previous.head to f.head: the
// written slots whose second was in the old window and is not in the new one, oldest first.
std::vector<std::size_t> expiredSlots(const Frame& f, const Frame& previous, std::int64_t w) {
    std::vector<std::size_t> out;
    if (!previous.head || !f.head || *f.head <= *previous.head) {
        return out;
    }
    for (std::size_t i = 0; i < previous.ring.size(); ++i) {
        const RingSlot& s = previous.ring[i];
        if (s.used && s.inWindow && s.second <= *f.head - w) {
            out.push_back(i);
        }
    }
    std::sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
        return previous.ring[a].second < previous.ring[b].second;
    });
    return out;
}

std::string expiredText(const Frame& f, const Frame& previous) {
    std::string out;
    for (std::size_t k = 0; k < f.expired.size(); ++k) {
        const RingSlot& s = previous.ring[f.expired[k]];
        out += (k == 0 ? "" : k + 1 == f.expired.size() ? " and " : ", ");
        out += "slot " + num(Count{f.expired[k]}) + " (second " + num(s.second) +
               ": total -= " + num(s.count) + ")";
    }
    return out;
}

// Fills the cost fields of f (see Frame::scanVisits).
void countVisits(Frame& f, const Frame& previous, std::int64_t w) {
    const Operation& op = *f.op;
    f.expired = f.dropped ? std::vector<std::size_t>{} : expiredSlots(f, previous, w);
    const std::string expiredPart = f.expired.empty() ? std::string()
                                                      : " The head moved to " + num(*f.head) +
                                                            ", so the running total " + "expires " +
                                                            expiredText(f, previous) + ".";
    if (op.kind == Operation::Kind::Hit) {
        if (f.dropped) {
            f.costText = "hit(" + num(op.second) +
                         ") is dropped by the late check: 0 slot visits "
                         "either way.";
        } else {
            f.scanVisits = 1;
            f.runningVisits = f.expired.size() + 1;
            f.costText = "hit(" + num(op.second) + "): the scan ring writes slot " +
                         num(Count{*f.slot}) + " (1 visit); the running total writes it too and " +
                         "adds " + num(op.repeat) + " to the total: " + visits(f.runningVisits) +
                         "." + expiredPart;
        }
    } else {
        f.scanVisits = static_cast<std::size_t>(w);
        const std::string scan =
            "getHits(" + num(op.second) + "): the textbook scan visits all " + num(w) + " slots; ";
        if (previous.head && op.second < *previous.head) {
            for (const RingSlot& s : f.ring) {
                f.runningVisits += s.used && s.inWindow ? 1 : 0;
            }
            f.costText = scan + "the running total covers (head - W, head] and cannot answer " +
                         "for the past, so it adds up the " + num(Count{f.runningVisits}) +
                         " written slots of the window: " + visits(f.runningVisits) + ".";
        } else {
            f.runningVisits = f.expired.size();
            f.costText = scan + "the running total returns its total, " + num(*f.answer) +
                         ", after " + visits(f.runningVisits) +
                         (f.expired.empty() ? ": no second left the window since the last "
                                              "operation, so nothing to expire."
                                            : "." + expiredPart);
        }
    }
    f.scanVisitsSoFar = previous.scanVisitsSoFar + f.scanVisits;
    f.runningVisitsSoFar = previous.runningVisitsSoFar + f.runningVisits;
    f.costText += " So far: scan " + num(Count{f.scanVisitsSoFar}) + ", running total " +
                  num(Count{f.runningVisitsSoFar}) + ".";
}

// The running total of the window's slots as `f` holds them (what RingCounter keeps).
Count windowTotal(const Frame& f) {
    Count total = 0;
    for (const RingSlot& s : f.ring) {
        total += s.used && s.inWindow ? s.count : 0;
    }
    return total;
}

// expire(t)'s lines: one subtraction per slot whose second leaves the window, oldest first, or
// one line saying none does. `total` runs down.
void expireSubSteps(std::vector<SubStep>& out, const Frame& f, const Frame& previous,
                    std::int64_t w, Count& total) {
    const std::vector<std::size_t> expired = expiredSlots(f, previous, w);
    for (std::size_t i : expired) {
        RingSlot state = previous.ring[i];
        state.inWindow = false;
        total -= state.count;
        out.push_back(SubStep{Line::RunExpireSubtract,
                              "slot " + num(Count{i}) + ": second " + num(state.second) + " <= " +
                                  num(*f.head) + " - " + num(w) + ": total -= " + num(state.count) +
                                  " = " + num(total) + " (it keeps its second)",
                              i, state, total, true});
    }
    if (expired.empty()) {
        out.push_back(SubStep{Line::RunExpireLoop,
                              "no written slot's second is in (" + num(*previous.head - w) + ", " +
                                  num(*f.head - w) + "]: nothing to subtract",
                              std::nullopt,
                              {},
                              total,
                              false});
    }
}

// A hit in the running-total listing (kRunningPseudocode).
std::vector<SubStep> runningHitSubSteps(const Frame& f, const Frame& previous, std::int64_t w) {
    std::vector<SubStep> scan = hitSubSteps(f, previous, w);
    std::vector<SubStep> out;
    Count total = windowTotal(previous);
    const Operation& op = *f.op;
    const std::size_t i = *f.slot;
    for (SubStep s : scan) {
        switch (s.line) {
            case Line::DropLate:
                s.line = Line::RunDropLate;
                s.total = total;
                out.push_back(s);
                if (f.dropped) {
                    return out;
                }
                if (!previous.head) {
                    out.push_back(SubStep{Line::RunExpire, "no head yet: nothing to expire", i,
                                          previous.ring[i], total, false});
                } else if (op.second <= *previous.head) {
                    out.push_back(SubStep{Line::RunExpire,
                                          num(op.second) + " > " + num(*previous.head) +
                                              "? no: the head stays, nothing expires",
                                          i, previous.ring[i], total, false});
                } else {
                    out.push_back(SubStep{Line::RunExpire,
                                          num(op.second) + " > " + num(*previous.head) +
                                              "? yes: expire(" + num(op.second) + ")",
                                          i, previous.ring[i], total, true});
                    expireSubSteps(out, f, previous, w, total);
                }
                break;
            case Line::MoveHead:
                s.line = Line::RunMoveHead;
                break;
            case Line::PickSlot:
                s.line = Line::RunPickSlot;
                break;
            case Line::CheckSecond:
                s.line = Line::RunCheckSecond;
                break;
            case Line::ResetSlot:
                s.line = Line::RunResetSlot;
                break;
            case Line::AddCount:
                s.line = Line::RunAddCount;
                total += op.repeat;
                s.text += "; total += " + num(op.repeat) + " = " + num(total);
                break;
            default:
                break;
        }
        if (s.line != Line::RunDropLate) {
            s.total = total;
            out.push_back(s);
        }
    }
    return out;
}

// A getHits in the running-total listing: the total after expiring, or, into the past, a sum
// over the window's written slots.
std::vector<SubStep> runningGetSubSteps(const Frame& f, const Frame& previous, std::int64_t w) {
    const Operation& op = *f.op;
    std::vector<SubStep> out;
    Count total = windowTotal(previous);
    const bool past = previous.head && op.second < *previous.head;
    if (past) {
        out.push_back(SubStep{Line::RunPastCheck,
                              num(op.second) + " < head " + num(*previous.head) +
                                  "? yes: a query into the past, the total cannot answer it",
                              std::nullopt,
                              {},
                              std::nullopt,
                              true});
        Count sum = 0;
        const Timestamp low = *f.windowLow;
        for (std::size_t i = 0; i < f.ring.size(); ++i) {
            const RingSlot& s = f.ring[i];
            if (!s.used || !s.inWindow) {
                continue;
            }
            const bool in = s.second > low && s.second <= op.second;
            sum += in ? s.count : 0;
            out.push_back(SubStep{
                Line::RunPastSum,
                "slot " + num(Count{i}) + ": " + num(low) + " < " + num(s.second) +
                    " <= " + num(op.second) + "? " +
                    (in ? "yes: sum += " + num(s.count) + " = " + num(sum) : std::string("no")),
                i, s, sum, in});
        }
        out.push_back(SubStep{
            Line::RunPastSum, "return sum = " + num(sum), std::nullopt, {}, sum, std::nullopt});
        return out;
    }
    out.push_back(SubStep{Line::RunPastCheck,
                          previous.head ? num(op.second) + " < head " + num(*previous.head) + "? no"
                                        : std::string("no head yet: not in the past"),
                          std::nullopt,
                          {},
                          total,
                          false});
    if (previous.head && op.second > *previous.head) {
        out.push_back(SubStep{Line::RunGetExpire,
                              "expire(" + num(op.second) + ")",
                              std::nullopt,
                              {},
                              total,
                              std::nullopt});
        expireSubSteps(out, f, previous, w, total);
    } else {
        out.push_back(SubStep{Line::RunGetExpire,
                              "expire(" + num(op.second) + "): " +
                                  (previous.head ? "the head does not move, nothing expires"
                                                 : "no head yet, nothing to expire"),
                              std::nullopt,
                              {},
                              total,
                              std::nullopt});
    }
    out.push_back(SubStep{
        Line::RunGetMoveHead, "head = " + num(*f.head), std::nullopt, {}, total, std::nullopt});
    out.push_back(SubStep{
        Line::RunGetReturn, "return total = " + num(total), std::nullopt, {}, total, std::nullopt});
    return out;
}

// Fills f.memoryText: the three structures' bytes and the growth law each one follows. The
// deque's story is its buffer's (issue 24, wrong 6): room for dequeCapacity pairs, of which
// the live ones are O(distinct seconds in the window) and the rest popped pairs kept until it
// compacts or free room; the buffer never shrinks, so after a long run of busy seconds the
// deque can take more than the vector.
void describeMemory(Frame& f, const Frame& previous, std::int64_t w) {
    const auto pairs = f.deque.size();
    std::string text = "Memory: ring " + num(Count{f.ringBytes}) + " B, fixed by W = " + num(w) +
                       ": O(W). Deque " + num(Count{f.dequeBytes}) + " B for " + pairsText(pairs) +
                       " in the window: O(distinct seconds in the window)";
    if (f.dequeBytes > f.ringBytes) {
        text += ", more than the ring";
    } else if (f.dequeBytes < f.ringBytes) {
        text += ", less than the ring";
    }
    if (f.dequeBytes > f.naiveBytes) {
        text += " and the vector";
    }
    text += ", in a buffer of " + num(Count{f.dequeCapacity});
    if (const std::string extra = dequeBufferText(f); !extra.empty()) {
        text += " (" + extra + ")";
    }
    text += " that never shrinks";
    if (previous.step + 1 == f.step && f.op && f.dequeBytes == previous.dequeBytes &&
        pairs < previous.deque.size()) {
        text += ", so its bytes do not fall";
    }
    text += ". Vector " + num(Count{f.naiveBytes}) + " B for " + num(Count{f.naive.size()}) +
            (f.naive.size() == 1 ? " call" : " calls") + ": O(calls), it never forgets one";
    if (f.naiveBytes > previous.naiveBytes && previous.naive.size() > 0) {
        text += " (its buffer just grew)";
    }
    f.memoryText = text + ".";
}

}  // namespace

Timeline::Timeline(std::vector<Operation> operations, std::chrono::seconds window, Code code)
    : m_operations(std::move(operations)), m_window(window), m_code(code) {
    if (window < kMinTeachWindow || window > kMaxTeachWindow) {
        throw std::invalid_argument("the teaching window must be 5 to 300 seconds");
    }
    const std::int64_t w = window.count();
    RingCounter ring(window);
    DequeCounter deque(window);
    NaiveCounter naive(window);

    Frame start;
    start.ring = snapshot(ring);
    start.ringBytes = ring.memoryBytes();
    start.dequeBytes = deque.memoryBytes();
    start.naiveBytes = naive.memoryBytes();
    start.narration = "Start: all " + num(w) +
                      " slots of the ring are empty, and so are the deque and the naive vector.";
    m_frames.push_back(std::move(start));

    for (const Operation& op : m_operations) {
        const Frame& previous = m_frames.back();
        Frame f;
        f.step = m_frames.size();
        f.op = op;
        f.head = previous.head;
        f.slot = static_cast<std::size_t>(op.second % w);
        if (op.kind == Operation::Kind::Hit) {
            const Count droppedBefore = ring.droppedLate();
            for (Count n = 0; n < op.repeat; ++n) {
                ring.hit(op.second);
                deque.hit(op.second);
                naive.hit(op.second);
            }
            f.dropped = ring.droppedLate() != droppedBefore;
        } else {
            const Count answer = ring.count(op.second);
            if (deque.count(op.second) != answer || naive.count(op.second) != answer) {
                throw std::logic_error("the exact counters disagree");
            }
            f.answer = answer;
        }
        if (!f.dropped) {
            f.head = f.head ? std::max(*f.head, op.second) : op.second;
        }
        f.ring = snapshot(ring);
        f.deque = snapshot(deque);

        f.ringBytes = ring.memoryBytes();
        f.dequeBytes = deque.memoryBytes();
        f.naiveBytes = naive.memoryBytes();
        f.dequePoppedKept = deque.entries().poppedKept();
        f.dequeCapacity = deque.entries().capacity();
        // The prefix's data is attached after the loop, once the vector is final.
        f.naive = NaivePrefix(nullptr, naive.calls().size());
        f.naiveAdded = f.naive.size() - previous.naive.size();
        for (const Pair& p : previous.deque) {
            const bool kept = std::any_of(f.deque.begin(), f.deque.end(),
                                          [&](const Pair& q) { return q.second == p.second; });
            if (!kept) {
                f.popped.push_back(p);
            }
        }
        if (op.kind == Operation::Kind::Hit) {
            const RingSlot& before = previous.ring[*f.slot];
            if (!f.dropped) {
                if (before.used && before.second != op.second) {
                    f.resetFrom = Pair{before.second, before.count};
                }
                const auto it = std::find_if(f.deque.begin(), f.deque.end(),
                                             [&](const Pair& p) { return p.second == op.second; });
                f.dequeTouched = static_cast<std::size_t>(it - f.deque.begin());
            }
            f.windowLow = *f.head - w;
            f.windowHigh = *f.head;
            // The frame shows the state after the whole hit: the last line that ran.
            f.codeLine = f.dropped ? Line::DropLate : Line::AddCount;
            f.subSteps = hitSubSteps(f, previous, w);
            f.narration = narrateHit(f, previous, w);
        } else {
            f.windowLow = *f.head - w;  // head is max(previous head, t) here
            f.windowHigh = op.second;
            f.codeLine = Line::GetReturn;
            f.subSteps = getSubSteps(f, previous);
            if (f.subSteps.back().total != f.answer) {
                throw std::logic_error("the pseudocode and the ring disagree");
            }
            f.narration = narrateGetHits(f, previous, w);
        }
        countVisits(f, previous, w);
        if (code == Code::RunningTotal) {
            f.subSteps = op.kind == Operation::Kind::Hit ? runningHitSubSteps(f, previous, w)
                                                         : runningGetSubSteps(f, previous, w);
            f.codeLine = f.subSteps.back().line;
            if (f.answer && f.subSteps.back().total != f.answer) {
                throw std::logic_error("the running total and the ring disagree");
            }
            // The narration follows the code on screen (no scan over the slots) and the panels
            // the lesson shows: the ring and its cost, not the deque or the vector.
            for (const std::string& aside : {dequeSentence(f) + memorySentence(f, previous),
                                             " The naive vector scans every call it ever stored: " +
                                                 num(Count{f.naive.size()}) + "."}) {
                if (const auto at = aside.empty() ? std::string::npos : f.narration.find(aside);
                    at != std::string::npos) {
                    f.narration.erase(at, aside.size());
                }
            }
            // The narration follows the code on screen: no scan over the slots here.
            const std::string scanning = ") adds the slots whose second is in the window ";
            if (const auto at = f.narration.find(scanning); at != std::string::npos) {
                const bool past = f.codeLine == Line::RunPastSum;
                f.narration.replace(at, scanning.size(),
                                    past ? ") is a query into the past: the running total covers "
                                           "only (head - W, head], so it adds up the written "
                                           "slots in the window "
                                         : ") returns the running total, the hits in the window ");
            }
        }
        describeMemory(f, previous, w);
        m_frames.push_back(std::move(f));
    }
    const auto all = std::make_shared<const std::vector<Pair>>(snapshot(naive));
    for (Frame& f : m_frames) {
        f.naive = NaivePrefix(all, f.naive.size());
    }
}

namespace {

// The lines after which the operation's slot holds the sub-step's state.
bool writesSlot(Line line) {
    return line == Line::ResetSlot || line == Line::AddCount || line == Line::RunResetSlot ||
           line == Line::RunAddCount;
}

bool movesHead(Line line) {
    return line == Line::MoveHead || line == Line::RunMoveHead || line == Line::GetMoveHead ||
           line == Line::RunGetMoveHead;
}

}  // namespace

Frame Timeline::frameAt(std::size_t step, std::optional<std::size_t> subStep) const {
    const Frame& f = m_frames.at(step);
    if (!subStep || step == 0 || *subStep + 1 >= f.subSteps.size()) {
        return f;
    }
    const Frame& previous = m_frames[step - 1];
    const std::int64_t w = m_window.count();
    Frame shown = previous;
    shown.step = f.step;
    shown.op = f.op;
    shown.slot = f.slot;
    shown.subSteps = f.subSteps;
    shown.popped.clear();
    shown.dequeTouched.reset();
    shown.naiveAdded = 0;
    shown.resetFrom.reset();
    shown.answer.reset();
    shown.expired.clear();
    shown.costText = f.costText;
    shown.memoryText = previous.memoryText;
    shown.partial = true;
    bool headMoved = false;
    std::vector<std::size_t> expiredSoFar;
    for (std::size_t k = 0; k <= *subStep; ++k) {
        const SubStep& sub = f.subSteps[k];
        headMoved = headMoved || movesHead(sub.line);
        if (sub.line == Line::ResetSlot || sub.line == Line::RunResetSlot) {
            shown.resetFrom = f.resetFrom;
        }
        if (sub.slot && writesSlot(sub.line)) {
            RingSlot& slot = shown.ring[*sub.slot];
            slot.second = sub.slotState.second;
            slot.count = sub.slotState.count;
            slot.used = sub.slotState.used;
        }
        if (sub.slot && sub.line == Line::RunExpireSubtract) {
            expiredSoFar.push_back(*sub.slot);
        }
    }
    shown.head = headMoved ? f.head : previous.head;
    for (std::size_t i = 0; i < shown.ring.size(); ++i) {
        RingSlot& slot = shown.ring[i];
        slot.inWindow =
            slot.used && shown.head && slot.second > *shown.head - w &&
            std::find(expiredSoFar.begin(), expiredSoFar.end(), i) == expiredSoFar.end();
    }
    const SubStep& sub = f.subSteps[*subStep];
    if (f.op->kind == Operation::Kind::Hit) {
        shown.windowLow = shown.head ? std::optional(*shown.head - w) : std::nullopt;
        shown.windowHigh = shown.head;
    } else {
        // The question getHits answers is about its own window from its first line on.
        shown.windowLow = f.windowLow;
        shown.windowHigh = f.windowHigh;
        shown.partialTotal = sub.total;
    }
    if (sub.slot) {
        shown.slot = sub.slot;  // the slot this line looks at (a comparison, an expiry)
    }
    shown.codeLine = sub.line;
    shown.narration = sub.text;
    return shown;
}

}  // namespace hitcounter::teach
