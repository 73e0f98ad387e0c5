#include "core/teach/ring_variant.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/base/saturating.h"
#include "core/counters/ring_counter.h"
#include "core/teach/number_text.h"

namespace hitcounter::teach {

namespace {

constexpr std::array kCompare = {RingVariant::Compare::Greater, RingVariant::Compare::GreaterEqual};
constexpr std::array kIndex = {RingVariant::Index::ModW, RingVariant::Index::ModWPlus1,
                               RingVariant::Index::ModWMinus1};
constexpr std::array kReset = {RingVariant::Reset::SecondDiffers, RingVariant::Reset::Never,
                               RingVariant::Reset::CountZero, RingVariant::Reset::Sweep};
constexpr std::array kStore = {RingVariant::Store::SecondAndCount, RingVariant::Store::CountOnly};

std::string withoutSpaces(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c != ' ' && c != '\t') {
            out += c;
        }
    }
    return out;
}

template <typename Enum, std::size_t N>
std::optional<Enum> choiceFrom(const std::array<Enum, N>& all, std::string_view text) {
    for (Enum e : all) {
        if (choiceText(e) == text) {
            return e;
        }
    }
    return std::nullopt;
}

template <typename Enum, std::size_t N>
std::string choicesOf(const std::array<Enum, N>& all) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) {
        out += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(choiceText(all[i]));
    }
    return out;
}

std::string slotText(const VariantSlot& s) {
    if (!s.used) {
        return "empty";
    }
    return (s.second ? "(" + num(*s.second) + ", " : "(?, ") + num(s.count) + ")";
}

std::string indexFormula(RingVariant::Index i, Timestamp t, Timestamp w) {
    const Timestamp m = i == RingVariant::Index::ModW        ? w
                        : i == RingVariant::Index::ModWPlus1 ? w + 1
                                                             : w - 1;
    return num(t) + " mod " + num(m) + " = " + num(t % m);
}

SideState referenceSide(const RingCounter& ring) {
    SideState side;
    side.slots.resize(ring.slotCount());
    for (std::size_t i = 0; i < ring.slotCount(); ++i) {
        const RingCounter::Slot s = ring.slot(i);
        if (s.count > 0) {
            side.slots[i] = VariantSlot{s.second, s.count, true, s.inWindow};
        }
    }
    return side;
}

}  // namespace

std::string_view choiceText(RingVariant::Compare c) {
    return c == RingVariant::Compare::Greater ? ">" : ">=";
}

std::string_view choiceText(RingVariant::Index i) {
    switch (i) {
        case RingVariant::Index::ModW:
            return "t%W";
        case RingVariant::Index::ModWPlus1:
            return "t%(W+1)";
        case RingVariant::Index::ModWMinus1:
            return "t%(W-1)";
    }
    return "t%W";
}

std::string_view choiceText(RingVariant::Reset r) {
    switch (r) {
        case RingVariant::Reset::SecondDiffers:
            return "second";
        case RingVariant::Reset::Never:
            return "never";
        case RingVariant::Reset::CountZero:
            return "zero";
        case RingVariant::Reset::Sweep:
            return "sweep";
    }
    return "second";
}

std::string_view choiceText(RingVariant::Store s) {
    return s == RingVariant::Store::SecondAndCount ? "second+count" : "count";
}

std::string formatVariant(const RingVariant& v) {
    return "compare=" + std::string(choiceText(v.compare)) +
           ",index=" + std::string(choiceText(v.index)) +
           ",reset=" + std::string(choiceText(v.reset)) +
           ",store=" + std::string(choiceText(v.store));
}

namespace {

// Sets `v` from `text`; the problem, or empty.
std::string readChoices(std::string_view text, RingVariant& v) {
    const std::string all = withoutSpaces(text);
    std::size_t pos = 0;
    while (pos <= all.size()) {
        const std::size_t end = std::min(all.find(',', pos), all.size());
        const std::string part = all.substr(pos, end - pos);
        pos = end + 1;
        if (part.empty()) {
            if (end == all.size()) {
                break;
            }
            continue;
        }
        const std::size_t eq = part.find('=');
        if (eq == std::string::npos) {
            return "'" + part + "': expected key=value (compare, index, reset or store)";
        }
        const std::string key = part.substr(0, eq);
        const std::string value = part.substr(eq + 1);
        auto bad = [&](const std::string& choices) {
            return "'" + part + "': " + key + " is " + choices + ", not '" + value + "'";
        };
        if (key == "compare") {
            const auto c = choiceFrom(kCompare, value);
            if (!c) {
                return bad(choicesOf(kCompare));
            }
            v.compare = *c;
        } else if (key == "index") {
            std::string normal = value;
            std::replace(normal.begin(), normal.end(), 'w', 'W');
            const auto i = choiceFrom(kIndex, normal);
            if (!i) {
                return bad(choicesOf(kIndex));
            }
            v.index = *i;
        } else if (key == "reset") {
            const auto r = choiceFrom(kReset, value);
            if (!r) {
                return bad(choicesOf(kReset));
            }
            v.reset = *r;
        } else if (key == "store") {
            const auto s = choiceFrom(kStore, value);
            if (!s) {
                return bad(choicesOf(kStore));
            }
            v.store = *s;
        } else {
            return "'" + part + "': unknown key '" + key +
                   "'; expected compare, index, reset or store";
        }
    }
    return variantProblem(v);
}

}  // namespace

