// Fuzzes the one LeetCode 362 reader (core/io/leetcode_input.h) through both of its users:
// - the judge (answerLeetCode, line-bound arrays): any input is either an error at a line and
//   column inside the text, or one answer per operation ("[null,...]");
// - the teaching mode's parser (core/teach/operation_parser.h, which also reads the plain lesson
//   format): an error naming a place inside the text, or operations that format and parse back
//   to themselves and run through the three real counters in lockstep (the Timeline throws,
//   and so aborts here, if their answers ever disagree).
#include <algorithm>
#include <sstream>
#include <string_view>

#include "core/counters/counter_factory.h"
#include "core/judge/leetcode_judge.h"
#include "core/teach/timeline.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

void checkPlace(long long line, long long column, std::string_view text) {
    const auto lines = 1 + std::count(text.begin(), text.end(), '\n');
    FUZZ_CHECK(line >= 1 && line <= lines);
    FUZZ_CHECK(column >= 1 && static_cast<std::size_t>(column) <= text.size() + 1);
}

void fuzzJudge(std::string_view text) {
    std::istringstream input{std::string(text)};
    auto counter = hitcounter::makeCounter("ring");
    const auto answers = hitcounter::answerLeetCode(input, *counter);
    if (const auto* error = std::get_if<hitcounter::TextProblem>(&answers)) {
        checkPlace(error->line, error->column, text);
        FUZZ_CHECK(!error->message.empty());
        return;
    }
    const auto& out = std::get<std::string>(answers);
    FUZZ_CHECK(out.size() >= 6 && out.starts_with("[null") && out.back() == ']');
}

void fuzzTeach(std::string_view text, std::uint8_t firstByte) {
    using namespace hitcounter::teach;
    const ParseResult parsed = parseOperations(text);
    if (const auto* error = std::get_if<hitcounter::TextProblem>(&parsed)) {
        checkPlace(error->line, error->column, text);
        FUZZ_CHECK(!error->message.empty());
        return;
    }
    const auto& ops = std::get<std::vector<Operation>>(parsed);
    FUZZ_CHECK(ops.size() <= kMaxOperations);
    const ParseResult again = parseOperations(formatOperations(ops));
    const auto* reparsed = std::get_if<std::vector<Operation>>(&again);
    FUZZ_CHECK(reparsed != nullptr && reparsed->size() == ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const Operation& a = ops[i];
        const Operation& b = (*reparsed)[i];
        FUZZ_CHECK(a.kind == b.kind && a.second == b.second && a.repeat == b.repeat);
    }
    const auto window =
        std::chrono::seconds{kMinTeachWindow.count() + firstByte % (kMaxTeachWindow.count() - 4)};
    const Timeline timeline(ops, window);
    FUZZ_CHECK(timeline.frames().size() == ops.size() + 1);
    for (std::size_t k = 1; k < timeline.frames().size(); ++k) {
        const Frame& f = timeline.frames()[k];
        FUZZ_CHECK(f.ring.size() == std::size_t(window.count()));
        FUZZ_CHECK(f.answer.has_value() == (ops[k - 1].kind == Operation::Kind::GetHits));
        FUZZ_CHECK(!f.narration.empty());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    fuzzJudge(text);
    fuzzTeach(text, size == 0 ? 0 : data[0]);
    return 0;
}
