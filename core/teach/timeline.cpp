#include "core/teach/timeline.h"

#include <algorithm>
#include <stdexcept>

#include "core/counters/deque_counter.h"
#include "core/counters/naive_counter.h"
#include "core/counters/ring_counter.h"
#include "core/teach/step_facts.h"
#include "core/teach/step_narration.h"
#include "core/teach/sub_steps.h"

namespace hitcounter::teach {

namespace {

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

// Fills the cost fields of f: the slot visits both ways and the slots the running total
// expires (see Frame::scanVisits); the words are step_narration.h's.
void countVisits(Frame& f, const Frame& previous, std::int64_t w) {
    const Operation& op = *f.op;
    f.expired = f.dropped ? std::vector<std::size_t>{} : expiredSlots(f, previous, w);
    if (op.kind == Operation::Kind::Hit) {
        if (!f.dropped) {
            f.scanVisits = 1;
            f.runningVisits = f.expired.size() + 1;
        }
    } else {
        f.scanVisits = static_cast<std::size_t>(w);
        if (previous.head && op.second < *previous.head) {
            for (const RingSlot& s : f.ring) {
                f.runningVisits += s.used && s.inWindow ? 1 : 0;
            }
        } else {
            f.runningVisits = f.expired.size();
        }
    }
    f.scanVisitsSoFar = previous.scanVisitsSoFar + f.scanVisits;
    f.runningVisitsSoFar = previous.runningVisitsSoFar + f.runningVisits;
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
    start.narration = startNarration(w);
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
        if (op.kind == Operation::Kind::Hit && !f.dropped) {
            const RingSlot& before = previous.ring[*f.slot];
            if (before.used && before.second != op.second) {
                f.resetFrom = Pair{before.second, before.count};
            }
            const auto it = std::find_if(f.deque.begin(), f.deque.end(),
                                         [&](const Pair& p) { return p.second == op.second; });
            f.dequeTouched = static_cast<std::size_t>(it - f.deque.begin());
        }
        // A hit's window is the head's; getHits(t)'s is (head - W, t], its head max(head, t).
        f.windowLow = *f.head - w;
        f.windowHigh = op.kind == Operation::Kind::Hit ? *f.head : op.second;
        countVisits(f, previous, w);
        f.subSteps = operationSubSteps(f, previous, w, code);
        // The frame shows the state after the whole operation: the last line that ran.
        f.codeLine = f.subSteps.back().line;
        if (f.answer && f.subSteps.back().total != f.answer) {
            throw std::logic_error("the pseudocode and the ring disagree");
        }
        const StepFacts facts = stepFacts(f, previous, w, code);
        f.narration = narration(facts);
        f.costText = costText(facts);
        f.memoryText = memoryText(facts);
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
