#include "ui/sources/kinds/replay_kind.h"

#include <QSettings>
#include <vector>

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

QStringList ReplaySpec::keyNames() {
    return accessLogKeyNames() << sourceKey();
}

void ReplaySpec::save(QSettings& settings) const {
    saveFile(settings);
    settings.setValue(QStringLiteral("speed"), speed);
    settings.setValue(QStringLiteral("loop"), loop);
}

ReplaySpec ReplaySpec::load(SettingsReader& settings, const QString& /*kind*/) {
    ReplaySpec spec;
    spec.loadFile(settings, keyNames());
    spec.speed = loadSpeed(settings, spec.speed);
    spec.loop = settings.flag(QStringLiteral("loop"), spec.loop);
    return spec;
}

std::unique_ptr<RunningSource> ReplaySpec::build(const BuildContext& context) const {
    ReplayOptions options;
    options.speed = speed;
    options.loop = loop;
    // Keyed by source, each line's own fields only filter it.
    options.keyBySource = key == sourceKey();
    FileSourceSpec lines = *this;
    if (options.keyBySource) {
        lines.key = accessLogKeyNames().front();
    }
    options.file = lines.hitFileOptions();
    const std::filesystem::path path(file.toStdString());
    std::vector<std::filesystem::path> paths;
    for (const QString& each : files()) {
        paths.emplace_back(each.toStdString());
    }
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
    return std::make_unique<ReplayRun>(
        std::make_unique<ReplaySource>(context.clock, std::move(paths), options), *this, timeAxis,
        logUtcOffset);
}

ReplaySpec ReplaySpec::forFiles(const QStringList& opened) const {
    ReplaySpec spec = *this;
    spec.file = opened.front();
    spec.moreFiles = opened.mid(1);
    if (spec.moreFiles.isEmpty() && spec.key == sourceKey()) {
        spec.key = accessLogKeyNames().front();
    }
    spec.speed = 1.0;
    spec.logFormat.clear();  // detected from the file chosen
    return spec;
}

}  // namespace hitcounter::ui
