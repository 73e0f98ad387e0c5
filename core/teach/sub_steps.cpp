#include "core/teach/sub_steps.h"

#include "core/teach/number_text.h"

namespace hitcounter::teach {

namespace {

std::string slotText(const RingSlot& s) {
    return s.used ? pairText(s.second, s.count) : std::string("empty");
}

std::string headText(const std::optional<Timestamp>& head) {
    return head ? num(*head) : std::string("none");
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
    for (std::size_t i : f.expired) {
        RingSlot state = previous.ring[i];
        state.inWindow = false;
        total -= state.count;
        out.push_back(SubStep{Line::RunExpireSubtract,
                              "slot " + num(i) + ": second " + num(state.second) + " <= " +
                                  num(*f.head) + " - " + num(w) + ": total -= " + num(state.count) +
                                  " = " + num(total) + " (it keeps its second)",
                              i, state, total, true});
    }
    if (f.expired.empty()) {
        out.push_back(SubStep{Line::RunExpireLoop,
                              "no written slot's second is in " +
                                  windowText(*previous.head - w, *f.head - w) +
                                  ": nothing to subtract",
                              std::nullopt,
                              {},
                              total,
                              false});
    }
}

// A hit's lines in either listing; `before` is the slot before the hit. The running total's
// adds the expire check (and expire(t)) after the late check, and the total to the add.
std::vector<SubStep> hitSubSteps(const Frame& f, const Frame& previous, std::int64_t w, Code code) {
    const bool running = code == Code::RunningTotal;
    const Operation& op = *f.op;
    const std::size_t i = *f.slot;
    const RingSlot& before = previous.ring[i];
    std::optional<Count> total = running ? std::optional(windowTotal(previous)) : std::nullopt;
    std::vector<SubStep> out;
    auto add = [&](Line scanLine, Line runningLine, std::string text, RingSlot state,
                   std::optional<bool> taken) {
        out.push_back(
            SubStep{running ? runningLine : scanLine, std::move(text), i, state, total, taken});
    };
    if (previous.head) {
        const bool late = f.dropped;
        add(Line::DropLate, Line::RunDropLate,
            num(op.second) + " <= " + num(*previous.head) + " - " + num(w) + "? " +
                (late ? "yes: too late, return (nothing changes)" : "no"),
            before, late);
        if (late) {
            return out;
        }
    } else {
        add(Line::DropLate, Line::RunDropLate, "no head yet: nothing is too late", before, false);
    }
    if (running) {
        const bool expires = previous.head && op.second > *previous.head;
        out.push_back(SubStep{
            Line::RunExpire,
            !previous.head ? std::string("no head yet: nothing to expire")
                           : num(op.second) + " > " + num(*previous.head) + "? " +
                                 (expires ? "yes: expire(" + num(op.second) + ")"
                                          : std::string("no: the head stays, nothing expires")),
            i, before, total, expires});
        if (expires) {
            expireSubSteps(out, f, previous, w, *total);
        }
    }
    add(Line::MoveHead, Line::RunMoveHead,
        "head = max(" + headText(previous.head) + ", " + num(op.second) + ") = " + num(*f.head),
        before, std::nullopt);
    add(Line::PickSlot, Line::RunPickSlot,
        "i = " + num(op.second) + " mod " + num(w) + " = " + num(i), before, std::nullopt);
    const bool differs = !before.used || before.second != op.second;
    add(Line::CheckSecond, Line::RunCheckSecond,
        "slot[" + num(i) + "].second = " +
            (before.used ? num(before.second) : std::string("none (never written)")) +
            " != " + num(op.second) + "? " + (differs ? "yes" : "no"),
        before, differs);
    if (differs) {
        add(Line::ResetSlot, Line::RunResetSlot,
            "slot[" + num(i) + "] = " + pairText(op.second, 0) +
                (before.used ? " (second " + num(before.second) + " left the window)"
                             : std::string(" (first write)")),
            RingSlot{op.second, 0, true, true}, std::nullopt);
    }
    std::string added =
        "slot[" + num(i) + "].count += " + num(op.repeat) + ": " + slotText(f.ring[i]);
    if (running) {
        *total += op.repeat;
        added += "; total += " + num(op.repeat) + " = " + num(*total);
    }
    add(Line::AddCount, Line::RunAddCount, std::move(added), f.ring[i], std::nullopt);
    return out;
}

// getHits's lines in the scan: one comparison per written slot, the never-written ones in one
// note.
std::vector<SubStep> scanGetSubSteps(const Frame& f, const Frame& previous) {
    const Operation& op = *f.op;
    std::vector<SubStep> out;
    out.push_back(SubStep{
        Line::GetMoveHead,
        "head = max(" + headText(previous.head) + ", " + num(op.second) + ") = " + num(*f.head),
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
            "slot " + num(i) + ": " + num(low) + " < " + num(s.second) + " <= " + num(op.second) +
                "? " +
                (in ? "yes: total += " + num(s.count) + " = " + num(total) : std::string("no")),
            i, s, total, in});
    }
    if (unused > 0) {
        out.push_back(SubStep{Line::GetLoop,
                              num(unused) + " never-written slot" +
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
                "slot " + num(i) + ": " + num(low) + " < " + num(s.second) +
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

}  // namespace

std::vector<SubStep> operationSubSteps(const Frame& f, const Frame& previous, std::int64_t window,
                                       Code code) {
    if (f.op->kind == Operation::Kind::Hit) {
        return hitSubSteps(f, previous, window, code);
    }
    return code == Code::RunningTotal ? runningGetSubSteps(f, previous, window)
                                      : scanGetSubSteps(f, previous);
}

}  // namespace hitcounter::teach
