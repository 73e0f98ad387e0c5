// RingVariant: a ring buffer as the learner builds it from choices, run against the reference
// RingCounter until the first step where the two differ (issue 16, build 4, "constructing").
//
// Thread-safe (plain values and pure functions; a VariantRing is owned by one thread).
//
// The learner picks four things; the reference picks the first of each:
//     compare  ">" | ">="                   a second s is in the window when s > head - W
//                                           (or s >= head - W); the late check of hit() and the
//                                           comparison of getHits() both use it
//     index    "t%W" | "t%(W+1)" | "t%(W-1)"  the slot of second t (the ring has W slots, so
//                                           t%(W+1) can name slot W, which does not exist)
//     reset    "second" | "never" | "zero" | "sweep"
//                                           before adding, reset the slot to (t, 0) when its
//                                           second differs from t; never; only when its count
//                                           is 0; or clear the slots of the seconds the head
//                                           skips when it moves on (no stored second needed)
//     store    "second+count" | "count"     what a slot holds
// The text form is "compare=>=,index=t%W,reset=second,store=second+count" (keys in any order,
// a missing key takes the reference's choice, spaces ignored). "reset=second" with
// "store=count" is refused: the slot keeps no second to compare.
//
// The learner's hit(t, n): late check with `compare`; with reset=sweep, clear the slots of the
// seconds (head, t] (all of them after a gap of W or more); head = max(head, t); i = index(t)
// (out of range: nothing is written); reset by the rule; then the slot holds (t, count + n)
// (count + n alone for store=count). getHits(t): head = max(head, t); add every written slot
// whose second is in the window by `compare` and not after t; a count-only slot cannot tell,
// so every slot is added. Correct variants: the reference; reset=sweep with either store is
// correct except that store=count adds the seconds after t of a query into the past.
//
// runVariant runs both until the first getHits whose answers differ (the failure). On the way
// it records the first divergence of the state (for a hit, dropped or not, a lost hit, the slot
// index under t mod (W - 1), the slot's count and second) and the faults a wrong answer is
// traced back to: a hit lost to slot W, a reset that threw away a second still in the window
// (a shared slot), a count added to a stale one (no reset). Seconds of other slots are not
// compared, so a swept slot the reference keeps stale is no difference.
//
// Example, W = 10, compare=">=": "hit 5; hit 6; getHits 14; getHits 15" first differs at step
// 4: getHits(15) is 2 for the learner (second 5 >= 15 - 10), 1 for the reference. With
// index=t%(W+1), "hit 10; getHits 10" fails at step 2 (0 against 1): hit(10) went to slot 10,
// which a ring of 10 slots does not have.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/base/text_problem.h"
#include "core/counters/window_counter.h"
#include "core/teach/operation_parser.h"

namespace hitcounter::teach {

struct RingVariant {
    enum class Compare { Greater, GreaterEqual };
    enum class Index { ModW, ModWPlus1, ModWMinus1 };
    enum class Reset { SecondDiffers, Never, CountZero, Sweep };
    enum class Store { SecondAndCount, CountOnly };

    Compare compare = Compare::Greater;
    Index index = Index::ModW;
    Reset reset = Reset::SecondDiffers;
    Store store = Store::SecondAndCount;