std::variant<RingVariant, TextProblem> parseVariant(std::string_view text) {
    RingVariant v;
    if (std::string problem = readChoices(text, v); !problem.empty()) {
        return TextProblem{0, 0, std::move(problem)};
    }
    return v;
}

std::string variantProblem(const RingVariant& v) {
    if (v.reset == RingVariant::Reset::SecondDiffers && v.store == RingVariant::Store::CountOnly) {
        return "reset=second needs store=second+count: a count-only slot keeps no second to "
               "compare with t (try reset=sweep, never or zero)";
    }
    return {};
}

VariantRing::VariantRing(const RingVariant& v, std::chrono::seconds window)
    : m_variant(v), m_w(window.count()), m_slots(std::size_t(window.count())) {
    if (m_w < 2 || !variantProblem(v).empty()) {
        throw std::invalid_argument("VariantRing: bad window or variant");
    }
}

std::size_t VariantRing::indexOf(Timestamp t) const {
    switch (m_variant.index) {
        case RingVariant::Index::ModW:
            return std::size_t(t % m_w);
        case RingVariant::Index::ModWPlus1:
            return std::size_t(t % (m_w + 1));
        case RingVariant::Index::ModWMinus1:
            return std::size_t(t % (m_w - 1));
    }
    return std::size_t(t % m_w);
}

bool VariantRing::inWindow(Timestamp s) const {
    if (!m_head) {
        return true;
    }
    return m_variant.compare == RingVariant::Compare::Greater ? s > *m_head - m_w
                                                              : s >= *m_head - m_w;
}

void VariantRing::moveHead(Timestamp t) {
    if (m_head && t > *m_head && m_variant.reset == RingVariant::Reset::Sweep) {
        // Clear the slots of the seconds the head skips, (head, t]; after a gap of W or more
        // that is every slot.
        const Timestamp last = std::min(t, *m_head + m_w);
        for (Timestamp s = *m_head + 1; s <= last; ++s) {
            const std::size_t i = indexOf(s);
            if (i < m_slots.size()) {
                m_slots[i] = VariantSlot{};
            }
        }
    }
    if (!m_head || t > *m_head) {
        m_head = t;
    }
    // In the window by the learner's own comparison (a count-only slot counts whatever it
    // holds), so a view shows what this ring would add up.
    for (VariantSlot& s : m_slots) {
        s.inWindow = s.used && (!s.second || inWindow(*s.second));
    }
}

VariantRing::HitResult VariantRing::hit(Timestamp t, Count n) {
    HitResult r;
    if (!inWindow(t)) {
        r.dropped = true;
        return r;
    }
    moveHead(t);
    r.slot = indexOf(t);
    if (r.slot >= m_slots.size()) {
        r.outOfRange = true;
        m_lost.push_back({t, n});
        return r;
    }
    VariantSlot& s = m_slots[r.slot];
    switch (m_variant.reset) {
        case RingVariant::Reset::SecondDiffers:
            r.reset = s.used && s.second != t;
            break;
        case RingVariant::Reset::CountZero:
            r.reset = s.used && s.count == 0;
            break;
        case RingVariant::Reset::Never:
        case RingVariant::Reset::Sweep:
            break;
    }
    if (r.reset) {
        s.count = 0;
    }
    if (m_variant.store == RingVariant::Store::SecondAndCount) {
        s.second = t;
    }
    s.count = saturatingAdd(s.count, n);
    s.used = true;
    s.inWindow = inWindow(t);
    return r;
}

Count VariantRing::count(Timestamp t) {
    moveHead(t);
    Count total = 0;
    for (const VariantSlot& s : m_slots) {
        if (!s.used) {
            continue;
        }
        if (m_variant.store == RingVariant::Store::CountOnly ||
            (s.second && inWindow(*s.second) && *s.second <= t)) {
            total = saturatingAdd(total, s.count);
        }
    }
    return total;
}

