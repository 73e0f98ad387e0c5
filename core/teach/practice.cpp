#include "core/teach/practice.h"

#include <algorithm>
#include <limits>
#include <random>

#include "core/teach/number_text.h"

namespace hitcounter::teach {

namespace {

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

std::string_view levelName(PracticeLevel level) {
    switch (level) {
        case PracticeLevel::WarmUp:
            return "warm-up";
        case PracticeLevel::Boundary:
            return "the boundary";
        case PracticeLevel::OutOfOrder:
            break;
    }
    return "out of order";
}

std::string practiceOperations(std::uint64_t seed, std::chrono::seconds window,
                               PracticeLevel level) {
    const std::int64_t w = window.count();
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + std::uint64_t(w) +
                        (std::uint64_t(level) - 3) * 0x51ED27ULL);
    auto pick = [&](std::int64_t n) { return std::int64_t(rng() % std::uint64_t(n)); };
    enum class Move { Hit, GetHead, Gap, Reuse, Boundary, Late, TooLate, Past };
    // Every practice of a level has each of its kinds at least once (issue 24: seed 1 had no
    // late, too-late or past query), in a seeded order among random hits and queries.
    std::vector<Move> moves = {Move::Gap, Move::Reuse};
    if (level >= PracticeLevel::Boundary) {
        moves.push_back(Move::Boundary);
    }
    if (level >= PracticeLevel::OutOfOrder) {
        moves.insert(moves.end(), {Move::Late, Move::TooLate, Move::Past});
    }
    const int count = 12 + int(pick(5));
    while (int(moves.size()) < count - 2) {
        const auto r = pick(10);
        moves.push_back(r < 6    ? Move::Hit
                        : r < 8  ? Move::GetHead
                        : r == 8 ? Move::Gap
                                 : Move::Past);
        if (moves.back() == Move::Past && level < PracticeLevel::OutOfOrder) {
            moves.back() = Move::GetHead;
        }
    }
    for (std::size_t i = moves.size() - 1; i > 0; --i) {  // Fisher-Yates, own draws
        std::swap(moves[i], moves[std::size_t(pick(std::int64_t(i) + 1))]);
    }
    std::vector<std::string> lines;
    std::vector<std::int64_t> hits;  // accepted hit seconds so far
    // Far enough from 0 that a hit W or more seconds late is a second that exists.
    std::int64_t head = w + 3 + pick(w);
    lines.push_back("hit " + num(head));
    hits.push_back(head);
    for (Move move : moves) {
        switch (move) {
            case Move::Hit: {
                head += pick(3);
                const auto repeat = pick(4) == 0 ? 2 + pick(4) : 1;
                lines.push_back("hit " + num(head) + (repeat > 1 ? " x" + num(repeat) : ""));
                hits.push_back(head);
                break;
            }
            case Move::GetHead:
                head += pick(3);
                lines.push_back("getHits " + num(head));
                break;
            case Move::Gap:  // longer than the window
                head += w + 1 + pick(w);
                lines.push_back("hit " + num(head));
                hits.push_back(head);
                break;
            case Move::Reuse: {  // a whole number of windows after an earlier hit: its slot
                const std::int64_t h = hits[std::size_t(pick(std::int64_t(hits.size())))];
                head = h + w * std::max<std::int64_t>(1, (head - h + w) / w);
                lines.push_back("hit " + num(head));
                hits.push_back(head);
                break;
            }
            case Move::Boundary: {  // exactly W after an earlier hit, not before the head
                std::vector<std::int64_t> candidates;
                for (std::int64_t h : hits) {
                    if (h + w >= head) {
                        candidates.push_back(h);
                    }
                }
                if (candidates.empty()) {
                    lines.push_back("hit " + num(head));
                    hits.push_back(head);
                    candidates.push_back(head);
                }
                head = candidates[std::size_t(pick(std::int64_t(candidates.size())))] + w;
                lines.push_back("getHits " + num(head));
                break;
            }
            case Move::Late: {  // inside the window, before the head
                const std::int64_t t = head - 1 - pick(w - 1);
                lines.push_back("hit " + num(t));
                hits.push_back(t);
                break;
            }
            case Move::TooLate:  // W or more seconds before the head: dropped
                lines.push_back("hit " + num(head - w - pick(3)));
                break;
            case Move::Past:  // a query before the head
                lines.push_back("getHits " + num(head - 1 - pick(w / 2)));
                break;
        }
    }
    lines.push_back("getHits " + num(head + pick(3)));
    std::string text = "# practice, seed " + num(seed) + ", W = " + num(w) + ", level " +
                       num(int(level)) + " (" + std::string(levelName(level)) + ")\n";
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
        const std::string call =
            (f.op->repeat > 1 ? num(f.op->repeat) + " hits" : std::string("hit")) + "(" +
            num(f.op->second) + ")";
        if (f.answer) {
            out.push_back({Question::Kind::GetHits, k,
                           "What will getHits(" + num(f.op->second) + ") return?", *f.answer});
        } else if (f.dropped) {
            out.push_back({Question::Kind::VectorCalls, k,
                           "The naive vector holds " + num(prev.naive.size()) +
                               (prev.naive.size() == 1 ? " call" : " calls") +
                               ". How many will it hold after " + call + "?",
                           Count(f.naive.size())});
        } else if (!prev.ring[*f.slot].used) {
            out.push_back(
                {Question::Kind::DequePairs, k,
                 "The deque holds " + num(prev.deque.size()) +
                     (prev.deque.size() == 1 ? " (second, count) pair" : " (second, count) pairs") +
                     ". How many will it hold after " + call + "?",
                 Count(f.deque.size())});
        } else {
            const RingSlot& before = prev.ring[*f.slot];
            out.push_back({Question::Kind::SlotCount, k,
                           "Slot " + num(*f.slot) + " holds second " + num(before.second) + " ×" +
                               num(before.count) + ". What count will it hold after " + call + "?",
                           f.ring[*f.slot].count});
        }
    }
    return out;
}

