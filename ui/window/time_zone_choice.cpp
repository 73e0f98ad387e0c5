#include "ui/window/time_zone_choice.h"

#include <QDateTime>
#include <QSettings>

#include "ui/common/settings_reader.h"
#include "ui/sources/replay_bar.h"
#include "ui/sources/source_session.h"
#include "ui/window/view_fan_out.h"
#include "ui/window/window_status.h"

namespace hitcounter::ui {

namespace {
const QString kTimeZoneKey = QStringLiteral("view/timeZone");
}  // namespace

TimeZoneChoice::TimeZoneChoice(const SourceSession& session, const ViewFanOut& views,
                               WindowStatus& status, ReplayBar& replayBar)
    : m_session(session), m_views(views), m_status(status), m_replayBar(replayBar) {}

void TimeZoneChoice::set(ZoneChoice choice) {
    m_choice = choice;
    apply();
}

void TimeZoneChoice::apply() {
    ZoneSetting::instance().setZone(resolveZone(m_choice, m_session.logUtcOffset()));
    // The zone's name at the time shown (a local zone's offset changes with daylight saving).
    const EngineSnapshot& shown = m_views.snapshot();
    const Timestamp at = shown.empty ? Timestamp(QDateTime::currentSecsSinceEpoch()) : shown.head;
    m_status.showZone(shownZone(), m_choice, at);
    m_replayBar.update();
}

void TimeZoneChoice::saveSettings(QSettings& settings) const {
    settings.setValue(kTimeZoneKey, zoneChoiceName(m_choice));
}

void TimeZoneChoice::restoreSettings(SettingsReader& settings) {
    QStringList names;
    for (ZoneChoice zone : {ZoneChoice::Utc, ZoneChoice::Local, ZoneChoice::Log}) {
        names << zoneChoiceName(zone);
    }
    const QString name = settings.oneOf(kTimeZoneKey, zoneChoiceName(ZoneChoice::Local), names);
    set(zoneChoiceFromName(name).value_or(ZoneChoice::Local));
}

}  // namespace hitcounter::ui