namespace {

// What the learner's ring did wrong at one hit, in a way that can change a later answer: the
// faults a wrong answer is traced back to (issue 24, wrong 5: a renumbering is no fault).
struct Fault {
    enum class Kind { Lost, SharedSlot, StaleAdded };
    Kind kind = Kind::Lost;
    std::size_t step = 0;
    Timestamp second = 0;  // the hit's
    Count count = 0;       // the hit's calls
    std::size_t slot = 0;
    Timestamp other = 0;   // SharedSlot, StaleAdded: the second the slot held
    Count otherCount = 0;  // ... and its count then
};

std::string faultSentence(const RingVariant& v, const Fault& f, Timestamp w) {
    const std::string hit = "hit(" + num(f.second) + ") at step " + num(f.step);
    switch (f.kind) {
        case Fault::Kind::Lost:
            return hit + " went to slot " + num(f.slot) + " = " +
                   indexFormula(v.index, f.second, w) + ", and a ring of " + num(w) +
                   " slots has only slots 0 to " + num(w - 1) +
                   ": the missing slot lost the hit, which the reference still counts.";
        case Fault::Kind::SharedSlot: {
            const std::string thrown = "the reset threw away " + num(f.otherCount) +
                                       (f.otherCount == 1 ? " hit" : " hits") + " of second " +
                                       num(f.other) + ", which the reference still counts.";
            if (f.other > f.second) {  // a late hit kept by >=, exactly W before the head
                return hit +
                       " is exactly W seconds older than the head: the reference drops "
                       "it, because its slot " +
                       num(f.slot) + " belongs to second " + num(f.other) +
                       " now; your comparison >= keeps it, and " + thrown;
            }
            return hit + " went to slot " + num(f.slot) + " = " +
                   indexFormula(v.index, f.second, w) + ", which held second " + num(f.other) +
                   ", only " + num(f.second - f.other) +
                   " s older and still in the window: " + "with " + num(w - 1) +
                   " slots in the cycle two seconds of one window share "
                   "a slot, and " +
                   thrown;
        }
        case Fault::Kind::StaleAdded:
            break;
    }
    const std::string rule =
        v.reset == RingVariant::Reset::CountZero
            ? "your reset rule (only when the count is 0) never fires on a written slot, whose "
              "count is at least 1"
            : "your ring never resets a slot";
    return hit + " went to slot " + num(f.slot) + ", which still held " + num(f.otherCount) +
           (f.otherCount == 1 ? " hit of " : " hits of ") +
           (v.store == RingVariant::Store::CountOnly ? std::string("an older second")
                                                     : "second " + num(f.other)) +
           ", outside the window: " + rule + ", so the new count started at " + num(f.otherCount) +
           " instead of 0.";
}

// The narration of a wrong answer: the window, then why: the boundary second, a count-only
// slot, or the faults of earlier hits whose seconds this query counts (or should).
std::string answerNarration(const RingVariant& v, const Operation& op, const SideState& mine,
                            const SideState& ref, Timestamp head, Timestamp w,
                            const std::vector<Fault>& faults) {
    const Timestamp t = op.second;
    const Timestamp low = std::max(head, t) - w;
    std::string text = "getHits(" + num(t) + "): your ring answers " + num(*mine.answer) +
                       ", the reference " + num(*ref.answer) + " (the window (" + num(low) + ", " +
                       num(t) + "]). ";
    for (const VariantSlot& s : mine.slots) {
        if (s.used && s.second && *s.second == low &&
            v.compare == RingVariant::Compare::GreaterEqual) {
            return text + "Your comparison s.second >= head - W counts second " + num(low) + " = " +
                   num(std::max(head, t)) + " - " + num(w) +
                   ", which is exactly W seconds old: the window is open on "
                   "the left, so the comparison must be >.";
        }
    }
    std::string why;
    for (const Fault& f : faults) {
        const Timestamp counted = f.kind == Fault::Kind::SharedSlot ? f.other : f.second;
        if (counted > low && counted <= t && why.size() < 600) {
            why += (why.empty() ? "" : " ") + faultSentence(v, f, w);
        }
    }
    if (!why.empty()) {
        return text + why;
    }
    if (v.store == RingVariant::Store::CountOnly) {
        return text + (t < head ? "A count-only slot cannot tell which second its count belongs "
                                  "to, so your ring adds every slot, also the seconds after " +
                                      num(t) + " (up to the head " + num(head) +
                                      ") that a query into the past leaves out."
                                : "A count-only slot cannot tell which second its count belongs "
                                  "to, so your ring adds every slot, also counts of seconds that "
                                  "left the window.");
    }
    return text +
           "Your slots hold other counts than the reference's (below), so the sum "
           "differs: look at the reset rule and the index.";
}

// The first state divergence of a hit, with the narration naming it (informational: only a
// wrong answer is a failure). Empty when the learner's slot matches, or differs only by its
// number (t mod (W + 1) renumbers the slots; that alone changes no answer).
std::optional<Difference> hitDivergence(const RingVariant& v, const Operation& op,
                                        const VariantStep& step, const VariantRing::HitResult& r,
                                        bool refDropped,
                                        const std::optional<VariantSlot>& mineBefore,
                                        const std::optional<Timestamp>& headBefore, Timestamp w) {
    Difference d;
    d.step = step.step;
    const std::string hitText = "hit(" + num(op.second) + ")";
    const std::string lowText = headBefore ? num(*headBefore) + " - " + num(w) : "";
    if (r.dropped != refDropped) {
        d.kind = Difference::Kind::Dropped;
        d.what = "dropped";
        d.mine = r.dropped ? "dropped" : "kept";
        d.reference = refDropped ? "dropped" : "kept";
        d.narration = refDropped
                          ? hitText + ": the reference drops it, " + num(op.second) +
                                " <= " + lowText + " (too late); your comparison >= keeps second " +
                                num(op.second) + " = head - W in the window and stores it."
                          : hitText + ": the reference keeps it, " + num(op.second) + " > " +
                                lowText + "; your ring drops it.";
        return d;
    }
    if (refDropped) {
        return std::nullopt;
    }
    if (r.outOfRange) {
        d.kind = Difference::Kind::OutOfRange;
        d.what = "out_of_range";
        d.mine = "slot " + num(r.slot) + " (none)";
        d.reference = "slot " + num(*step.reference.slot);
        d.narration = hitText + ": your index " + indexFormula(v.index, op.second, w) +
                      " names slot " + num(r.slot) + ", but the ring has only " + num(w) +
                      " slots (0 to " + num(w - 1) +
                      "): the hit has nowhere to go. The reference "
                      "uses " +
                      indexFormula(RingVariant::Index::ModW, op.second, w) + ".";
        return d;
    }
    const VariantSlot& ms = step.mine.slots[r.slot];
    const VariantSlot& rs = step.reference.slots[*step.reference.slot];
    const std::string before = mineBefore ? slotText(*mineBefore) : "empty";
    if (ms.count != rs.count) {
        d.kind = Difference::Kind::SlotCount;
        d.what = "count";
        d.mine = slotText(ms);
        d.reference = slotText(rs);
        const bool stale = mineBefore && mineBefore->used &&
                           (!mineBefore->second || *mineBefore->second != op.second);
        d.narration =
            hitText + " lands in slot " + num(r.slot) + ", which held " + before + ". " +
            (stale ? "That count belongs to an older second, so the reference resets "
                     "the slot to (" +
                         num(op.second) +
                         ", 0) before adding; your reset "
                         "rule (" +
                         std::string(choiceText(v.reset)) +
                         ") keeps the old count: your slot holds " + slotText(ms) +
                         ", the reference's " + slotText(rs) + "."
                   : "Your slot holds " + slotText(ms) + ", the reference's " + slotText(rs) + ".");
        return d;
    }
    if (r.slot != *step.reference.slot && v.index == RingVariant::Index::ModWMinus1) {
        d.kind = Difference::Kind::SlotIndex;
        d.what = "slot";
        d.mine = "slot " + num(r.slot);
        d.reference = "slot " + num(*step.reference.slot);
        d.narration = hitText + ": your index " + indexFormula(v.index, op.second, w) +
                      " puts it in slot " + num(r.slot) + "; the reference " +
                      indexFormula(RingVariant::Index::ModW, op.second, w) + ". With " +
                      num(w - 1) + " slots in the cycle, seconds " + num(w - 1) +
                      " apart share a slot, though both can be in one window of " + num(w) + ".";
        return d;
    }
    if (v.store == RingVariant::Store::SecondAndCount && ms.second != rs.second) {
        d.kind = Difference::Kind::SlotSecond;
        d.what = "second";
        d.mine = slotText(ms);
        d.reference = slotText(rs);
        d.narration = hitText + ": your slot " + num(r.slot) + " holds " + slotText(ms) +
                      ", the reference's " + slotText(rs) + ".";
        return d;
    }
    return std::nullopt;
}

// The slots a ring adds up for getHits(t) (its own comparison; a count-only slot always).
void markCounted(SideState& side, const RingVariant& v, Timestamp t, Timestamp low) {
    for (VariantSlot& s : side.slots) {
        const bool inWindow = !s.second ? v.store == RingVariant::Store::CountOnly
                              : v.compare == RingVariant::Compare::GreaterEqual ? *s.second >= low
                                                                                : *s.second > low;
        s.counted = s.used && inWindow && (!s.second || *s.second <= t);
    }
}

}  // namespace

