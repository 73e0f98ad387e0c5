#include "core/teach/lessons.h"

namespace hitcounter::teach {

using std::chrono::seconds;

const std::vector<Lesson>& lessons() {
    static const std::vector<Lesson> table = {
        {"example",
         "The LeetCode example (W = 300)",
         "The problem exactly as stated: a window of 300 seconds, hits at seconds 1, 2, 3 and "
         "300, then getHits at 4, 300 and 301. Watch the answers 3, 4, 3: at 301 the window is "
         "(1, 301], so the hit at second 1 has just left. Each hit goes to slot t mod 300; the "
         "ring never grows, while the deque keeps one pair per second and drops the hit at 1 from "
         "its front.",
         "hit 1\nhit 2\nhit 3\ngetHits 4\nhit 300\ngetHits 300\ngetHits 301\n",
         seconds{300},
         LessonKind::Ring,
         0,
         {}},
        {"example10",
         "The same example at W = 10",
         "The example's twin with a window of 10 seconds, so every slot is readable: hits at "
         "1, 2, 3 and 10 (10 plays the role of 300), getHits at 4, 10 and 11. The answers are "
         "the same 3, 4, 3. Notice that second 10 lands in slot 0, and that at 11 the window "
         "(1, 11] no longer holds second 1.",
         "hit 1\nhit 2\nhit 3\ngetHits 4\nhit 10\ngetHits 10\ngetHits 11\n",
         seconds{10},
         LessonKind::Ring,
         0,
         {}},
        {"burst",
         "Many hits in one second",
         "Fifty hits arrive in the same second. The ring puts them all in one slot and only its "
         "count grows; the deque keeps one pair for that second; the naive vector stores every "
         "single call, so its memory grows with the traffic. Compare the byte counts: here the "
         "deque is the smallest, because only a few seconds are busy; the ring pays for all W "
         "slots from the start. The deque only costs more when many seconds of the window are "
         "busy (the lesson 'Memory: when the deque costs more'), and its bytes never fall after "
         "pops.",
         "hit 2\nhit 4 x40\nhit 4 x10\ngetHits 4\nhit 5 x3\ngetHits 9\ngetHits 13\n",
         seconds{10},
         LessonKind::Ring,
         0,
         {}},
        {"memory",
         "Memory: when the deque costs more",
         "Every second of the window is busy: one hit per second from 1 to 12. The ring's bytes "
         "are fixed by W; the deque holds one pair per busy second, so once most seconds of the "
         "window are busy it takes more memory than the ring. Then a gap: the deque pops its "
         "pairs, but its bytes do not fall, because its buffer keeps its capacity. The naive "
         "vector grows with every call.",
         "hit 1\nhit 2\nhit 3\nhit 4\nhit 5\nhit 6\nhit 7\nhit 8\nhit 9\nhit 10\nhit 11\n"
         "hit 12\ngetHits 12\nhit 40\ngetHits 40\n",
         seconds{10},
         LessonKind::Ring,
         0,
         {}},
        {"gap",
         "A long gap: every written slot goes stale",
         "After a quiet spell longer than the window, every slot that was written (4 of the 10 "
         "here) still holds its old second and count, but none of them is inside the window any "
         "more. getHits ignores them all, the "
         "deque pops everything, and the next hits reset the stale slots they land in. Nothing "
         "had to be cleared during the gap.",
         "hit 1\nhit 3\nhit 4 x2\nhit 8\ngetHits 8\ngetHits 40\nhit 41\nhit 43\ngetHits 44\n",
         seconds{10},
         LessonKind::Ring,
         0,
         {}},
        {"boundary",
         "Off by one: a hit exactly W ago is out",
         "The window is half-open: (t - W, t]. Hits at seconds 5 and 6, then getHits at 14, 15 "
         "and 16. Turn on Predict mode and answer each getHits before you see it: at which query "
         "does the hit at 5 stop counting, and why? This is where most solutions go wrong by "
         "one.",
         "hit 5\nhit 6\ngetHits 14\ngetHits 15\ngetHits 16\n",
         seconds{10},
         LessonKind::Ring,
         0,
         {}},
        {"late",
         "A late hit",
         "Hits do not always arrive in order. A late hit still inside the window is counted: its "
         "slot is t mod W like any other, and the deque inserts it in order in the middle. A hit "
         "that is W or more seconds older than the newest second is dropped by all three "
         "structures, because it could never be counted again.",
         "hit 3\nhit 8\nhit 6\ngetHits 8\nhit 12\nhit 2\nhit 4\ngetHits 12\n",
         seconds{10},
         LessonKind::Ring,
         0,
         {}},
        {"why-second",
         "Why a slot stores its second: the lazy reset",
         "Seconds 3 and 13 share slot 3 when W = 10. The slot stores its second, so when hit(13) "
         "arrives the ring sees that 3 is not 13 and resets the slot right then, on reuse: a "
         "lazy reset. A ring that kept only counts can be correct too, but only if it clears "
         "every slot the head skips over each time it moves (here 3 to 13): after a long gap "
         "that is a sweep over all W slots. Storing the second means nothing is ever swept.",
         "hit 3\nhit 3\ngetHits 3\nhit 13\ngetHits 13\ngetHits 22\ngetHits 23\n",
         seconds{10},
         LessonKind::Ring,
         0,
         {}},
        {"running-total",
         "The ring the project uses: a running total",
         "The textbook getHits scans all W slots and adds the ones in the window: 10 slot "
         "visits for every query, however little changed. hitcounter's RingCounter keeps a "
         "running total of the window instead. When the head moves on, it visits only the "
         "slots whose second leaves the window and subtracts their counts (lazy expiry: a stale "
         "slot is not cleared, only taken out of the total); a getHits in the present then "
         "returns the total. Watch the chart: the scan's visits climb by 10 at every getHits, "
         "the running total's by one per slot written and one per slot expired, since every "
         "write is expired at most once. Only a query into the past (getHits 8 below, after "
         "hit 12) cannot use the total and adds up the window's written slots.",
         "hit 1\nhit 2\nhit 2\nhit 5\ngetHits 5\ngetHits 6\ngetHits 7\ngetHits 11\n"
         "getHits 12\nhit 12\ngetHits 8\ngetHits 13\ngetHits 14\ngetHits 15\ngetHits 40\n"
         "hit 41\ngetHits 41\n",
         seconds{10},
         LessonKind::Ring,
         0,
         {},
         LessonChart::SlotVisits,
         Code::RunningTotal},
        {"bytes",
         "Memory over time: ring O(W), deque O(distinct seconds), vector O(calls)",
         "Three kinds of traffic, one after the other, and the bytes each structure holds "
         "(measured on the real counters) on the chart. First a burst: 30 hits in second 1. The "
         "ring has paid for its W slots from the start and never changes: O(W). The deque holds "
         "one pair for the one busy second: O(distinct seconds in the window), the smallest "
         "here. The vector stores all 30 calls: O(calls). Then every second is busy, one hit "
         "per second from 2 to 14: the deque grows one pair per second and passes the ring, "
         "while the vector keeps every call (its bytes jump when its buffer doubles). Then a long "
         "gap: getHits 60 finds nothing, the deque "
         "pops every pair, but its bytes do not fall (its buffer keeps its capacity), and the "
         "vector never forgets a call.",
         "hit 1 x30\ngetHits 1\nhit 2\nhit 3\nhit 4\nhit 5\nhit 6\nhit 7\nhit 8\nhit 9\n"
         "hit 10\nhit 11\nhit 12\nhit 13\nhit 14\ngetHits 14\ngetHits 60\nhit 61\n"
         "getHits 61\n",
         seconds{10},
         LessonKind::Ring,
         0,
         {},
         LessonChart::Bytes},
        {"limit-burst",
         "Rate limits: the boundary burst",
         "A rate limiter allows each key L requests per W seconds; here L = 2 per W = 60, and "
         "each hit is one request. The fixed window counts per calendar minute [0, 60), "
         "[60, 120), ...; the sliding log keeps the accepted timestamps and looks at the last 60 "
         "seconds. At 58, 59, 60, 61 the fixed window accepts all four, twice the limit within "
         "four seconds, because a new window starts empty at 60. The log rejects 60 and 61 and "
         "only lets requests in again when 58 and 59 are a full minute old.",
         "hit 58\nhit 59\nhit 60\nhit 61\nhit 118\nhit 119\nhit 120\n",
         seconds{60},
         LessonKind::RateLimit,
         2,
         {"fixed", "log", "counter", "bucket"}},
        {"limit-bucket",
         "Rate limits: the forgiving token bucket",
         "L = 3 per W = 30. The token bucket holds at most 3 tokens and earns one every 10 "
         "seconds (L/W); a request takes a token. After a burst of 3 empties both limiters, "
         "requests spaced 10 seconds apart pass the bucket at once, while the sliding log "
         "rejects them until the burst is 30 seconds old: the bucket forgives traffic at the "
         "average rate, at the price of up to 2L in one window. After a quiet spell both allow "
         "a full burst again.",
         "hit 5 x3\nhit 6\nhit 15\nhit 25\nhit 35\nhit 45\nhit 100 x4\n",
         seconds{30},
         LessonKind::RateLimit,
         3,
         {"bucket", "log", "fixed", "counter"}},
        {"limit-tokens",
         "Rate limits: the bucket's tokens, request by request",
         "L = 2 per W = 60, so the bucket holds at most 2 tokens and earns one every 30 seconds. "
         "Follow its tokens: the request at 58 takes one of the 2 (1.00 left); 29 seconds later "
         "it has earned 0.97 of a token, so the request at 87 finds 1.97 and leaves 0.97; 107 "
         "and 127 each find 20 seconds' worth more (0.67) and leave 0.63, then 0.30; a second "
         "request at 127 finds 0.30, less than one token, and is rejected. Predict each "
         "limiter's answer before you step; the other three decide by windows, not tokens.",
         "hit 58\nhit 87\nhit 107\nhit 127\nhit 127\n",
         seconds{60},
         LessonKind::RateLimit,
         2,
         {"bucket", "fixed", "log", "counter"}},
    };
    return table;
}

}  // namespace hitcounter::teach