std::string_view kindName(Question::Kind kind) {
    switch (kind) {
        case Question::Kind::GetHits:
            return "getHits";
        case Question::Kind::SlotCount:
            return "slot_count";
        case Question::Kind::DequePairs:
            return "deque_pairs";
        case Question::Kind::VectorCalls:
            return "vector_calls";
    }
    return "getHits";
}

Verdict diagnose(const Timeline& timeline, const Question& q, Count guess) {
    const Frame& f = timeline.frames().at(q.step);
    const Frame& prev = timeline.frames().at(q.step - 1);
    Verdict v;
    if (guess == q.answer) {
        v.right = true;
        v.text = "Right: " + num(q.answer) + ".";
        return v;
    }
    auto wrong = [&](std::string mistake, std::string why) {
        v.mistake = std::move(mistake);
        v.text = "You said " + num(guess) + ", but the answer is " + num(q.answer) + ": " +
                 v.mistake + ". " + why;
        return v;
    };
    if (q.kind == Question::Kind::GetHits) {
        const Timestamp t = f.op->second;
        const Timestamp lo = *f.windowLow;
        const std::int64_t w = timeline.window().count();
        // A query into the past is judged by its own window first (issue 24, wrong 3: "hit 5;
        // hit 15; getHits 12" answered 1 counts (2, 12], not the boundary: its window is
        // (5, 12], open at head - W).
        const bool past = lo != t - w;
        if (past && guess == sumCalls(f, [&](Timestamp s) { return s > t - w && s <= t; })) {
            return wrong("the window of a query into the past",
                         "The newest second is " + num(*f.head) + ", so seconds up to " + num(lo) +
                             " are already forgotten: the window is " + f.windowText() + ", not (" +
                             num(t - w) + ", " + num(t) + "].");
        }
        if (guess == sumCalls(f, [&](Timestamp s) { return s >= lo && s <= t; })) {
            return wrong(past ? "off by one at head - W" : "off by one at t - W",
                         "Second " + num(lo) + " is not in the window " + f.windowText() +
                             ": it is open on the left, so a hit exactly W " +
                             (past ? "before the newest second" : "ago") + " is out.");
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
    } else if (q.kind == Question::Kind::DequePairs) {
        if (!f.popped.empty() && guess == Count(f.deque.size() + f.popped.size())) {
            return wrong("keeping the stale pairs",
                         "The hit moves the newest second to " + num(*f.head) + ", so the " +
                             (f.popped.size() == 1 ? "pair" : "pairs") + " of second " +
                             num(f.popped.front().second) +
                             (f.popped.size() > 1 ? " and later" : "") + " left the window " +
                             f.windowText() + " and are popped from the front.");
        }
        Count hits = 0;
        for (const Pair& p : f.deque) {
            hits += p.count;
        }
        if (hits != Count(f.deque.size()) && guess == hits) {
            return wrong("a pair per hit",
                         "The deque keeps one (second, count) pair per distinct second: hits "
                         "in the same second add to its count.");
        }
    } else if (q.kind == Question::Kind::VectorCalls) {
        if (guess == Count(prev.naive.size()) + f.op->repeat) {
            return wrong("recording a hit that is too late to count",
                         "Second " + num(f.op->second) +
                             " is W or more seconds before the "
                             "newest second " +
                             num(*f.head) +
                             ": the hit is dropped, and the vector does not store it.");
        }
        Count inWindow = 0;
        for (const Pair& p : f.naive) {
            inWindow += p.second > *f.head - timeline.window().count() ? Count{1} : Count{0};
        }
        if (inWindow != Count(f.naive.size()) && guess == inWindow) {
            return wrong("a vector that forgets",
                         "The naive vector never removes a call, not even one that left the "
                         "window: its memory grows with every accepted hit.");
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
    v.text = "You said " + num(guess) + ", but the answer is " + num(q.answer) + ".";
    return v;
}

std::string Score::text() const {
    return num(right) + " of " + num(asked) + " right";
}

}  // namespace hitcounter::teach
