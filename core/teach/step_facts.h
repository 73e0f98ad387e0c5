// StepFacts: what one operation of a Timeline did, as values, apart from the words that tell it
// (step_narration.h words them for the listing the lesson shows).
//
// Thread-safe (plain values and a pure function).
//
// stepFacts() reads them off the frame after the operation and the one before it, both recorded
// from the real counters: the head before and after; for a hit its slot before and after, a
// reset and what a ring of counts only would have cleared instead, whether it was late or
// dropped and which second owns a dropped hit's slot; for a getHits its window, its answer,
// whether it asks about the past, the stale slots it leaves out and the slots whose second is in
// its window (what the running total adds up for a query into the past); the deque's pops, the
// bytes and their turns; the cost in slot visits. No fact is text, so the narration of the
// textbook scan and of the running total are both composed from the same facts, and a test can
// check a fact without reading a sentence.
//
// Example, W = 10, "hit 3; hit 13", the facts of hit 13: previousHead 3, head 13,
// slot 3, hit {before (3, 1), after (13, 1), resetFrom (3, 1), countsOnly Swept, sweptSlots 10},
// popped [(3, 1)], cost {scan 1, running 2, expired [slot 3 (second 3, count 1)]}.
#pragma once

#include <cstddef>
#include <optional>
#include <variant>
#include <vector>

#include "core/teach/frame.h"

namespace hitcounter::teach {

// One written slot and the (second, count) it holds: "slot 2 (second 12)".
struct SlotSecond {
    std::size_t slot = 0;
    Timestamp second = 0;
    Count count = 0;
    friend bool operator==(const SlotSecond&, const SlotSecond&) = default;
};

// When a ring that stores counts only (no second) would clear the slot a hit resets: it must
// clear every slot the head reaches, since nothing else tells an old count from a new one.
enum class CountsOnlyClear {
    OneStep,  // the head moves on by one second and reaches this slot: the same work
    Reached,  // the head is at the hit's second already: it cleared the slot getting there
    Passed,   // a late hit: it cleared the slot when its head passed the hit's second
    Swept,    // the head jumps: it sweeps sweptSlots slots (min(jump, W)) on the way
};

struct HitFacts {
    Count repeat = 1;
    bool dropped = false;  // at or before previousHead - W: nothing changed
    bool late = false;     // accepted though before previousHead: the head stays
    // A dropped hit's slot when it holds a second of the window: why the ring must drop it.
    std::optional<SlotSecond> owner;
    RingSlot before;  // the hit's slot before and after it
    RingSlot after;
    std::optional<Pair> resetFrom;  // the stale (second, count) the reset threw away
    CountsOnlyClear countsOnly = CountsOnlyClear::OneStep;  // with a reset
    std::int64_t sweptSlots = 0;                            // Swept only
};

struct QueryFacts {
    bool past = false;  // t < previousHead: the running total cannot answer it
    Count answer = 0;
    // The written slots whose second left the head's window (head - W, head], by slot.
    std::vector<SlotSecond> stale;
    // The written slots whose second is in the query's window (windowLow, windowHigh], by
    // slot: the counts the answer adds up.
    std::vector<SlotSecond> summed;
};

// The cost in slot visits, both ways (Frame::scanVisits), and what the running total expired.
struct CostFacts {
    std::size_t scanVisits = 0;
    std::size_t runningVisits = 0;
    std::size_t scanVisitsSoFar = 0;
    std::size_t runningVisitsSoFar = 0;
    std::vector<SlotSecond> expired;  // as the slots held them before, oldest first
};

// The three structures' bytes after the operation, and how they turned during it.
struct MemoryFacts {
    std::size_t ringBytes = 0;
    std::size_t dequeBytes = 0;
    std::size_t naiveBytes = 0;
    std::size_t dequeLive = 0;  // pairs in the window
    std::size_t dequePoppedKept = 0;
    std::size_t dequeCapacity = 0;
    std::size_t naiveCalls = 0;
    bool dequeOutgrewRing = false;     // more bytes than the ring now, not before
    bool popsKeptBytes = false;        // it popped, and its bytes did not fall
    bool fewerPairsSameBytes = false;  // fewer live pairs than before in the same bytes
    bool naiveBufferGrew = false;      // the vector's bytes grew after its first call
    std::size_t dequeFree() const { return dequeCapacity - dequeLive - dequePoppedKept; }
};

struct StepFacts {
    Code code = Code::Scan;   // the listing the lesson shows
    bool queuesShown = true;  // the deque and the vector beside the ring
    std::int64_t window = 0;
    Timestamp second = 0;  // the operation's
    std::size_t slot = 0;  // second mod W
    std::optional<Timestamp> previousHead;
    Timestamp head = 0;
    Timestamp windowLow = 0;  // the operation's window (Frame::windowLow)
    Timestamp windowHigh = 0;
    std::variant<HitFacts, QueryFacts> operation;
    std::vector<Pair> popped;  // left the deque's front
    CostFacts cost;
    MemoryFacts memory;
};

// Precondition: `f` is a Timeline frame after an operation (f.op set) with its cost filled,
// `previous` the frame before it. The running-total listing steps the deque and the vector
// aside (the view charts slot visits in their place), so its queuesShown is false.
// Cost: O(W).
StepFacts stepFacts(const Frame& f, const Frame& previous, std::int64_t window, Code code);

}  // namespace hitcounter::teach
