// TimeZoneChoice: the zone every time is shown in, as the user chose it (UTC, local, or the
// log's own offset: display_zone.h), resolved for the running source and shown everywhere:
// the process-wide ZoneSetting (every time axis and table), the status bar's zone button and
// the replay bar. Remembered as "view/timeZone" (utc, local or log; default local).
//
// GUI thread only. apply() again whenever the running source changes (a new log offset).
// Example: TimeZoneChoice zone(session, views, status, replayBar); zone.set(ZoneChoice::Utc);
#pragma once

#include "ui/plot/display_zone.h"

class QSettings;

namespace hitcounter::ui {

class ReplayBar;
class SettingsReader;
class SourceSession;
class ViewFanOut;
class WindowStatus;

class TimeZoneChoice {
public:
    TimeZoneChoice(const SourceSession& session, const ViewFanOut& views, WindowStatus& status,
                   ReplayBar& replayBar);

    ZoneChoice choice() const { return m_choice; }
    // Chooses `choice` and applies it.
    void set(ZoneChoice choice);
    // Resolves the choice for the running source and shows it everywhere.
    void apply();

    void saveSettings(QSettings& settings) const;
    void restoreSettings(SettingsReader& settings);

private:
    const SourceSession& m_session;
    const ViewFanOut& m_views;
    WindowStatus& m_status;
    ReplayBar& m_replayBar;
    ZoneChoice m_choice = ZoneChoice::Local;
};

}  // namespace hitcounter::ui
