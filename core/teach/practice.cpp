#include "core/teach/practice.h"

#include <algorithm>
#include <limits>
#include <random>

namespace hitcounter::teach {

namespace {

std::string num(std::int64_t v) {
    return std::to_string(v);
}

// Sum of the accepted calls (in arrival order) whose second passes `keep`.
template <typename Keep>
Count sumCalls(const Frame& f, Keep keep) {
    Count total = 0;
    for (const Pair& p : f.naive) {
        if (keep(p.second)) {
            total += p.count;
        }
    }
    return total;
}

}  // namespace

std::string practiceOperations(std::uint64_t seed, std::chrono::seconds window) {
    const std::int64_t w = window.count();
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(w));
    auto pick = [&](std::int64_t n) { return std::int64_t(rng() % std::uint64_t(n)); };
    std::vector<std::string> lines;
    std::vector<std::int64_t> hits;  // accepted hit seconds so far
    std::int64_t head = 1 + pick(w);
    lines.push_back("hit " + num(head));
    hits.push_back(head);
    const int count = 12 + int(pick(5));
    bool boundaryAsked = false;
    while (int(lines.size()) < count - 2) {
        const auto r = pick(10);
        if (r < 4) {
            head += pick(3);
            const auto repeat = pick(4) == 0 ? 2 + pick(4) : 1;
            lines.push_back("hit " + num(head) + (repeat > 1 ? " x" + num(repeat) : ""));
            hits.push_back(head);
        } else if (r == 4 && head > 1) {  // late, still inside the window
            const std::int64_t t =
                std::max<std::int64_t>(0, head - 1 - pick(std::min(w - 1, head)));
            if (t > head - w) {
                lines.push_back("hit " + num(t));
                hits.push_back(t);
            }
        } else if (r == 5) {
            head += pick(3);
            lines.push_back("getHits " + num(head));
        } else if (r == 6) {
            lines.push_back("getHits " + num(std::max<std::int64_t>(0, head - pick(w / 2 + 1))));
        } else if (r == 7 && !boundaryAsked) {  // exactly W after an earlier hit
            const std::int64_t t = hits[std::size_t(pick(std::int64_t(hits.size())))] + w;
            if (t >= head) {
                head = t;
                lines.push_back("getHits " + num(t));
                boundaryAsked = true;
            }
        } else if (r == 8 && head - w - 2 >= 0) {  // too late to count
            lines.push_back("hit " + num(head - w - pick(3)));
        } else if (r == 9) {  // a gap longer than the window
            head += w + 1 + pick(w);
            lines.push_back("hit " + num(head));
            hits.push_back(head);
        }
    }
    if (!boundaryAsked) {
        head = std::max(head, hits.back() + w);
        lines.push_back("getHits " + num(head));
    }
    lines.push_back("getHits " + num(head + pick(3)));
    std::string text = "# practice, seed " + std::to_string(seed) + ", W = " + num(w) + "\n";
    for (const auto& line : lines) {
        text += line + "\n";
    }
    return text;
}

std::vector<Question> questions(const Timeline& timeline) {
    std::vector<Question> out;
    const auto& frames = timeline.frames();
    for (std::size_t k = 1; k < frames.size(); ++k) {
        const Frame& f = frames[k];
        const Frame& prev = frames[k - 1];
        if (f.answer) {
            out.push_back({Question::Kind::GetHits, k,
                           "What will getHits(" + num(f.op->second) + ") return?", *f.answer});
        } else if (!f.dropped && prev.ring[*f.slot].used) {
            const RingSlot& before = prev.ring[*f.slot];
            out.push_back({Question::Kind::SlotCount, k,
                           "Slot " + num(std::int64_t(*f.slot)) + " holds second " +
                               num(before.second) + " ×" + num(std::int64_t(before.count)) +
                               ". What count will it hold after " +
                               (f.op->repeat > 1 ? num(std::int64_t(f.op->repeat)) + " hits"
                                                 : std::string("hit")) +
                               "(" + num(f.op->second) + ")?",
                           f.ring[*f.slot].count});
        }
    }
    return out;
}

Verdict diagnose(const Timeline& timeline, const Question& q, Count guess) {
    const Frame& f = timeline.frames().at(q.step);
    const Frame& prev = timeline.frames().at(q.step - 1);
    Verdict v;
    if (guess == q.answer) {
        v.right = true;
        v.text = "Right: " + num(std::int64_t(q.answer)) + ".";
        return v;
    }
    auto wrong = [&](std::string mistake, std::string why) {
        v.mistake = std::move(mistake);
        v.text = "You said " + num(std::int64_t(guess)) + ", but the answer is " +
                 num(std::int64_t(q.answer)) + ": " + v.mistake + ". " + why;
        return v;
    };
    if (q.kind == Question::Kind::GetHits) {
        const Timestamp t = f.op->second;
        const Timestamp lo = *f.windowLow;
        const std::int64_t w = timeline.window().count();
        if (guess == sumCalls(f, [&](Timestamp s) { return s >= lo && s <= t; })) {
            return wrong("off by one at t - W",
                         "Second " + num(lo) + " is not in the window " + f.windowText() +
                             ": it is open on the left, so a hit exactly W ago is out.");
        }
        if (lo != t - w && guess == sumCalls(f, [&](Timestamp s) { return s > t - w && s <= t; })) {
            return wrong("the window of a query into the past",
                         "The newest second is " + num(*f.head) + ", so seconds up to " + num(lo) +
                             " are already forgotten: the window is " + f.windowText() + ", not (" +
                             num(t - w) + ", " + num(t) + "].");
        }
        Count stale = 0;
        for (const RingSlot& s : f.ring) {
            if (s.used && s.second <= t) {
                stale += s.count;
            }
        }
        if (guess == stale) {
            return wrong("counting a stale slot", "A slot whose second is " + num(lo) +
                                                      " or older still holds its "
                                                      "count, but it is outside " +
                                                      f.windowText() + ".");
        }
        Count late = 0;
        Timestamp newest = std::numeric_limits<Timestamp>::min();
        for (const Pair& p : f.naive) {
            if (p.second < newest && p.second > lo && p.second <= t) {
                late += p.count;
            }
            newest = std::max(newest, p.second);
        }
        if (late > 0 && guess + late == q.answer) {
            return wrong("forgetting a late hit",
                         "A hit that arrives after a newer one still counts when its second "
                         "is inside " +
                             f.windowText() + ".");
        }
    } else {
        const RingSlot& before = prev.ring[*f.slot];
        if (before.second != f.op->second && guess == before.count + f.op->repeat) {
            return wrong("forgetting the reset",
                         "The slot held second " + num(before.second) +
                             ", which left the window, so it is reset to (" + num(f.op->second) +
                             ", 0) before the add.");
        }
        if (before.second == f.op->second && guess == f.op->repeat) {
            return wrong("a reset that does not happen", "The slot already holds second " +
                                                             num(f.op->second) +
                                                             ": same second, so the count grows.");
        }
    }
    v.text = "You said " + num(std::int64_t(guess)) + ", but the answer is " +
             num(std::int64_t(q.answer)) + ".";
    return v;
}

std::string Score::text() const {
    return std::to_string(right) + " of " + std::to_string(asked) + " right";
}

}  // namespace hitcounter::teach
