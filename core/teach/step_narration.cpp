#include "core/teach/step_narration.h"

#include "core/counters/compacting_queue.h"
#include "core/teach/number_text.h"

namespace hitcounter::teach {

namespace {

// "a", "a and b", "a, b and c".
template <typename T, typename Text>
std::string listText(const std::vector<T>& items, Text text) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
            out += i + 1 == items.size() ? " and " : ", ";
        }
        out += text(items[i]);
    }
    return out;
}

std::string hitsCount(Count n) {
    return num(n) + (n == 1 ? " hit." : " hits.");
}

std::string pairsText(std::size_t n) {
    return num(n) + (n == 1 ? " pair" : " pairs");
}

std::string visits(std::size_t n) {
    return num(n) + (n == 1 ? " slot visit" : " slot visits");
}

// "slot 5 (second 5)", "slots 1 (second 1) and 2 (second 12)".
std::string slotsText(const std::vector<SlotSecond>& slots) {
    return (slots.size() == 1 ? "slot " : "slots ") + listText(slots, [](const SlotSecond& s) {
               return num(s.slot) + " (second " + num(s.second) + ")";
           });
}

// The head's window, (head - W, head].
std::string headWindow(Timestamp head, std::int64_t w) {
    return windowText(head - w, head);
}

std::string dequeSentence(const StepFacts& facts) {
    if (facts.popped.empty()) {
        return "";
    }
    return " The deque pops " +
           listText(facts.popped, [](const Pair& p) { return pairText(p.second, p.count); }) +
           " from its front.";
}

// What the deque's buffer holds besides the live pairs (issue 24, wrong 6): the popped pairs it
// keeps until it compacts and the free room; empty when there is neither.
std::string dequeBufferText(const MemoryFacts& m) {
    std::string text;
    if (m.dequePoppedKept > 0) {
        text += pairsText(m.dequePoppedKept) + " already popped, kept until it compacts (after " +
                num(CompactingQueue<int>::kCompactAfter) + " pops)";
    }
    if (m.dequeFree() > 0) {
        text += (text.empty() ? "" : " and ") + num(m.dequeFree()) + " free";
    }
    return text;
}

// What the memory really does: the deque costs more than the ring once its buffer outgrows
// the ring's fixed bytes, and its bytes never fall after pops (the popped pairs stay until it
// compacts, and the buffer keeps its capacity).
std::string memorySentence(const MemoryFacts& m) {
    if (m.dequeOutgrewRing) {
        const std::string extra = dequeBufferText(m);
        return " Memory: the deque now takes " + num(m.dequeBytes) + " bytes, more than " +
               "the ring's fixed " + num(m.ringBytes) + ": its buffer has room for " +
               pairsText(m.dequeCapacity) + ", " + num(m.dequeLive) +
               " of them live (one per busy second of the window)" +
               (extra.empty() ? "" : ", " + extra) + ".";
    }
    if (m.popsKeptBytes) {
        return " Its " + num(m.dequeBytes) +
               " bytes do not fall after the pops: popped pairs stay in the buffer until it "
               "compacts, and the buffer keeps its capacity.";
    }
    return "";
}

// What the deque and the vector did, when the lesson shows them; a getHits also scans the
// whole vector (scansVector).
std::string queuesSentences(const StepFacts& facts, bool scansVector) {
    if (!facts.queuesShown) {
        return "";
    }
    return dequeSentence(facts) + memorySentence(facts.memory) +
           (scansVector ? " The naive vector scans every call it ever stored: " +
                              num(facts.memory.naiveCalls) + "."
                        : std::string());
}

