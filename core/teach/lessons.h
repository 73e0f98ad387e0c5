// The built-in lessons of the teaching view.
//
// Thread-safe (a constant table built on first use).
//
// Each lesson is a title, a one-paragraph goal, its operations as text in the plain format of
// operation_parser.h (so the view's editor shows exactly what runs) and its window. The first
// lesson is the LeetCode 362 example exactly as stated, W = 300: hits at 1, 2, 3, 300 and
// getHits at 4, 300, 301 answer 3, 4, 3. The second is its twin at W = 10 (every second over 3
// scaled: hits at 1, 2, 3, 10, getHits at 4, 10, 11, same answers), where every slot is
// readable. The ring lessons after them use W = 10; `running-total` and `bytes` come with a
// chart (LessonChart). The last three are rate-limit lessons (kind RateLimit), each with all
// four limiters side by side (issue 24): each `hit t` is one request of a single key, decided
// by the limiters named in `limiters` (core/limiters/) with L = `limit` per W = `window`
// (limiter_timeline.h); `limit-tokens` follows the token bucket's tokens request by request.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/teach/pseudocode.h"

#include "core/counters/window_counter.h"

namespace hitcounter::teach {

enum class LessonKind { Ring, RateLimit };

// A chart over the lesson's steps that the view shows beside the ring (issue 16, build 2):
// the slot visits of the textbook scan against the running total's, or the bytes of the ring,
// the deque and the naive vector.
enum class LessonChart { None, SlotVisits, Bytes };

struct Lesson {
    std::string id;  // stable short name, e.g. "example"
    std::string title;
    std::string goal;
    std::string operations;
    std::chrono::seconds window;
    LessonKind kind = LessonKind::Ring;
    Count limit = 0;                    // RateLimit: L
    std::vector<std::string> limiters;  // RateLimit: the algorithms shown, by factory name
    LessonChart chart = LessonChart::None;
    Code code = Code::Scan;  // the pseudocode listing: the running-total lesson shows its own
};

const std::vector<Lesson>& lessons();

}  // namespace hitcounter::teach