VariantRun runVariant(const RingVariant& v, const std::vector<Operation>& ops,
                      std::chrono::seconds window) {
    VariantRun run;
    RingCounter reference(window);
    VariantRing mine(v, window);
    const Timestamp w = window.count();
    std::optional<Timestamp> refHead;
    std::vector<Fault> faults;
    for (std::size_t k = 0; k < ops.size(); ++k) {
        const Operation& op = ops[k];
        VariantStep step;
        step.step = k + 1;
        step.op = op;
        const std::optional<Timestamp> headBefore = refHead;
        const std::optional<VariantSlot> mineBefore =
            op.kind == Operation::Kind::Hit && mine.indexOf(op.second) < mine.slots().size()
                ? std::optional(mine.slots()[mine.indexOf(op.second)])
                : std::nullopt;
        if (op.kind == Operation::Kind::Hit) {
            const Count droppedBefore = reference.droppedLate();
            reference.hit(op.second, op.repeat);
            const bool refDropped = reference.droppedLate() != droppedBefore;
            if (!refDropped) {
                refHead = std::max(refHead.value_or(op.second), op.second);
            }
            const VariantRing::HitResult r = mine.hit(op.second, op.repeat);
            step.reference = referenceSide(reference);
            step.reference.dropped = refDropped;
            step.mine.slots = mine.slots();
            step.mine.dropped = r.dropped;
            if (!refDropped) {
                step.reference.slot = std::size_t(op.second % w);
            }
            if (!r.dropped) {
                step.mine.slot = r.slot;
                step.mine.outOfRange = r.outOfRange;
            }
            if (!r.dropped && r.outOfRange) {
                faults.push_back(
                    {Fault::Kind::Lost, step.step, op.second, op.repeat, r.slot, 0, 0});
            } else if (!r.dropped && mineBefore && mineBefore->used && mineBefore->second &&
                       *mineBefore->second != op.second && r.reset &&
                       *mineBefore->second >
                           std::max(op.second, headBefore.value_or(op.second)) - w) {
                faults.push_back({Fault::Kind::SharedSlot, step.step, op.second, op.repeat, r.slot,
                                  *mineBefore->second, mineBefore->count});
            } else if (!r.dropped && !r.reset && mineBefore && mineBefore->used &&
                       (!mineBefore->second || *mineBefore->second != op.second) &&
                       v.reset != RingVariant::Reset::Sweep) {
                faults.push_back({Fault::Kind::StaleAdded, step.step, op.second, op.repeat, r.slot,
                                  mineBefore->second.value_or(0), mineBefore->count});
            }
            if (!run.divergence) {
                run.divergence =
                    hitDivergence(v, op, step, r, refDropped, mineBefore, headBefore, w);
            }
            step.mine.lost = mine.lost();
        } else {
            const Count refAnswer = reference.count(op.second);
            refHead = std::max(refHead.value_or(op.second), op.second);
            step.reference = referenceSide(reference);
            step.reference.answer = refAnswer;
            step.mine.answer = mine.count(op.second);
            step.mine.slots = mine.slots();
            step.mine.lost = mine.lost();
            const Timestamp low = *refHead - w;
            markCounted(step.reference, RingVariant{}, op.second, low);
            markCounted(step.mine, v, op.second, mine.head().value_or(op.second) - w);
            if (*step.mine.answer != refAnswer) {
                Difference d;
                d.step = step.step;
                d.kind = Difference::Kind::Answer;
                d.what = "answer";
                d.mine = num(*step.mine.answer);
                d.reference = num(refAnswer);
                d.narration = answerNarration(v, op, step.mine, step.reference,
                                              headBefore.value_or(op.second), w, faults);
                run.difference = std::move(d);
                if (!run.divergence) {
                    run.divergence = run.difference;
                }
            }
        }
        run.steps.push_back(std::move(step));
        if (run.difference) {
            break;
        }
    }
    return run;
}

}  // namespace hitcounter::teach
