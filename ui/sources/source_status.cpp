#include "ui/sources/source_status.h"

#include "core/sources/source.h"
#include "core/sources/source_capabilities.h"

namespace hitcounter::ui {

QString sourceStateName(Source* source, bool viewsPaused) {
    if (source == nullptr) {
        return QStringLiteral("stopped");
    }
    const Seekable* seekable = source->seekable();
    if (seekable == nullptr) {
        return viewsPaused ? QStringLiteral("paused") : QStringLiteral("live");
    }
    const Pausable* pausable = source->pausable();
    const bool paused = pausable != nullptr && pausable->paused();
    switch (seekable->progress().state) {
        case ReplayState::Idle:
        case ReplayState::Loading:
            return paused ? QStringLiteral("paused") : QStringLiteral("loading");
        case ReplayState::Playing:
            return paused ? QStringLiteral("paused") : QStringLiteral("playing");
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
