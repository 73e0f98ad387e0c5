// Fuzzes the Graphite plaintext parser (core/net/graphite_parser.h) on streams of lines.
#include "core/net/graphite_parser.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace hitcounter;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    fuzz::checkLineProtocol(
        WireProtocol::Graphite, bytes, [](std::string_view line, const ParsedLine& p) {
            FUZZ_CHECK(p.verdict == parseGraphiteLine(line).verdict);
            FUZZ_CHECK(p.verdict != LineVerdict::Ignored);
            if (p.verdict == LineVerdict::Hit) {
                FUZZ_CHECK(p.key.find_first_of(" \t") == std::string_view::npos);
            }
        });
    return 0;
}
