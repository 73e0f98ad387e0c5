// FleetWatch: what the fleet view must remember from one poll to the next: when Redis could
// not be reached (outages), whether it came back as another process (a restart: its run_id
// changed), and whether counts already read were lost.
//
// Not thread-safe; owned by the FleetPoller's thread (fleet_poll.h), which tells it every poll.
//
// Semantics:
//  - An outage runs from the first poll that did not reach Redis to the first that did again
//    (`to` 0 while it lasts). A run_id change between two polls that both reached Redis is an
//    outage of no length. At most kOutages are kept, the newest.
//  - Loss: a second's fleet count only grows (instances add hits, a resend is guarded), so a
//    second that reads fewer hits than it did at an earlier poll has lost them (a restart
//    without persistence, FLUSHALL, a wipe of the counting keys). For every second of the
//    window the watch keeps the most it has read; the loss is the sum of the shortfalls of the
//    seconds still in the window. It starts at the poll that finds it (`at`: the start of the
//    outage that poll ends, if any), with the window count of the poll before (`before`) and of
//    that poll (`after`); it ends when no second in the window is short any more (they left
//    the window, or `rebuild` restored them).
//
// Example (W = 300): polls read the window 6,846; Redis restarts empty; the next poll reads
//     3,423 hits in the window, and seconds read before are short: loss {before 6,846, after
//     3,423, lostHits 3,423}; 300 s later the short seconds have left the window: no loss.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/base/types.h"

namespace hitcounter::fleet {

struct FleetOutage {
    double from = 0;         // unix seconds: the first poll that did not reach Redis
    double to = 0;           // the first poll that reached it again; 0 while it lasts
    bool restarted = false;  // it came back as another process (run_id changed)
};

struct FleetLoss {
    double at = 0;       // unix seconds: when it happened (see above)
    Count before = 0;    // the fleet's window count at the poll before it was found
    Count after = 0;     // at the poll that found it
    Count lostHits = 0;  // hits missing now from seconds read before (still in the window)
    Timestamp lastShortSecond = 0;  // the newest such second: the loss leaves the window after it
    bool logsLeft = false;          // the instances' logs reach back before it: `rebuild` restores
};

class FleetWatch {
public:
    static constexpr std::size_t kOutages = 8;

    // A poll at unix time `at` that did not reach Redis.
    void unreachable(double at);
    // A poll at `at` that reached Redis: its run_id (empty: not read) and, when the fleet's
    // hits per second were read, those of (now - total.size(), now]. True when a loss was
    // found at this poll (the caller then asks whether logs are left: setLogsLeft()).
    bool reached(double at, const std::string& runId, const std::vector<Count>* total,
                 Timestamp now);
    void setLogsLeft(bool left);

    const std::vector<FleetOutage>& outages() const { return m_outages; }
    const std::optional<FleetLoss>& loss() const { return m_loss; }

private:
    std::vector<FleetOutage> m_outages;
    std::optional<FleetLoss> m_loss;
    std::map<Timestamp, Count> m_most;  // per second of the window: the most read
    std::string m_runId;
    std::optional<Count> m_lastWindow;  // the window count of the last poll that read it
};

}  // namespace hitcounter::fleet
