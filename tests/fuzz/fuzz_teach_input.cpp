// Fuzzes the teaching mode's operation parser (core/teach/operation_parser.h) and the timeline
// it feeds: any input is either an error naming a place inside the text, or operations that
// format and parse back to themselves and run through the three real counters in lockstep
// (the Timeline throws, and so aborts here, if their answers ever disagree).
#include <algorithm>
#include <string_view>

#include "core/teach/timeline.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace hitcounter::teach;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const ParseResult parsed = parseOperations(text);
    if (const auto* error = std::get_if<ParseError>(&parsed)) {
        const auto lines = 1 + std::count(text.begin(), text.end(), '\n');
        FUZZ_CHECK(error->line >= 1 && error->line <= lines);
        FUZZ_CHECK(error->column >= 1 && std::size_t(error->column) <= size + 1);
        FUZZ_CHECK(!error->message.empty());
        return 0;
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
    const auto window = std::chrono::seconds{
        kMinTeachWindow.count() + (size == 0 ? 0 : data[0] % (kMaxTeachWindow.count() - 4))};
    const Timeline timeline(ops, window);
    FUZZ_CHECK(timeline.frames().size() == ops.size() + 1);
    for (std::size_t k = 1; k < timeline.frames().size(); ++k) {
        const Frame& f = timeline.frames()[k];
        FUZZ_CHECK(f.ring.size() == std::size_t(window.count()));
        FUZZ_CHECK(f.answer.has_value() == (ops[k - 1].kind == Operation::Kind::GetHits));
        FUZZ_CHECK(!f.narration.empty());
    }
    return 0;
}
