// ReplayProgress: where a replay of recorded hits stands (loading, playing, ended...), its rows
// and the span of times they cover, and how far its seeks have got. A value: ReplaySource
// (replay_source.h) fills it, the Seekable capability (source_capabilities.h) hands it out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/types.h"

namespace hitcounter {

enum class ReplayState { Idle, Loading, Playing, Ended, Stopped, Failed };
// "idle", "loading", "playing", "ended", "stopped", "failed".
std::string_view replayStateName(ReplayState state);

struct ReplayProgress {
    ReplayState state = ReplayState::Idle;
    std::uint64_t bytesRead = 0;   // while loading, then the file size
    std::uint64_t bytesTotal = 0;  // the file size
    std::uint64_t rows = 0;        // good rows found by the load
    std::uint64_t badRows = 0;
    std::uint64_t filtered = 0;           // lines the filter refused (HitFileOptions::filter)
    std::optional<Timestamp> first;       // the smallest time in the trace, once loaded
    std::optional<Timestamp> last;        // the largest
    std::uint64_t loops = 0;              // completed passes when looping
    std::uint64_t seeksApplied = 0;       // the epoch of the last seek whose rebuild has been sent
    std::optional<Timestamp> seekTarget;  // while a seek's rebuild is being sent: its target
    Timestamp seekReached = 0;            // how far that rebuild has got (trace time)
    std::optional<Timestamp> seekResumedAt;  // the last seek's checkpoint head, if it had one
    std::string firstBadRow;                 // "FILE:LINE: problem" of the first bad row, if any
    // A gzip file cut short (HitFile::truncatedAtLine): the first line it lost, the file
    // (with several files, the first one cut) and its rows before the cut, which are replayed.
    std::optional<std::uint64_t> truncatedAtLine;
    std::string truncatedFile;
    std::uint64_t truncatedFileRows = 0;
    std::string error;  // why the state is Failed
};

}  // namespace hitcounter
