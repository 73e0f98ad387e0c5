// KeyedReplay: the per-key answers of `hitcounter-cli replay --top K` and `--uniques`, taken at
// the query times of a ReplayRun (ReplayRun::setOnAnswer), so they keep its streaming order: a
// query at T sees every hit with timestamp <= T that came before the first later hit.
//
// Not thread-safe; one owner thread.
//
// Output (csv()), per query time T in ascending order, W the window:
//  - Top: header time,rank,key,count; the K keys with the most hits in (T - W, T], rank from 1,
//    ties by key in ascending byte order; fewer rows when fewer keys had hits in the window.
//  - Uniques: header time,key,uniques; one row per key with a hit in the window, keys in
//    ascending byte order, then the row of key "*" for all keys together (distinct visitors
//    in the window; HyperLogLog estimates, near-exact below a thousand). Hits without a
//    visitor count as no visitor; hits without a key only in "*".
// Keys are written by csvField() (core/net/text_escape.h): control characters and bytes that
// are not UTF-8 as \xHH, '\' as "\\", and a key with ',' or '"' quoted as RFC 4180 says, so
// no key can add a row, a column or a terminal command, and distinct keys print distinctly.
// Memory: KeyedMonitor's (per key active in the last 2 W seconds) plus the output text.
//
// Example, W = 300, trace 1,home,u1 / 2,home,u2 / 3,about,u1, query 4:
//     Top, K = 5:  time,rank,key,count / 4,1,home,2 / 4,2,about,1
//     Uniques:     time,key,uniques / 4,about,1 / 4,home,2 / 4,*,2
#pragma once

#include <chrono>
#include <string>

#include "core/keyed/keyed_monitor.h"

namespace hitcounter::cli {

// The keyed monitor of a per-key table (KeyedReplay, MeasureReplay): the window is its only
// level, so per-key history is kept exactly as long as the window.
MonitorOptions windowOnlyMonitor(std::chrono::seconds window);

class KeyedReplay {
public:
    enum class Mode { Top, Uniques };

    // k is used by Mode::Top only.
    KeyedReplay(Mode mode, std::chrono::seconds window, std::size_t k);

    void add(const HitEvent& event);
    // Appends the rows of the query at `time`.
    void answer(Timestamp time);

    // The header and every row so far.
    const std::string& csv() const { return m_csv; }

private:
    Mode m_mode;
    std::size_t m_k;
    KeyedMonitor m_monitor;
    std::string m_csv;
};

}  // namespace hitcounter::cli
