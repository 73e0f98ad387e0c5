// LineIngest: the part every listener shares. Parses received lines, gathers hits into a
// HitBatch, pushes batches into the BatchQueue (through a BatchSender) and keeps the
// SourceCounters and the problems seen, counted per kind.
//
// Threading: owned by one receiver thread of a listener, which calls everything except
// stats(), lastProblem() and problems(); those may be called from any thread. Line counts are
// kept locally and added to the atomics at each flush(). Problems go to a ProblemLog, which
// the receivers of one listener may share (problem_log.h).
//
// Semantics: a line's verdict (core/net/parsed_line.h) decides where it is counted: Hit ->
// lines and, once pushed, hits; Ignored -> lines and ignoredLines; Bad -> lines and
// badLines; Empty -> nowhere. A Hit whose key is longer than maxKeyBytes is Bad ("key longer
// than N bytes"). A Hit without a time gets the time given to setNow(). Late hits are counted
// as BatchSender defines them. After acceptTimes(window) a Hit with a time of its own outside
// `window` around the time given to setNow() is Bad ("time more than N s before now" or
// "... after now"): its hits are not pushed. Every count saturates at UINT64_MAX.
//
// A full queue: by default the batch is dropped and its hits counted as dropped (UDP cannot
// push back). After waitWhenFull(stop) the worker instead waits for room (TCP: it reads
// nothing meanwhile, so the senders are slowed by TCP flow control and nothing is lost).
// Once `stop` is requested it waits at most kStopGrace in all, then drops and counts, so a
// stop never hangs on a consumer that has stopped consuming.
//
// Coalescing (coalesceKeys(), off unless asked for): a Hit line whose time is the newest time
// of the pending batch and whose key already has an event at that time in the batch adds its
// hits to that event (saturating) instead of making a new one, through a key table of this
// thread (batch_key_index.h). So a batch holds one event per key and second for lines that
// arrive in time order, and the consumer's work follows the keys, not the lines. Exact: the
// hits of every key and second are unchanged, and so are late hits (a merged line is never
// older than its batch's newest time, and its event has its time); lines and packets count
// the lines and datagrams as before. Only the number and order of events differ.
//
// Filter (setFilter): a Hit line the filter refuses is counted in lines and ignoredLines, and
// its hits are not pushed; it sees the line's key as `name` and, for statsd, its tags as `tag`
// (filter_record.h). Series filters (setSeries) see the same record and set each hit's
// HitEvent::series; coalescing then adds a line to an event of its key and second only when
// their masks are equal. A statsd timer's time goes to HitEvent::seconds, and a timer is never
// coalesced (each keeps its own time).
//
// Cost: one HitEvent (key copied) per Hit line with hits > 0, or with coalescing one per key
// and second of a batch (plus a hash and a lookup per line); a batch is pushed when it holds
// maxBatch events or kMaxBatchBytes bytes (BatchQueue::batchBytes()).
//
// Example:
//     LineIngest ingest(WireProtocol::Statsd, queue);
//     ingest.setNow(1700000000);
//     ingest.addLine("home:2|c");   // batch: {1700000000, "home", "", 2}
//     ingest.addLine("x:1|g");      // ignored
//     ingest.flush();               // queue gets the batch; stats(): lines 2, hits 2
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/accepted_times.h"
#include "core/filter/record_filter.h"
#include "core/filter/series_filters.h"
#include "core/net/batch_key_index.h"
#include "core/net/parsed_line.h"
#include "core/net/problem_log.h"
#include "core/sources/batch_sender.h"
#include "core/sources/source.h"
#include "core/sources/source_counters.h"

namespace hitcounter {

inline constexpr std::size_t kMaxKeyBytes = 1024;
inline constexpr std::size_t kMaxBatchBytes = std::size_t{1} << 20;
inline constexpr std::chrono::seconds kStopGrace{2};

// The fields a filter may name in lines of `protocol`: name and tag (statsd), name (Graphite).
FilterFields filterFieldsOf(WireProtocol protocol);

class LineIngest {
public:
    // `problems`: where problems are noted; null: a log of its own.
    LineIngest(WireProtocol protocol, BatchQueue& out, std::size_t maxBatch = 4096,
               std::size_t maxKeyBytes = kMaxKeyBytes,
               std::shared_ptr<ProblemLog> problems = nullptr);

