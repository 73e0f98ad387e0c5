#include "core/teach/step_facts.h"

#include <algorithm>

namespace hitcounter::teach {

namespace {

HitFacts hitFacts(const Frame& f, const Frame& previous, std::int64_t w) {
    const Operation& op = *f.op;
    const std::size_t i = *f.slot;
    HitFacts hit;
    hit.repeat = op.repeat;
    hit.dropped = f.dropped;
    hit.late = !f.dropped && previous.head && op.second < *previous.head;
    hit.before = previous.ring[i];
    hit.after = f.ring[i];
    hit.resetFrom = f.resetFrom;
    if (f.dropped && hit.after.used && hit.after.inWindow) {
        hit.owner = SlotSecond{i, hit.after.second, hit.after.count};
    }
    if (!f.resetFrom) {
        return hit;
    }
    // A reset needs a written slot, so there is a previous head.
    const Timestamp from = *previous.head;
    if (op.second < from) {
        hit.countsOnly = CountsOnlyClear::Passed;
    } else if (op.second == from) {
        hit.countsOnly = CountsOnlyClear::Reached;
    } else if (op.second == from + 1) {
        hit.countsOnly = CountsOnlyClear::OneStep;
    } else {
        hit.countsOnly = CountsOnlyClear::Swept;
        hit.sweptSlots = std::min<std::int64_t>(op.second - from, w);
    }
    return hit;
}

QueryFacts queryFacts(const Frame& f, const Frame& previous) {
    QueryFacts query;
    query.past = previous.head && f.op->second < *previous.head;
    query.answer = *f.answer;
    for (std::size_t i = 0; i < f.ring.size(); ++i) {
        const RingSlot& s = f.ring[i];
        if (!s.used) {
            continue;
        }
        if (!s.inWindow) {
            query.stale.push_back({i, s.second, s.count});
        } else if (f.counts(s.second)) {
            query.summed.push_back({i, s.second, s.count});
        }
    }
    return query;
}

MemoryFacts memoryFacts(const Frame& f, const Frame& previous) {
    MemoryFacts m;
    m.ringBytes = f.ringBytes;
    m.dequeBytes = f.dequeBytes;
    m.naiveBytes = f.naiveBytes;
    m.dequeLive = f.deque.size();
    m.dequePoppedKept = f.dequePoppedKept;
    m.dequeCapacity = f.dequeCapacity;
    m.naiveCalls = f.naive.size();
    m.dequeOutgrewRing = f.dequeBytes > f.ringBytes && previous.dequeBytes <= previous.ringBytes;
    m.popsKeptBytes = !f.popped.empty() && f.dequeBytes >= previous.dequeBytes;
    m.fewerPairsSameBytes =
        f.dequeBytes == previous.dequeBytes && f.deque.size() < previous.deque.size();
    m.naiveBufferGrew = f.naiveBytes > previous.naiveBytes && !previous.naive.empty();
    return m;
}

}  // namespace

StepFacts stepFacts(const Frame& f, const Frame& previous, std::int64_t window, Code code) {
    StepFacts facts;
    facts.code = code;
    facts.queuesShown = code == Code::Scan;
    facts.window = window;
    facts.second = f.op->second;
    facts.slot = *f.slot;
    facts.previousHead = previous.head;
    facts.head = *f.head;
    facts.windowLow = *f.windowLow;
    facts.windowHigh = *f.windowHigh;
    if (f.op->kind == Operation::Kind::Hit) {
        facts.operation = hitFacts(f, previous, window);
    } else {
        facts.operation = queryFacts(f, previous);
    }
    facts.popped = f.popped;
    facts.cost = {f.scanVisits, f.runningVisits, f.scanVisitsSoFar, f.runningVisitsSoFar, {}};
    for (const std::size_t i : f.expired) {
        facts.cost.expired.push_back({i, previous.ring[i].second, previous.ring[i].count});
    }
    facts.memory = memoryFacts(f, previous);
    return facts;
}

}  // namespace hitcounter::teach
