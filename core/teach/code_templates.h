// The starting templates of the Code tab (issue 24): the three structures of the write-ups
// as JavaScript in LeetCode's shape, each a correct answer to build on or to break on purpose.
//
// Thread-safe (constants).
//
// Each template is `class HitCounter { constructor(w = W) ... hit(timestamp) ...
// getHits(timestamp) ... }`: the window comes in as the constructor's optional argument (the
// checker passes W; LeetCode passes nothing, and W is 300 there).
//     deque   the timestamps in arrival order; getHits pops the ones that left the window from
//             the front with shift() and returns the length: O(1) amortized, memory O(hits in
//             the window)
//     ring    W buckets of (time, hits), bucket t mod W, reset when it holds an older second;
//             getHits adds the buckets whose time is in the window: O(W), memory O(W)
//     vector  every hit pushed and kept; getHits counts the ones in the window: right answers,
//             but memory and time grow with every hit ever made (the naive structure)
#pragma once

#include <string_view>
#include <vector>

namespace hitcounter::teach {

struct CodeTemplate {
    std::string_view id;     // "deque", "ring", "vector"
    std::string_view title;  // for the template menu
    std::string_view source;
};

const std::vector<CodeTemplate>& codeTemplates();
// The template with `id`, or nullptr.
const CodeTemplate* codeTemplate(std::string_view id);

}  // namespace hitcounter::teach
