// LineIngest: the part every listener shares. Parses received lines, gathers hits into a
// HitBatch, pushes batches into the BatchQueue (through a BatchSender) and keeps the
// SourceCounters.
//
// Threading: owned by one listener's worker thread, which calls everything except stats()
// and lastProblem(); those two may be called from any thread. Line counts are kept locally
// and added to the atomics at each flush(); m_problemMutex guards m_lastProblem.
//
// Semantics: a line's verdict (core/net/parsed_line.h) decides where it is counted: Hit ->
// lines and, once pushed, hits; Ignored -> lines and ignoredLines; Bad -> lines and
// badLines; Empty -> nowhere. A Hit without a time gets the time given to setNow(). Late
// hits and drops by a full queue are counted as BatchSender defines them.
//
// Cost: one HitEvent (key copied) per Hit line with hits > 0; batches hold at most
// maxBatch events.
//
// Example:
//     LineIngest ingest(WireProtocol::Statsd, queue);
//     ingest.setNow(1700000000);
//     ingest.addLine("home:2|c");   // batch: {1700000000, "home", "", 2}
//     ingest.addLine("x:1|g");      // ignored
//     ingest.flush();               // queue gets the batch; stats(): lines 2, hits 2
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "core/net/parsed_line.h"
#include "core/sources/batch_sender.h"
#include "core/sources/source.h"
#include "core/sources/source_counters.h"

namespace hitcounter {

class LineIngest {
public:
    LineIngest(WireProtocol protocol, BatchQueue& out, std::size_t maxBatch = 4096);

    void setNow(Timestamp now) { m_now = now; }
    void addPackets(std::uint64_t n) { m_packets += n; }
    // Things lost before they were read (kernel drops); counted as dropped.
    void addDropped(std::uint64_t n) { m_counters.dropped.fetch_add(n, std::memory_order_relaxed); }

    // Parses one line (without its '\n'). Returns the problem if it is bad, else "".
    std::string_view addLine(std::string_view line);
    // Counts one bad line that never reached the parser (too long).
    void addBadLine() { ++m_lines, ++m_badLines; }
    // Keeps `problem` (already naming its origin) as the most recent one.
    void noteProblem(std::string problem);

    // Pushes the pending batch and publishes the counts.
    void flush();

    SourceStats stats() const { return m_counters.snapshot(); }
    // The last bad line's place and problem, e.g.
    // `statsd udp 127.0.0.1:8125 from 127.0.0.1:4711: unknown type: "home:1|zz"`.
    std::string lastProblem() const;

    WireProtocol protocol() const { return m_protocol; }

private:
    const WireProtocol m_protocol;
    const std::size_t m_maxBatch;
    SourceCounters m_counters;
    BatchSender m_sender;
    Timestamp m_now = 0;
    HitBatch m_batch;
    // Worker only; added to m_counters at flush().
    std::uint64_t m_packets = 0, m_lines = 0, m_badLines = 0, m_ignoredLines = 0;

    mutable std::mutex m_problemMutex;
    std::string m_lastProblem;  // guarded by m_problemMutex
};

// A bad line made readable for a log: at most `limit` bytes, non-printable bytes as \xHH,
// quoted.
std::string quoteLine(std::string_view line, std::size_t limit = 80);

}  // namespace hitcounter
