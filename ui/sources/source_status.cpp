#include "ui/sources/source_status.h"

#include <QLocale>

#include "core/sources/follow_source.h"
#include "core/sources/replay_source.h"

namespace hitcounter::ui {

QString followStatsText(const FollowSource& follow) {
    const QLocale locale;
    const SourceStats stats = follow.stats();
    const FollowStats moves = follow.followStats();
    const auto n = [&](std::uint64_t value) { return locale.toString(qulonglong(value)); };
    QString text = QObject::tr("lines %1 · hits %2 · bad %3 · rotations %4 · truncations %5")
                       .arg(n(stats.lines), n(stats.hits), n(stats.badLines), n(moves.rotations),
                            n(moves.truncations));
    if (moves.lostPartialLines > 0) {
        text += QObject::tr(" · partial lines lost %1").arg(n(moves.lostPartialLines));
    }
    if (stats.dropped > 0) {
        text += QObject::tr(" · dropped %1").arg(n(stats.dropped));
    }
    return text;
}

QString sourceStatusText(const Source& source, const FollowSource* follow) {
    QString text = QString::fromStdString(source.describe());
    if (follow != nullptr) {
        text += QStringLiteral(" · ") + followStatsText(*follow);
    }
    return text;
}

QString sourceStateName(const Source* source, const ReplaySource* replay, bool viewsPaused) {
    if (source == nullptr) {
        return QStringLiteral("stopped");
    }
    if (replay == nullptr) {
        return viewsPaused ? QStringLiteral("paused") : QStringLiteral("live");
    }
    switch (replay->progress().state) {
        case ReplayState::Idle:
        case ReplayState::Loading:
            return replay->paused() ? QStringLiteral("paused") : QStringLiteral("loading");
        case ReplayState::Playing:
            return replay->paused() ? QStringLiteral("paused") : QStringLiteral("playing");
        case ReplayState::Ended:
            return QStringLiteral("ended");
        case ReplayState::Stopped:
            return QStringLiteral("stopped");
        case ReplayState::Failed:
            break;
    }
    return QStringLiteral("failed");
}

}  // namespace hitcounter::ui
