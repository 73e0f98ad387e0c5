// Frame: the complete, immutable state of the teaching view after one operation.
//
// Thread-safe to read (a plain value). A Timeline records one Frame per operation (plus the
// start), so stepping back is showing an earlier Frame: nothing is recomputed or undone.
//
// Every structure is copied from the real counters (RingCounter, DequeCounter, NaiveCounter)
// after the operation ran (the naive vector as a shared prefix, see NaivePrefix); the fields named
// "touched", "reset", "popped", "added" describe the change from the previous frame. Example, W =
// 10, "hit 3; hit 3; hit 13", the frame of "hit 13": slot = 3, resetFrom = (3, 2), ring[3] = {13,
// 1, inWindow, used}, deque = [(13, 1)] with popped = [(3, 2)], naive = [(3, 1), (3, 1), (13, 1)],
// naiveAdded = 1, codeLine = Line::AddCount (the frame shows the state after the whole
// operation, so it highlights the last line that ran), subSteps = late check, head, index,
// compare, reset (slot 3 = (13, 0)), add (slot 3 = (13, 1)).
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/counters/window_counter.h"
#include "core/teach/number_text.h"
#include "core/teach/operation_parser.h"
#include "core/teach/pseudocode.h"

namespace hitcounter::teach {

// A (second, count) pair: a deque entry or one recorded call in the naive vector.
struct Pair {
    Timestamp second = 0;
    Count count = 0;
    friend bool operator==(const Pair&, const Pair&) = default;
};

// The naive vector as one frame saw it. The vector only ever grows, so every frame of a
// Timeline shares one copy of the final vector and sees its first size() calls: memory stays
// O(calls) for the whole run instead of O(calls * steps).
class NaivePrefix {
public:
    NaivePrefix() = default;
    NaivePrefix(std::shared_ptr<const std::vector<Pair>> all, std::size_t size)
        : m_all(std::move(all)), m_size(size) {}

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const Pair& operator[](std::size_t i) const { return (*m_all)[i]; }
    const Pair* begin() const { return m_all ? m_all->data() : nullptr; }
    const Pair* end() const { return begin() + m_size; }
    std::vector<Pair> toVector() const { return {begin(), end()}; }