// What a ring of counts only would have had to clear instead of the lazy reset.
std::string countsOnlyText(const StepFacts& facts, const HitFacts& hit) {
    const Timestamp from = *facts.previousHead;
    switch (hit.countsOnly) {
        case CountsOnlyClear::Passed:
            // A late hit: the head stays where it is (issue 24, wrong 8).
            return " (a ring of counts only would have cleared this slot already, when its head "
                   "passed second " +
                   num(facts.second) + " on its way to " + num(from) + ")";
        case CountsOnlyClear::Reached:
            return " (a ring of counts only would have cleared this slot already, when its head "
                   "reached second " +
                   num(facts.second) + ")";
        case CountsOnlyClear::OneStep:
            return " (a ring of counts only would clear this one slot as the head reaches it: "
                   "the same work here; the stored second pays off after a gap)";
        case CountsOnlyClear::Swept:
            break;
    }
    return ": nothing was cleared while the head moved from " + num(from) + " to " +
           num(facts.second) + ", where a ring of counts only would have had to sweep the " +
           num(hit.sweptSlots) + " slots the head passed over";
}

std::string hitNarration(const StepFacts& facts, const HitFacts& hit) {
    const std::int64_t w = facts.window;
    const std::string t = num(facts.second);
    if (hit.dropped) {
        return "hit(" + t + ") is too late: the newest second is " + num(*facts.previousHead) +
               ", so the window is " + headWindow(*facts.previousHead, w) + " and second " + t +
               " is not in it. All three structures drop it; nothing changes." +
               (hit.owner ? " Its slot " + num(hit.owner->slot) + " belongs to second " +
                                num(hit.owner->second) + " now."
                          : std::string());
    }
    std::string text =
        hit.late ? "Late but still inside the window " + headWindow(facts.head, w) + ": " : "";
    text += (hit.repeat == 1 ? "hit(" + t + ") lands"
                             : num(hit.repeat) + " hits at second " + t + " land") +
            " in slot " + num(facts.slot) + " (" + t + " mod " + num(w) + ")";
    if (hit.resetFrom) {
        text += ", which still holds second " + num(hit.resetFrom->second) +
                ": that second left the window, so the slot is reset to " +
                pairText(hit.after.second, hit.after.count) +
                ". The stored second makes this reset lazy, on reuse" + countsOnlyText(facts, hit) +
                ".";
    } else if (hit.before.used) {
        text += ", which already holds second " + t + ": its count goes from " +
                num(hit.before.count) + " to " + num(hit.after.count) + ".";
    } else {
        text +=
            ", which is empty: it now holds " + pairText(hit.after.second, hit.after.count) + ".";
    }
    return text + queuesSentences(facts, false);
}

// How the listing finds the answer of a getHits at or after the head, and of one into the past.
std::string answerText(const StepFacts& facts, const QueryFacts& query) {
    const std::string call = "getHits(" + num(facts.second) + ")";
    const std::string window = windowText(facts.windowLow, facts.windowHigh);
    const bool running = facts.code == Code::RunningTotal;
    if (!query.past) {
        return call +
               (running ? " returns the running total, the hits in the window "
                        : " adds the slots whose second is in the window ") +
               window + ": " + hitsCount(query.answer);
    }
    const std::string forgotten = call + " asks about the past: the newest second is " +
                                  num(facts.head) + ", so seconds up to " +
                                  num(facts.head - facts.window) +
                                  " are already forgotten and the window is " + window + " (not " +
                                  windowText(facts.second - facts.window, facts.second) + ")";
    if (!running) {
        return forgotten + ": " + hitsCount(query.answer);
    }
    const std::size_t n = query.summed.size();
    return forgotten + ". The running total covers only (head - W, head] = " +
           headWindow(facts.head, facts.window) +
           ", so it adds up the written slots whose second is in " + window + ": " +
           (n == 0   ? std::string("there are none")
            : n <= 3 ? slotsText(query.summed)
                     : num(n) + " slots") +
           ", " + hitsCount(query.answer);
}

std::string queryNarration(const StepFacts& facts, const QueryFacts& query) {
    std::string text = answerText(facts, query);
    const std::size_t stale = query.stale.size();
    if (stale > 3) {
        text += " " + num(stale) + " stale slots are left out.";
    } else if (stale > 0) {
        text += " Stale " + slotsText(query.stale) + (stale == 1 ? " is" : " are") + " left out.";
    }
    return text + queuesSentences(facts, true);
}

}  // namespace

