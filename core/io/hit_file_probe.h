// probeHitFile: what a file of recorded hits is, read from its first good rows before it is
// replayed or followed: its format, the time of its first row and the UTC offset its times are
// written with. The GUI probes a file before it stops the running source (a file that fails
// here never replaces a good replay) and to choose the time axis (a trace CSV whose times are
// unix seconds is drawn in clock time) and the zone "log" (docs/gui.md, "Time zones").
//
// Pure function of the file; thread-safe. Cost: opening the file (HitFile reads its first
// 64 KiB for detection) and at most kMaxProbeRows rows.
//
// Example: probeHitFile("access.log", {}) on `… [01/Mar/2009:18:52:07 +1200] …` lines:
//          {format Combined, description "combined log format", firstTime 1235890327,
//           utcOffset 43200}
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "core/base/types.h"
#include "core/io/hit_file.h"

namespace hitcounter {

struct HitFileProbe {
    HitFileFormat format = HitFileFormat::Auto;
    std::string description;  // HitFile::description(), e.g. "combined log format (gzip)"
    std::optional<Timestamp> firstTime;  // the first good row's time; nullopt: none found
    std::optional<int> utcOffset;        // its offset (seconds east of UTC); nullopt: names none
};

inline constexpr std::uint64_t kMaxProbeRows = 64;

// Throws HitFileError (HitFile's message) when the file cannot be opened or is no known format.
// An empty file, or one whose first kMaxProbeRows rows are all bad, has no firstTime.
HitFileProbe probeHitFile(const std::filesystem::path& path, const HitFileOptions& options);

}  // namespace hitcounter
