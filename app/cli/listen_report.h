// The report of hitcounter-cli listen: what each listener received, the problems per kind,
// the hits per key and, in fleet mode, the Redis sink's counters, as text or as one JSON object
// (docs/listener.md and docs/redis.md list the fields).
//
// Threading: main thread only.
//
// Exactness: every number is printed as the exact unsigned 64-bit integer (never through a
// double); the counts themselves saturate at 18446744073709551615.
// Safety: in the text report, keys go through escapeForTerminal() and problems quote the bad
// line with quoteLine(), so no control byte reaches the terminal. In JSON, keys that are valid
// UTF-8 are in "keys"; any other key is in "keys_hex", its name written as two lowercase hex digits
// per byte, so two keys are never merged and each can be turned back into its bytes. Cost: O(n log
// n) in the kept keys (one sort), streamed out in chunks; `interrupted` is asked every few thousand
// keys, and a true answer ends the report at once.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/net/key_totals.h"
#include "core/net/line_ingest.h"
#include "core/sources/follow_source.h"
#include "core/sources/source.h"

namespace hitcounter::cli {

struct ListenerSummary {
    std::string description;  // e.g. "statsd tcp 127.0.0.1:8125"
    SourceStats stats;
    bool tcp = false;  // the connection counts below apply
    std::uint64_t deferredConnections = 0;
    std::uint64_t timedOutConnections = 0;
    std::uint64_t evictedConnections = 0;
    std::vector<ProblemCount> problems;
    std::string lastProblem;
    std::optional<FollowStats> follow;  // set for a followed access log (listen --follow)
};

struct ListenSummary {
    std::vector<ListenerSummary> listeners;
    double seconds = 0;
    std::string redisJson;   // fleet mode: the Redis sink's final counters, one JSON object
    std::string alertsJson;  // --alert: AlertRun::membersJson() (JSON report only)
};

enum class ReportEnd { Printed, Interrupted, WriteFailed };

ReportEnd printListenReport(std::FILE* out, const ListenSummary& summary, const KeyTotals& keys,
                            bool json, const std::function<bool()>& interrupted);

}  // namespace hitcounter::cli
