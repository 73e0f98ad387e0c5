#include <array>

#include "app/cli/command.h"

namespace hitcounter::cli {

namespace {
constexpr std::array kCommands{
    Command{"judge", "answer LeetCode 362 calls (two JSON lines on stdin)", runJudge},
    Command{"replay", "replay a trace CSV through counting policies", runReplay},
    Command{"listen", "count statsd (UDP/TCP) and Graphite (TCP) hits headless", runListen},
    Command{"gen", "write a deterministic simulated trace CSV", runGen},
    Command{"simulate", "run the simulator live, print the window count every second", runSimulate},
    Command{"limit", "replay a trace through per-key rate limiters (fixed, log, counter, bucket)",
            runLimit},
    Command{"query", "the fleet's count for a key, or its top K, read from Redis", runQuery},
    Command{"rebuild", "restore the fleet's counts in Redis from the instances' logs", runRebuild},
    Command{"fleet-sim", "simulate a fleet of instances on a real Redis and report what it costs",
            runFleetSim},
    Command{"teach", "a teaching lesson's steps as the view shows them (--json for scripts)",
            runTeach},
};
}  // namespace

std::span<const Command> commands() {
    return kCommands;
}

}  // namespace hitcounter::cli
