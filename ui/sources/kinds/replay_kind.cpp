#include "ui/sources/kinds/replay_kind.h"

#include <QSettings>

#include "core/io/hit_file_probe.h"
#include "core/sources/replay_source.h"
#include "ui/common/settings_reader.h"
#include "ui/plot/time_axis.h"
#include "ui/sources/kinds/speeds.h"
#include "ui/sources/running_source.h"
#include "ui/sources/source_spec.h"

namespace hitcounter::ui {

namespace {

// The running replay: its own time, and the speed and loop it takes while it plays (each when
// it changed); another file, key or format is a restart.
class ReplayRun final : public RunningSourceOf<ReplaySource> {
public:
    ReplayRun(std::unique_ptr<ReplaySource> replay, const ReplaySpec& spec, TimeAxisMode timeAxis,
              std::optional<int> logUtcOffset)
        : RunningSourceOf(std::move(replay), timeAxis, logUtcOffset), m_applied(spec) {}

    bool ownTime() const override { return true; }
    bool apply(const SourceSpec& spec) override {
        const auto* next = std::get_if<ReplaySpec>(&spec);
        if (next == nullptr || FileSourceSpec(*next) != FileSourceSpec(m_applied)) {
            return false;
        }
        if (next->speed != m_applied.speed) {
            typedSource().setSpeed(next->speed);
        }
        if (next->loop != m_applied.loop) {
            typedSource().setLoop(next->loop);
        }
        m_applied = *next;
        return true;
    }

private:
    ReplaySpec m_applied;  // what the replay runs with
};

}  // namespace

void ReplaySpec::save(QSettings& settings) const {
    saveFile(settings);
    settings.setValue(QStringLiteral("speed"), speed);
    settings.setValue(QStringLiteral("loop"), loop);
}

ReplaySpec ReplaySpec::load(SettingsReader& settings, const QString& /*kind*/) {
    ReplaySpec spec;
    spec.loadFile(settings);
    spec.speed = loadSpeed(settings, spec.speed);
    spec.loop = settings.flag(QStringLiteral("loop"), spec.loop);
    return spec;
}

std::unique_ptr<RunningSource> ReplaySpec::build(const BuildContext& context) const {
    ReplayOptions options;
    options.speed = speed;
    options.loop = loop;
    options.file = hitFileOptions();
    const std::filesystem::path path(file.toStdString());
    TimeAxisMode timeAxis = TimeAxisMode::Clock;
    std::optional<int> logUtcOffset;
    try {
        // A trace CSV of small seconds is drawn in trace time; an access log, or a trace whose
        // times are unix seconds (gen --start, recordings), in clock time.
        const HitFileProbe probe = probeHitFile(path, options.file);
        if (probe.format == HitFileFormat::Trace &&
            probe.firstTime.value_or(0) < kFirstDateSecond) {
            timeAxis = TimeAxisMode::Trace;
        }
        logUtcOffset = probe.utcOffset;
    } catch (const HitFileError&) {
        timeAxis = TimeAxisMode::Trace;  // check() names the problem
    }
    return std::make_unique<ReplayRun>(std::make_unique<ReplaySource>(context.clock, path, options),
                                       *this, timeAxis, logUtcOffset);
}

ReplaySpec ReplaySpec::forFile(const QString& opened) const {
    ReplaySpec spec = *this;
    spec.file = opened;
    spec.speed = 1.0;
    spec.logFormat.clear();  // detected from the file chosen
    return spec;
}

}  // namespace hitcounter::ui
