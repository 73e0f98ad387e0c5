// MeasureReplay: the answers of `hitcounter-cli replay --bytes` and `--latency` (docs/cli.md,
// docs/measures.md), taken at the query times of a ReplayRun (ReplayRun::setOnAnswer) as
// KeyedReplay's are: a query at T sees every hit with timestamp <= T that came before the first
// later hit.
//
// Not thread-safe; one owner thread.
//
// Per query time T in ascending order, W the window, one row per key with a hit in (T - W, T],
// keys in ascending byte order, then the row of key "*" for all keys together (hits without a
// key count only there):
//  - Bytes: header time,key,bytes: the bytes the window's hits sent (exact). Empty when the
//    window has hits and none of them named its bytes; "*" of an empty window is 0.
//  - Latency: header time,key,p50,p90,p99,max, in seconds: the nearest-rank quantiles of the
//    window's response times (within 1 %, quantile_sketch.h; six significant digits) and the
//    largest (exact: the shortest text that reads back as the float recorded). Empty when no
//    hit in the window named a response time.
// Keys are written by csvField() (core/net/text_escape.h), as KeyedReplay writes them.
// writeJson() writes the same answers as {"keys": [...], "time": T} objects (docs/cli.md).
// Memory: KeyedMonitor's (per key active in the last W seconds, with its measures) plus the
// answers kept for output.
//
// Example, W = 300, hits (1, "/a", 100 bytes, 0.2 s), (2, "/b", 50 bytes, 0.4 s), query 2:
//     Bytes:   time,key,bytes / 2,/a,100 / 2,/b,50 / 2,*,150
//     Latency: time,key,p50,p90,p99,max / 2,/a,0.2,0.2,0.2,0.2 / 2,/b,0.4,... / 2,*,0.2,0.4,0.4,0.4
//              (quantiles within 1 %: 0.199987 for 0.2)
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "app/cli/json_writer.h"
#include "core/keyed/keyed_monitor.h"

namespace hitcounter::cli {

class MeasureReplay {
public:
    enum class Measure { Bytes, Latency };

    MeasureReplay(Measure measure, std::chrono::seconds window);

    void add(const HitEvent& event);
    // Takes the answers of the query at `time`.
    void answer(Timestamp time);

    Measure measure() const { return m_measure; }
    // Some hit so far named the measure (its bytes, or its response time).
    bool named() const { return m_named; }
    // The header and every row so far.
    std::string csv() const;
    // The answers as a JSON array of {"keys": [...], "time": T}.
    void writeJson(JsonWriter& out) const;

private:
    struct Row {
        std::string key;  // "*": all keys
        Count hits = 0;   // in the window
        MeasuresSummary measures;
    };
    struct Answer {
        Timestamp time = 0;
        std::vector<Row> rows;
    };

    Measure m_measure;
    KeyedMonitor m_monitor;
    bool m_named = false;
    std::vector<Answer> m_answers;
};

}  // namespace hitcounter::cli
