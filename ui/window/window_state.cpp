#include "ui/window/window_state.h"

#include "ui/common/number_text.h"
#include "ui/monitor/overload_banner.h"
#include "ui/monitor/ring_histogram.h"
#include "ui/plot/display_zone.h"
#include "ui/sources/source_session.h"
#include "ui/window/main_window.h"
#include "ui/window/view_fan_out.h"

namespace hitcounter::ui {

QStringList windowWarnings(const MainWindow& window) {
    QStringList list;
    if (const QString error = window.errorText(); !error.isEmpty()) {
        list << error;
    }
    if (window.overloadBanner()->isVisibleTo(&window)) {
        list << window.overloadBanner()->text();
    }
    if (const Source* source = window.session()->source()) {
        const SourceStats stats = source->stats();
        if (stats.badLines > 0) {
            list << MainWindow::tr("%1 bad lines skipped").arg(exactCount(stats.badLines));
        }
    }
    if (!shownZone().note.isEmpty()) {
        list << MainWindow::tr("time zone: %1").arg(shownZone().note);
    }
    return list;
}

QVariantMap windowSettingsUsed(const MainWindow& window) {
    const EngineSnapshot& snapshot = window.views().snapshot();
    QVariantMap map = window.session()->settingsUsed(window.paused());
    map.insert(QStringLiteral("time_zone"), shownZone().label(snapshot.head));
    map.insert(QStringLiteral("time_zone_choice"), zoneChoiceName(window.timeZone()));
    map.insert(QStringLiteral("bucket_seconds"), window.ringHistogram()->bucketSeconds());
    map.insert(QStringLiteral("theme"), window.themeName());
    QStringList policies;
    for (const PolicyState& p : snapshot.policies) {
        policies << QString::fromStdString(p.name);
    }
    map.insert(QStringLiteral("policies"), policies);
    return map;
}

}  // namespace hitcounter::ui