    // From now on a full queue is waited for instead of dropping (see above).
    void waitWhenFull(std::stop_token stop);
    // From now on lines of one key and second are added to one event (see above).
    void coalesceKeys() { m_coalesce = true; }
    // From now on a Hit's own time must lie in `window` around now (see above).
    void acceptTimes(AcceptedTimes window);
    // From now on only the Hit lines `filter` accepts count (see above); null: all of them.
    // The caller has checked its fields (filterFieldsOf).
    void setFilter(std::shared_ptr<const RecordFilter> filter) { m_filter = std::move(filter); }
    // From now on each hit's series mask says which of `series` accept its line; null or
    // empty: none. The caller has checked their fields.
    void setSeries(std::shared_ptr<const SeriesFilters> series) {
        m_series = series && !series->empty() ? std::move(series) : nullptr;
    }

    void setNow(Timestamp now) { m_now = now; }
    void addPackets(std::uint64_t n) { m_packets = saturatingAdd(m_packets, n); }
    // Things lost before they were read (kernel drops); counted as dropped.
    void addDropped(std::uint64_t n) { addSaturating(m_counters.dropped, n); }

    // Parses one line (without its '\n'). Returns the problem if it is bad, else "".
    std::string_view addLine(std::string_view line);
    // Counts one bad line that never reached the parser (too long).
    void addBadLine();
    // Counts one problem of `kind` (its count goes up by one) and keeps `message` (already
    // naming its origin) as the most recent of its kind and of all.
    void noteProblem(std::string_view kind, std::string message);
    // A bad `line` from `sender` to the listener `source`: noteProblem(problem, "SOURCE from
    // SENDER: PROBLEM: LINE") and one row of badLines() at the time given to setNow().
    void noteBadLine(const std::string& source, const std::string& sender, std::string_view problem,
                     std::string_view line);
    const BadLineLog& badLines() const { return m_problems->badLines(); }

    // Pushes the pending batch and publishes the counts.
    void flush();

    SourceStats stats() const { return m_counters.snapshot(); }
    // The last problem's place and problem, e.g.
    // `statsd udp 127.0.0.1:8125 from 127.0.0.1:4711: unknown type: "home:1|zz"`.
    std::string lastProblem() const { return m_problems->last(); }
    // Every kind of problem seen, in the order each kind first appeared (at most
    // kMaxProblemKinds kinds: the last one is then "other problems", holding the rest).
    std::vector<ProblemCount> problems() const { return m_problems->problems(); }
    static constexpr std::size_t kMaxProblemKinds = ProblemLog::kMaxKinds;

    WireProtocol protocol() const { return m_protocol; }

private:
    void pushBatch();
    bool pastStopGrace();

    const WireProtocol m_protocol;
    const std::size_t m_maxBatch;
    const std::size_t m_maxKeyBytes;
    const std::string m_keyTooLong;  // "key longer than N bytes"
    std::optional<AcceptedTimes> m_acceptedTimes;
    std::shared_ptr<const RecordFilter> m_filter;
    std::shared_ptr<const SeriesFilters> m_series;
    std::string m_timeTooOld, m_timeTooNew;  // its problems, as AcceptedTimes::problem names them
    SourceCounters m_counters;
    BatchSender m_sender;
    Timestamp m_now = 0;
    HitBatch m_batch;
    std::size_t m_batchBytes = 0;
    std::size_t m_lastBatchSize = 0;  // the capacity a new batch starts with
    bool m_coalesce = false;
    Timestamp m_batchNewest = 0;  // the newest time in m_batch (coalescing)
    BatchKeyIndex m_keyIndex;     // events of m_batch at m_batchNewest, by key (coalescing)
    bool m_waitWhenFull = false;
    std::stop_token m_stop;
    std::optional<std::chrono::steady_clock::time_point> m_giveUpAt;
    // Worker only; added to m_counters at flush().
    std::uint64_t m_packets = 0, m_lines = 0, m_badLines = 0, m_ignoredLines = 0;
    const std::shared_ptr<ProblemLog> m_problems;
};

}  // namespace hitcounter
