// The built-in lessons of the teaching view.
//
// Thread-safe (a constant table built on first use).
//
// Each lesson is a title, a one-paragraph goal, its operations as text in the plain format of
// operation_parser.h (so the view's editor shows exactly what runs) and its window. The first
// lesson is the LeetCode 362 example exactly as stated, W = 300: hits at 1, 2, 3, 300 and
// getHits at 4, 300, 301 answer 3, 4, 3. The second is its twin at W = 10 (every second over 3
// scaled: hits at 1, 2, 3, 10, getHits at 4, 10, 11, same answers), where every slot is
// readable. The others use W = 10.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace hitcounter::teach {

struct Lesson {
    std::string id;  // stable short name, e.g. "example"
    std::string title;
    std::string goal;
    std::string operations;
    std::chrono::seconds window;
};

const std::vector<Lesson>& lessons();

}  // namespace hitcounter::teach
