// Timeline: runs a list of operations through the real counters and records every step.
//
// Not thread-safe to build; once built it is an immutable value, safe to read from any thread.
//
// The constructor drives one RingCounter, one DequeCounter and one NaiveCounter in lockstep
// (a "hit t xN" is N hit(t) calls on each; a getHits is count(t) on each, and the three
// answers agree because all three are exact; std::logic_error if they ever do not) and records
// frames()[0] = the empty start and frames()[k] = the state after operation k. Stepping back is
// reading an earlier frame. Each frame's sub-steps follow the listing of `code` (sub_steps.h);
// its narration, Cost and Memory lines are worded from the step's facts (step_facts.h,
// step_narration.h).
//
// Cost: O(operations * (W + deque length) + hits) time and memory: each frame holds its own
// copy of the ring and the deque, and a prefix of one shared copy of the naive vector.
//
// Example, W = 300 (the LeetCode example):
//     auto ops = std::get<std::vector<Operation>>(parseOperations(
//         "hit 1\nhit 2\nhit 3\ngetHits 4\nhit 300\ngetHits 300\ngetHits 301"));
//     Timeline t(ops, std::chrono::seconds{300});
//     t.frames()[4].answer == 3, t.frames()[6].answer == 4, t.frames()[7].answer == 3
#pragma once

#include <chrono>
#include <optional>
#include <vector>

#include "core/teach/frame.h"
#include "core/teach/operation_parser.h"

namespace hitcounter::teach {

inline constexpr std::chrono::seconds kMinTeachWindow{5};
inline constexpr std::chrono::seconds kMaxTeachWindow{300};

class Timeline {
public:
    // Precondition: kMinTeachWindow <= window <= kMaxTeachWindow (else std::invalid_argument).
    // `code` picks the pseudocode the frames' lines and sub-steps follow: the textbook scan,
    // or the running total with lazy expiry (Lesson::code; kRunningPseudocode).
    Timeline(std::vector<Operation> operations, std::chrono::seconds window,
             Code code = Code::Scan);

    std::chrono::seconds window() const { return m_window; }
    Code code() const { return m_code; }
    const std::vector<Operation>& operations() const { return m_operations; }
    // operations().size() + 1 frames; frames()[0] is the start.
    const std::vector<Frame>& frames() const { return m_frames; }

    // The state of every structure at sub-step `subStep` of frames()[step] (issue 24, wrong 4:
    // every panel shows the same moment). Empty `subStep`, the start frame or the last
    // sub-step: frames()[step] itself. Otherwise the previous frame moved on by the lines run so
    // far: the head and its window change at the head line (for getHits the window is the
    // query's from its first line), the operation's slot holds each line's state, a reset shows
    // from its line on, a getHits has no answer yet but its partialTotal; the deque and the
    // vector, which run no line of this code, still hold the previous step's pairs and calls,
    // and so do the bytes. codeLine is the sub-step's line, narration its text.
    // Example, W = 10, "hit 3; hit 13" at the sub-step "head = max(3, 13) = 13": head 13,
    // window (3, 13], slot 3 still holds (3, 1), now stale; no reset shown, no "count +1".
    Frame frameAt(std::size_t step, std::optional<std::size_t> subStep) const;

private:
    std::vector<Operation> m_operations;
    std::chrono::seconds m_window;
    Code m_code = Code::Scan;
    std::vector<Frame> m_frames;
};

}  // namespace hitcounter::teach
