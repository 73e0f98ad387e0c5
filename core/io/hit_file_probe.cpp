#include "core/io/hit_file_probe.h"

namespace hitcounter {

HitFileProbe probeHitFile(const std::filesystem::path& path, const HitFileOptions& options) {
    HitFile file(path, options);
    HitFileProbe probe;
    probe.format = file.format();
    probe.description = file.description();
    TraceRow row;
    for (std::uint64_t rows = 0; rows < kMaxProbeRows; ++rows) {
        const TraceStatus status = file.next(row);
        if (status == TraceStatus::End || (status == TraceStatus::BadRow && file.error().fatal)) {
            break;
        }
        if (status == TraceStatus::Row) {
            probe.firstTime = row.event.time;
            probe.utcOffset = file.utcOffset();
            break;
        }
    }
    return probe;
}

}  // namespace hitcounter
