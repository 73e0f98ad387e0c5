// Fuzzes the statsd parser (core/net/statsd_parser.h) on datagrams and streams of lines.
#include <cmath>

#include "core/net/statsd_parser.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace hitcounter;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fuzz::checkLineProtocol(
        WireProtocol::Statsd, bytes, [](std::string_view line, const ParsedLine& p) {
            FUZZ_CHECK(p.verdict == parseStatsdLine(line).verdict);
            if (p.verdict == LineVerdict::Hit) {
                // The key is the name before the first ':'.
                FUZZ_CHECK(p.key.data() == line.data());
                FUZZ_CHECK(line.size() > p.key.size() && line[p.key.size()] == ':');
                FUZZ_CHECK(p.key.find(':') == std::string_view::npos);
                // A timer's time is a finite number of seconds up to 1e6 (1e9 ms); others none.
                FUZZ_CHECK(p.seconds < 0 || (std::isfinite(p.seconds) && p.seconds <= 1e6f));
            }
        });
    return 0;
}