std::string startNarration(std::int64_t window) {
    return "Start: all " + num(window) +
           " slots of the ring are empty, and so are the deque and the naive vector.";
}

std::string narration(const StepFacts& facts) {
    if (const auto* hit = std::get_if<HitFacts>(&facts.operation)) {
        return hitNarration(facts, *hit);
    }
    return queryNarration(facts, std::get<QueryFacts>(facts.operation));
}

std::string costText(const StepFacts& facts) {
    const CostFacts& cost = facts.cost;
    const std::string t = num(facts.second);
    const std::string expired =
        cost.expired.empty()
            ? std::string()
            : " The head moved to " + num(facts.head) + ", so the running total expires " +
                  listText(cost.expired,
                           [](const SlotSecond& s) {
                               return "slot " + num(s.slot) + " (second " + num(s.second) +
                                      ": total -= " + num(s.count) + ")";
                           }) +
                  ".";
    std::string text;
    if (const auto* hit = std::get_if<HitFacts>(&facts.operation)) {
        text = hit->dropped
                   ? "hit(" + t + ") is dropped by the late check: 0 slot visits either way."
                   : "hit(" + t + "): the scan ring writes slot " + num(facts.slot) +
                         " (1 visit); the running total writes it too and adds " +
                         num(hit->repeat) + " to the total: " + visits(cost.runningVisits) + "." +
                         expired;
    } else {
        const QueryFacts& query = std::get<QueryFacts>(facts.operation);
        text = "getHits(" + t + "): the textbook scan visits all " + num(facts.window) + " slots; ";
        if (query.past) {
            text +=
                "the running total covers (head - W, head] and cannot answer for the past, "
                "so it adds up the " +
                num(cost.runningVisits) +
                (cost.runningVisits == 1 ? " written slot" : " written slots") +
                " of the window: " + visits(cost.runningVisits) + ".";
        } else {
            text += "the running total returns its total, " + num(query.answer) + ", after " +
                    visits(cost.runningVisits) +
                    (cost.expired.empty() ? ": no second left the window since the last "
                                            "operation, so nothing to expire."
                                          : "." + expired);
        }
    }
    return text + " So far: scan " + num(cost.scanVisitsSoFar) + ", running total " +
           num(cost.runningVisitsSoFar) + ".";
}

// The three structures' bytes and the growth law each one follows. The deque's story is its
// buffer's (issue 24, wrong 6): room for dequeCapacity pairs, of which the live ones are
// O(distinct seconds in the window) and the rest popped pairs kept until it compacts or free
// room; the buffer never shrinks, so after a long run of busy seconds the deque can take more
// than the vector.
std::string memoryText(const StepFacts& facts) {
    const MemoryFacts& m = facts.memory;
    std::string text = "Memory: ring " + num(m.ringBytes) +
                       " B, fixed by W = " + num(facts.window) + ": O(W). Deque " +
                       num(m.dequeBytes) + " B for " + pairsText(m.dequeLive) +
                       " in the window: O(distinct seconds in the window)";
    if (m.dequeBytes > m.ringBytes) {
        text += ", more than the ring";
    } else if (m.dequeBytes < m.ringBytes) {
        text += ", less than the ring";
    }
    if (m.dequeBytes > m.naiveBytes) {
        text += " and the vector";
    }
    text += ", in a buffer of " + num(m.dequeCapacity);
    if (const std::string extra = dequeBufferText(m); !extra.empty()) {
        text += " (" + extra + ")";
    }
    text += " that never shrinks";
    if (m.fewerPairsSameBytes) {
        text += ", so its bytes do not fall";
    }
    return text + ". Vector " + num(m.naiveBytes) + " B for " + num(m.naiveCalls) +
           (m.naiveCalls == 1 ? " call" : " calls") + ": O(calls), it never forgets one" +
           (m.naiveBufferGrew ? " (its buffer just grew)" : "") + ".";
}

}  // namespace hitcounter::teach
