#include "core/teach/timeline.h"

#include <algorithm>
#include <stdexcept>

#include "core/counters/deque_counter.h"
#include "core/counters/naive_counter.h"
#include "core/counters/ring_counter.h"

namespace hitcounter::teach {

namespace {

std::string num(std::int64_t v) {
    return std::to_string(v);
}
std::string num(Count v) {
    return std::to_string(v);
}

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
                pairText({after.second, after.count}) + ". A slot that kept only its count " +
                "could not tell, and would say " + num(f.resetFrom->count + op.repeat) + ".";
    } else if (before.used) {
        text += ", which already holds second " + num(op.second) + ": its count goes from " +
                num(before.count) + " to " + num(after.count) + ".";
    } else {
        text += ", which is empty: it now holds " + pairText({after.second, after.count}) + ".";
    }
    return text + dequeSentence(f);
}

std::string narrateGetHits(const Frame& f, const Frame& previous, std::int64_t w) {
    const Operation& op = *f.op;
    std::string text;
    if (previous.head && op.second < *previous.head) {
        text = "getHits(" + num(op.second) + ") asks about the past (the newest second is " +
               num(*f.head) + "): only seconds after " + num(*f.head - w) +
               " are still kept, so it counts those up to " + num(op.second) + ": " +
               num(*f.answer) + (*f.answer == 1 ? " hit." : " hits.");
    } else {
        text = "getHits(" + num(op.second) + ") adds the slots whose second is in the window " +
               windowText(op.second, w) + ": " + num(*f.answer) +
               (*f.answer == 1 ? " hit." : " hits.");
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
    text += dequeSentence(f);
    text +=
        " The naive vector scans every call it ever stored: " + num(Count{f.naive.size()}) + ".";
    return text;
}

}  // namespace

Timeline::Timeline(std::vector<Operation> operations, std::chrono::seconds window)
    : m_operations(std::move(operations)), m_window(window) {
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
            f.codeLine = f.dropped     ? Line::DropLate
                         : f.resetFrom ? Line::ResetSlot
                                       : Line::AddCount;
            f.narration = narrateHit(f, previous, w);
        } else {
            f.codeLine = Line::GetReturn;
            f.narration = narrateGetHits(f, previous, w);
        }
        m_frames.push_back(std::move(f));
    }
    const auto all = std::make_shared<const std::vector<Pair>>(snapshot(naive));
    for (Frame& f : m_frames) {
        f.naive = NaivePrefix(all, f.naive.size());
    }
}

}  // namespace hitcounter::teach
