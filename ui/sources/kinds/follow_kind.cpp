#include "ui/sources/kinds/follow_kind.h"

#include <QLocale>
#include <QObject>
#include <QSettings>
#include <vector>

#include "core/io/hit_file_probe.h"
#include "core/sources/follow_set.h"
#include "ui/common/settings_reader.h"
#include "ui/sources/running_source.h"

namespace hitcounter::ui {

namespace {

// The running follower: its figures, e.g. "lines 1,204 · hits 1,200 · bad 4 · rotations 1 ·
// truncations 0", after its description in the status bar, and the newest time it read. Reads
// only the follower's thread-safe stats.
class FollowRun final : public RunningSourceOf<FollowSet> {
public:
    FollowRun(std::unique_ptr<FollowSet> follow, std::optional<int> logUtcOffset)
        : RunningSourceOf(std::move(follow), TimeAxisMode::Clock, logUtcOffset) {}

    QString figures() const override {
        const QLocale locale;
        const FollowSet& follow = typedSource();
        const SourceStats stats = follow.stats();
        const FollowStats moves = follow.followStats();
        const auto n = [&](std::uint64_t value) { return locale.toString(qulonglong(value)); };
        QString text = QObject::tr("lines %1 · hits %2 · bad %3 · rotations %4 · truncations %5")
                           .arg(n(stats.lines), n(stats.hits), n(stats.badLines),
                                n(moves.rotations), n(moves.truncations));
        if (moves.lostPartialLines > 0) {
            text += QObject::tr(" · partial lines lost %1").arg(n(moves.lostPartialLines));
        }
        if (stats.dropped > 0) {
            text += QObject::tr(" · dropped %1").arg(n(stats.dropped));
        }
        return text;
    }
    QString statusText() const override {
        return RunningSource::statusText() + QStringLiteral(" · ") + figures();
    }
    std::optional<Timestamp> newestTime() const override { return typedSource().newestTime(); }
};

}  // namespace

void FollowSpec::save(QSettings& settings) const {
    saveFile(settings);
    settings.setValue(QStringLiteral("fromStart"), fromStart);
}

FollowSpec FollowSpec::load(SettingsReader& settings, const QString& /*kind*/) {
    FollowSpec spec;
    spec.loadFile(settings);
    spec.fromStart = settings.flag(QStringLiteral("fromStart"), spec.fromStart);
    return spec;
}

std::unique_ptr<RunningSource> FollowSpec::build(const BuildContext& /*context*/) const {
    FollowOptions options;
    options.format = hitFileOptions();
    options.fromStart = fromStart;
    std::vector<std::filesystem::path> paths;
    for (const QString& each : files()) {
        paths.emplace_back(each.toStdString());
    }
    std::optional<int> logUtcOffset;
    try {
        logUtcOffset = probeHitFile(paths.front(), options.format).utcOffset;
    } catch (const HitFileError&) {
        // empty so far, or not a log: check() says which
    }
    return std::make_unique<FollowRun>(std::make_unique<FollowSet>(paths, options), logUtcOffset);
}

}  // namespace hitcounter::ui