    friend bool operator==(const RingVariant&, const RingVariant&) = default;
};

// The text of each choice, as parseVariant reads and formatVariant writes it.
std::string_view choiceText(RingVariant::Compare c);
std::string_view choiceText(RingVariant::Index i);
std::string_view choiceText(RingVariant::Reset r);
std::string_view choiceText(RingVariant::Store s);

// "compare=>,index=t%W,reset=second,store=second+count"
std::string formatVariant(const RingVariant& v);

// The variant, or the problem (a TextProblem without a place: the text is one setting)
// naming the bad part and what was expected.
std::variant<RingVariant, TextProblem> parseVariant(std::string_view text);

// Why a combination cannot be run ("reset=second needs store=second+count: ..."), or empty
// (a check's refusal: docs/architecture.md, "Errors").
std::string variantProblem(const RingVariant& v);

// One slot as either ring holds it.
struct VariantSlot {
    std::optional<Timestamp> second;  // empty when never written or not stored (count only)
    Count count = 0;
    bool used = false;      // written at least once and not cleared
    bool inWindow = false;  // the ring would count it: its second is in the window by that
                            // ring's comparison (a count-only slot: whenever written)
    bool counted = false;   // a getHits step only: this ring added the slot to its answer
    friend bool operator==(const VariantSlot&, const VariantSlot&) = default;
};

// A hit the learner's ring lost: its index named a slot the ring does not have.
struct LostHit {
    Timestamp second = 0;
    Count count = 0;
    friend bool operator==(const LostHit&, const LostHit&) = default;
};

// The learner's ring. Precondition: variantProblem(v) is empty, window >= 2 s.
class VariantRing {
public:
    VariantRing(const RingVariant& v, std::chrono::seconds window);

    struct HitResult {
        bool dropped = false;
        std::size_t slot = 0;     // index(t), valid unless dropped
        bool outOfRange = false;  // index(t) >= W: nothing written
        bool reset = false;       // the slot's count started again from 0
    };
    HitResult hit(Timestamp t, Count n);
    Count count(Timestamp t);

    const std::vector<VariantSlot>& slots() const { return m_slots; }
    const std::vector<LostHit>& lost() const { return m_lost; }  // in arrival order
    std::optional<Timestamp> head() const { return m_head; }
    std::size_t indexOf(Timestamp t) const;

private:
    bool inWindow(Timestamp s) const;
    void moveHead(Timestamp t);

    RingVariant m_variant;
    Timestamp m_w;
    std::optional<Timestamp> m_head;
    std::vector<VariantSlot> m_slots;
    std::vector<LostHit> m_lost;
};

// One side (the learner's or the reference's) after one operation.
struct SideState {
    std::vector<VariantSlot> slots;
    std::optional<Count> answer;      // getHits
    bool dropped = false;             // hit: too late
    std::optional<std::size_t> slot;  // hit: the slot it wrote (or named, when out of range)
    bool outOfRange = false;
    std::vector<LostHit> lost;  // the learner's: every hit lost so far (none for the reference)
};

struct VariantStep {
    std::size_t step = 0;  // 1-based, like Timeline frames
    Operation op;
    SideState mine;
    SideState reference;
};

struct Difference {
    enum class Kind { Answer, Dropped, SlotIndex, OutOfRange, SlotCount, SlotSecond };
    Kind kind = Kind::Answer;
    std::size_t step = 0;
    std::string what;       // "answer", "dropped", "slot", "out_of_range", "count", "second"
    std::string mine;       // the learner's value as text ("2", "slot 0", "kept")
    std::string reference;  // the reference's
    std::string narration;  // names the difference and the choice behind it
};

struct VariantRun {
    std::vector<VariantStep> steps;  // every step run, the wrong answer last
    // The failure: the first getHits whose answer differs (issue 24, wrong 5: only a wrong
    // answer is a failure). Its narration traces it back to the earlier hits that caused it.
    std::optional<Difference> difference;
    // Informational: the first step where the learner's state already differs (a hit kept or
    // dropped, lost to a missing slot, in a shared slot, another count or second), at or
    // before the failure; a slot number that differs only by a renumbering (t mod (W + 1)
    // below slot W) is none.
    std::optional<Difference> divergence;
};

// Runs `ops` through a RingCounter and the learner's VariantRing in lockstep until the first
// wrong answer. Precondition: variantProblem(v) is empty; 2 s <= window.
VariantRun runVariant(const RingVariant& v, const std::vector<Operation>& ops,
                      std::chrono::seconds window);

}  // namespace hitcounter::teach
