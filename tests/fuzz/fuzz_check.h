// What the fuzz targets share: a check that aborts (so libFuzzer records the input) when an
// invariant fails, and the line-protocol driver used by the statsd and Graphite targets.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/base/saturating.h"
#include "core/net/line_buffer.h"
#include "core/net/line_ingest.h"
#include "core/net/parsed_line.h"

#define FUZZ_CHECK(condition)                                                                  \
    do {                                                                                       \
        if (!(condition)) {                                                                    \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
            std::abort();                                                                      \
        }                                                                                      \
    } while (0)

namespace hitcounter::fuzz {

// Parses every line of `bytes` three ways (as a datagram, as a TCP stream cut into pieces,
// through LineIngest into a queue), checks what any verdict promises, and that the three
// agree. `extraCheck` adds the protocol's own invariants for one parsed line.
template <class ExtraCheck>
void checkLineProtocol(WireProtocol protocol, std::string_view bytes, ExtraCheck extraCheck) {
    std::uint64_t counted = 0;
    std::uint64_t hitLines = 0;
    Count hits = 0;
    forEachLine(bytes, [&](std::string_view line) {
        const ParsedLine p = parseLine(protocol, line);
        switch (p.verdict) {
            case LineVerdict::Empty:  // Graphite also skips a line of only blanks
                FUZZ_CHECK(withoutCarriageReturn(line).find_first_not_of(" \t") ==
                           std::string_view::npos);
                return;
            case LineVerdict::Bad:
                FUZZ_CHECK(!p.problem.empty());
                break;
            case LineVerdict::Ignored:
                FUZZ_CHECK(p.problem.empty());
                break;
            case LineVerdict::Hit:
                FUZZ_CHECK(p.problem.empty() && !p.key.empty());
                FUZZ_CHECK(p.key.data() >= line.data() &&
                           p.key.data() + p.key.size() <= line.data() + line.size());
                FUZZ_CHECK(!p.time || *p.time >= 0);
                hits = saturatingAdd(hits, p.hits);
                ++hitLines;
                break;
        }
        ++counted;
        extraCheck(line, p);
    });

    // The same bytes as a stream cut every `step` bytes give the same lines (none too long
    // for the default cap, as the input is smaller than it).
    if (bytes.size() < kMaxLineBytes) {
        const std::size_t step =
            1 + (bytes.empty() ? 0 : static_cast<unsigned char>(bytes[0]) % 13);
        LineBuffer stream;
        std::uint64_t streamCounted = 0;
        for (std::size_t at = 0; at < bytes.size(); at += step) {
            FUZZ_CHECK(stream.feed(bytes.substr(at, step), [&](std::string_view line) {
                streamCounted += parseLine(protocol, line).verdict != LineVerdict::Empty;
            }));
        }
        streamCounted += parseLine(protocol, stream.rest()).verdict != LineVerdict::Empty;
        FUZZ_CHECK(streamCounted == counted);
    }

    BatchQueue queue(1 << 20);
    // No key-length cap here: this compares the ingest with the parser.
    LineIngest ingest(protocol, queue, 64, kMaxLineBytes);
    ingest.setNow(1);
    forEachLine(bytes, [&](std::string_view line) { ingest.addLine(line); });
    ingest.flush();
    const SourceStats s = ingest.stats();
    FUZZ_CHECK(s.lines == counted);
    FUZZ_CHECK(s.badLines + s.ignoredLines + hitLines == counted);
    FUZZ_CHECK(s.dropped == 0);
    Count queued = 0;
    for (const HitBatch& batch : queue.drain()) {
        for (const HitEvent& e : batch) {
            queued = saturatingAdd(queued, e.count);
        }
    }
    FUZZ_CHECK(queued == s.hits);
    FUZZ_CHECK(queued == hits);
}

}  // namespace hitcounter::fuzz
