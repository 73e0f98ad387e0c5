// A small program the crash-safety test runs and kills: it records a simulator to FILE.
//   recording_crash_helper FILE SECONDS   records SECONDS simulated seconds, stops, exits 0
//   recording_crash_helper FILE forever   records until killed, printing "flushed BYTES"
//                                         each time more bytes reached the file
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "core/sources/recording_source.h"
#include "core/sources/simulator_source.h"
#include "core/time/wall_clock.h"

using namespace hitcounter;

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s FILE SECONDS|forever\n", argv[0]);
        return 2;
    }
    const bool forever = std::strcmp(argv[2], "forever") == 0;
    WallClock wall;
    SimulatorOptions options{.traffic = {.pattern = TrafficPattern::Poisson, .rate = 2000},
                             .start = 1000,
                             .speed = forever ? 100.0 : VirtualClock::kAsFastAsPossible};
    if (!forever) {
        options.duration = std::chrono::seconds(std::stoll(argv[2]));
    }
    BatchQueue queue;
    RecordingSource recording(std::make_unique<SimulatorSource>(wall, options), argv[1], wall);
    recording.start(queue);
    std::uint64_t reported = 0;
    while (recording.running()) {
        queue.popFor(std::chrono::milliseconds(50));
        queue.drain();
        const std::uint64_t flushed = recording.recording().bytesFlushed;
        if (forever && flushed != reported) {
            reported = flushed;
            std::printf("flushed %llu\n", static_cast<unsigned long long>(flushed));
            std::fflush(stdout);
        }
    }
    recording.stop();
    return recording.recording().finished ? 0 : 1;
}
