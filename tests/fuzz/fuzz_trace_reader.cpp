// Fuzzes the trace CSV reader (core/io/trace_reader.h): the in-place reader and the streaming
// reader with a tiny chunk size must return the same statuses, rows and errors.
#include <sstream>

#include "core/io/trace_reader.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace hitcounter;
    const std::string text(reinterpret_cast<const char*>(data), size);
    TraceReader inPlace{std::string_view(text)};
    std::istringstream in(text);
    TraceReader streaming(in, 1 + (size == 0 ? 0 : data[0] % 17));
    TraceRow a, b;
    for (std::size_t steps = 0;; ++steps) {
        FUZZ_CHECK(steps <= size + 2);  // every call consumes a line or ends
        const TraceStatus sa = inPlace.next(a);
        const TraceStatus sb = streaming.next(b);
        FUZZ_CHECK(sa == sb);
        if (sa == TraceStatus::End) {
            break;
        }
        if (sa == TraceStatus::Row) {
            FUZZ_CHECK(a.event == b.event && a.line == b.line);
            FUZZ_CHECK(a.event.time >= 0 && a.event.count > 0);
        } else {
            FUZZ_CHECK(inPlace.error().line == streaming.error().line);
            FUZZ_CHECK(inPlace.error().kind == streaming.error().kind);
            FUZZ_CHECK(!inPlace.error().message.empty());
        }
    }
    FUZZ_CHECK(inPlace.progress().rows == streaming.progress().rows);
    FUZZ_CHECK(inPlace.progress().badRows == streaming.progress().badRows);
    return 0;
}