    friend bool operator==(const NaivePrefix& a, const NaivePrefix& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator==(const NaivePrefix& a, const std::vector<Pair>& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    std::shared_ptr<const std::vector<Pair>> m_all;
    std::size_t m_size = 0;
};

struct RingSlot {
    Timestamp second = 0;
    Count count = 0;
    bool inWindow = false;  // the second lies in (head - W, head]
    bool used = false;      // written at least once (an unused slot is drawn empty)
    friend bool operator==(const RingSlot&, const RingSlot&) = default;
};

// One line of the pseudocode as it runs inside an operation (Algorithms in Action style). A hit
// expands into: late check, head, index, compare, [reset], add (a dropped hit stops at the
// late check); a getHits into: head, total = 0, one comparison per written slot ("slot 5:
// 2 < 5 <= 15? no" on the comparison's line; a "yes" ends on `total += s.count`), a note for
// the never-written slots, return. `slot` and `slotState` are
// the slot this sub-step looks at and what it holds once the line ran; `total` is getHits's
// running total after the line.
struct SubStep {
    Line line = Line::None;
    std::string text;
    std::optional<std::size_t> slot;
    RingSlot slotState;
    std::optional<Count> total;
    std::optional<bool> taken;  // a comparison's outcome (late check, compare, slot in window)
};

struct Frame {
    std::size_t step = 0;             // 0 is the start, before any operation
    std::optional<Operation> op;      // empty for the start frame
    std::optional<Timestamp> head;    // newest second seen so far
    std::optional<std::size_t> slot;  // op->second mod W, the slot the operation looks at

    std::vector<RingSlot> ring;
    bool dropped = false;           // a hit older than the window: nothing changed
    std::optional<Pair> resetFrom;  // the stale (second, count) the hit's slot held before

    std::vector<Pair> deque;                  // oldest first
    std::vector<Pair> popped;                 // left the front of the deque during this op
    std::optional<std::size_t> dequeTouched;  // the entry this hit created or increased

    NaivePrefix naive;  // every accepted hit() call, in arrival order
    std::size_t naiveAdded = 0;

    std::size_t ringBytes = 0;
    std::size_t dequeBytes = 0;
    std::size_t naiveBytes = 0;
    // What the deque's bytes are made of (DequeCounter keeps its pairs in a CompactingQueue):
    // its buffer has room for dequeCapacity pairs, holding the live pairs (deque) and
    // dequePoppedKept pairs already popped but kept until it compacts; dequeBytes is its own
    // fixed part plus the whole buffer. Example, W = 10, after hit 1 .. hit 12 and getHits 40:
    // 0 live pairs, 0 kept (a queue popped empty is cleared), capacity 16: the bytes stay.
    std::size_t dequePoppedKept = 0;
    std::size_t dequeCapacity = 0;

    // The cost of this operation in slot visits (issue 16, build 2), two ways of keeping the
    // same ring. The textbook scan: a hit visits its slot (a dropped hit none), getHits visits
    // all W slots. The running total with lazy expiry (what RingCounter does): the ring keeps
    // the sum of the window's slots; when the head moves on, it visits only the slots whose
    // second leaves the window (`expired`, oldest first) and subtracts their counts; a hit
    // adds its own slot's visit; getHits(t >= head) reads the total and visits nothing else;
    // a query into the past (t < head) cannot use the total and visits the slots in the
    // window. Example, W = 10, "hit 1; hit 2; getHits 5; getHits 11": getHits(5) scan 10,
    // running 0; getHits(11) scan 10, running 1 (slot 1: second 1 left (1, 11]).
    std::size_t scanVisits = 0;
    std::size_t runningVisits = 0;
    std::vector<std::size_t> expired;  // slots whose second left the window in this operation
    std::size_t scanVisitsSoFar = 0;   // sums over the steps up to and with this one
    std::size_t runningVisitsSoFar = 0;
    std::string costText;  // "getHits(11): the scan visits all 10 slots; the running total 1 ..."
    // The bytes and what they grow with, for the bytes chart: "Memory: ring 296 B, fixed by
    // W = 10: O(W). Deque 112 B for 1 pair: O(distinct seconds in the window) ... Vector 576 B
    // for 30 calls: O(calls) ...".
    std::string memoryText;

    // The effective window of the operation, (windowLow, windowHigh]: for a hit (head - W,
    // head]; for getHits(t) (max(head, t) - W, t], because seconds up to head - W are
    // already forgotten even when t is in the past. Empty for the start frame.
    std::optional<Timestamp> windowLow;
    std::optional<Timestamp> windowHigh;

    std::optional<Count> answer;  // getHits result
    // Only in a frame shown at one of getHits's sub-steps (Timeline::frameAt), where the
    // answer is not known yet: the total added up so far.
    std::optional<Count> partialTotal;
    // A frame at a sub-step before the operation's last line: it has not finished (no answer,
    // no "count +1" yet).
    bool partial = false;
    Line codeLine = Line::None;     // the pseudocode line this operation ends on
    std::string narration;          // one plain sentence (or two) saying what happened and why
    std::vector<SubStep> subSteps;  // the operation line by line; empty for the start frame

    // Whether second s is counted by this step's window (windowLow, windowHigh]: for a
    // getHits into the past that is its own window, not the head's (issue 24, wrong 1: with
    // window (2, 5] a slot holding second 12 is not counted). Views colour the ring's slots,
    // the deque's pairs and the vector's calls by it; false for the start frame.
    bool counts(Timestamp s) const {
        return windowLow && windowHigh && s > *windowLow && s <= *windowHigh;
    }

    // "(2, 5]", the notation the view shows; empty for the start frame.
    std::string windowText() const {
        if (!windowLow || !windowHigh) {
            return {};
        }
        return hitcounter::teach::windowText(*windowLow, *windowHigh);
    }
};

}  // namespace hitcounter::teach
