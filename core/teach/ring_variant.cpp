#include "core/teach/ring_variant.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/counters/ring_counter.h"
#include "core/base/saturating.h"

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
    return (s.second ? "(" + std::to_string(*s.second) + ", " : "(?, ") + std::to_string(s.count) +
           ")";
}

std::string indexFormula(RingVariant::Index i, Timestamp t, Timestamp w) {
    const Timestamp m = i == RingVariant::Index::ModW        ? w
                        : i == RingVariant::Index::ModWPlus1 ? w + 1
                                                             : w - 1;
    return std::to_string(t) + " mod " + std::to_string(m) + " = " + std::to_string(t % m);
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

std::variant<RingVariant, std::string> parseVariant(std::string_view text) {
    const std::string all = withoutSpaces(text);
    RingVariant v;
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
    if (std::string problem = variantProblem(v); !problem.empty()) {
        return problem;
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

// The narration of a getHits that differs: which seconds the learner's ring added that the
// reference did not, or left out, and the choice behind it.
std::string answerNarration(const RingVariant& v, const Operation& op, const SideState& mine,
                            const SideState& ref, Timestamp head, Timestamp w) {
    const Timestamp t = op.second;
    const Timestamp low = std::max(head, t) - w;
    std::string text = "getHits(" + std::to_string(t) + "): your ring answers " +
                       std::to_string(*mine.answer) + ", the reference " +
                       std::to_string(*ref.answer) + " (the window (" + std::to_string(low) + ", " +
                       std::to_string(t) + "]). ";
    if (v.store == RingVariant::Store::CountOnly) {
        return text + (t < head
                           ? "A count-only slot cannot tell which second its count belongs "
                             "to, so your ring adds every slot, also the seconds after " +
                                 std::to_string(t) + " (up to the head " + std::to_string(head) +
                                 ") that a query into the past leaves "
                                 "out."
                           : "A count-only slot cannot tell which second its count belongs "
                             "to, so your ring adds every slot, also counts of seconds that "
                             "left the window.");
    }
    for (const VariantSlot& s : mine.slots) {
        if (s.used && s.second && *s.second == low &&
            v.compare == RingVariant::Compare::GreaterEqual) {
            return text + "Your comparison s.second >= head - W counts second " +
                   std::to_string(low) + " = " + std::to_string(std::max(head, t)) + " - " +
                   std::to_string(w) +
                   ", which is exactly W seconds old: the window is open on "
                   "the left, so the comparison must be >.";
        }
    }
    return text +
           "Your slots hold other counts than the reference's (below), so the sum "
           "differs: look at the reset rule and the index.";
}

}  // namespace

VariantRun runVariant(const RingVariant& v, const std::vector<Operation>& ops,
                      std::chrono::seconds window) {
    VariantRun run;
    RingCounter reference(window);
    VariantRing mine(v, window);
    const Timestamp w = window.count();
    std::optional<Timestamp> refHead;
    for (std::size_t k = 0; k < ops.size(); ++k) {
        const Operation& op = ops[k];
        VariantStep step;
        step.step = k + 1;
        step.op = op;
        Difference d;
        d.step = step.step;
        bool differs = false;
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
            const std::string hitText = "hit(" + std::to_string(op.second) + ")";
            const std::string lowText =
                headBefore ? std::to_string(*headBefore) + " - " + std::to_string(w) : "";
            if (r.dropped != refDropped) {
                differs = true;
                d.kind = Difference::Kind::Dropped;
                d.what = "dropped";
                d.mine = r.dropped ? "dropped" : "kept";
                d.reference = refDropped ? "dropped" : "kept";
                d.narration =
                    refDropped
                        ? hitText + ": the reference drops it, " + std::to_string(op.second) +
                              " <= " + lowText + " (too late); your comparison >= keeps second " +
                              std::to_string(op.second) + " = head - W in the window and stores it."
                        : hitText + ": the reference keeps it, " + std::to_string(op.second) +
                              " > " + lowText + "; your ring drops it.";
            } else if (!refDropped && r.outOfRange) {
                differs = true;
                d.kind = Difference::Kind::OutOfRange;
                d.what = "out_of_range";
                d.mine = "slot " + std::to_string(r.slot) + " (none)";
                d.reference = "slot " + std::to_string(*step.reference.slot);
                d.narration = hitText + ": your index " + indexFormula(v.index, op.second, w) +
                              " names slot " + std::to_string(r.slot) + ", but the ring has only " +
                              std::to_string(w) + " slots (0 to " + std::to_string(w - 1) +
                              "): the hit has nowhere to go. The reference "
                              "uses " +
                              indexFormula(RingVariant::Index::ModW, op.second, w) + ".";
            } else if (!refDropped && r.slot != *step.reference.slot) {
                differs = true;
                d.kind = Difference::Kind::SlotIndex;
                d.what = "slot";
                d.mine = "slot " + std::to_string(r.slot);
                d.reference = "slot " + std::to_string(*step.reference.slot);
                d.narration = hitText + ": your index " + indexFormula(v.index, op.second, w) +
                              " puts it in slot " + std::to_string(r.slot) + "; the reference " +
                              indexFormula(RingVariant::Index::ModW, op.second, w) +
                              ". With other than W slots in the cycle, two seconds of one window "
                              "share a slot, or a slot is never used.";
            } else if (!refDropped) {
                const VariantSlot& ms = step.mine.slots[r.slot];
                const VariantSlot& rs = step.reference.slots[*step.reference.slot];
                const std::string before = mineBefore ? slotText(*mineBefore) : "empty";
                if (ms.count != rs.count) {
                    differs = true;
                    d.kind = Difference::Kind::SlotCount;
                    d.what = "count";
                    d.mine = slotText(ms);
                    d.reference = slotText(rs);
                    const bool stale = mineBefore && mineBefore->used &&
                                       (!mineBefore->second || *mineBefore->second != op.second);
                    d.narration =
                        hitText + " lands in slot " + std::to_string(r.slot) + ", which held " +
                        before + ". " +
                        (stale ? "That count belongs to an older second, so the reference resets "
                                 "the slot to (" +
                                     std::to_string(op.second) +
                                     ", 0) before adding; your reset "
                                     "rule (" +
                                     std::string(choiceText(v.reset)) +
                                     ") keeps the old count: your slot holds " + slotText(ms) +
                                     ", the reference's " + slotText(rs) + "."
                               : "Your slot holds " + slotText(ms) + ", the reference's " +
                                     slotText(rs) + ".");
                } else if (v.store == RingVariant::Store::SecondAndCount &&
                           ms.second != rs.second) {
                    differs = true;
                    d.kind = Difference::Kind::SlotSecond;
                    d.what = "second";
                    d.mine = slotText(ms);
                    d.reference = slotText(rs);
                    d.narration = hitText + ": your slot " + std::to_string(r.slot) + " holds " +
                                  slotText(ms) + ", the reference's " + slotText(rs) + ".";
                }
            }
        } else {
            const Count refAnswer = reference.count(op.second);
            refHead = std::max(refHead.value_or(op.second), op.second);
            step.reference = referenceSide(reference);
            step.reference.answer = refAnswer;
            step.mine.answer = mine.count(op.second);
            step.mine.slots = mine.slots();
            if (*step.mine.answer != refAnswer) {
                differs = true;
                d.kind = Difference::Kind::Answer;
                d.what = "answer";
                d.mine = std::to_string(*step.mine.answer);
                d.reference = std::to_string(refAnswer);
                d.narration = answerNarration(v, op, step.mine, step.reference,
                                              headBefore.value_or(op.second), w);
            }
        }
        run.steps.push_back(std::move(step));
        if (differs) {
            run.difference = std::move(d);
            break;
        }
    }
    return run;
}

}  // namespace hitcounter::teach
