// The words of a ring lesson's step: its narration, its Cost line and its Memory line, each
// composed from the step's facts (step_facts.h) for the listing the lesson shows.
//
// Thread-safe (pure functions).
//
// The narration says what the operation did to the ring and why, one sentence or a few. Both
// listings tell a hit alike. A getHits at or after the head: the textbook scan "adds the slots
// whose second is in the window", the running total "returns the running total, the hits in the
// window"; a getHits into the past: both say which seconds are forgotten, and the running total
// adds that it covers only (head - W, head] and names the slots it adds up. While the deque and
// the vector are shown (facts.queuesShown), the narration ends with what they did: the deque's
// pops, a turn in its bytes, the vector's calls scanned.
//
// Example, W = 10, "hit 1; hit 5; hit 12; getHits 8", the running total's getHits(8): "getHits(8)
// asks about the past: the newest second is 12, so seconds up to 2 are already forgotten and the
// window is (2, 8] (not (-2, 8]). The running total covers only (head - W, head] = (2, 12], so it
// adds up the written slots whose second is in (2, 8]: slot 5 (second 5), 1 hit. Stale slot 1
// (second 1) is left out."
#pragma once

#include <cstdint>
#include <string>

#include "core/teach/step_facts.h"

namespace hitcounter::teach {

// The start frame's: "Start: all 10 slots of the ring are empty, and so are the deque and the
// naive vector."
std::string startNarration(std::int64_t window);

std::string narration(const StepFacts& facts);

// "getHits(11): the textbook scan visits all 10 slots; the running total returns its total, 3,
// after 1 slot visit. ... So far: scan 44, running total 5." (Frame::costText)
std::string costText(const StepFacts& facts);

// "Memory: ring 296 B, fixed by W = 10: O(W). Deque ... Vector ..." (Frame::memoryText)
std::string memoryText(const StepFacts& facts);

}  // namespace hitcounter::teach
