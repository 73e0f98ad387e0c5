// DisplayZone: the time zone every date and clock time on screen is shown in (time axes,
// crosshair readouts, the replay bar, status texts, alerts, CSV exports, the state JSON): UTC,
// the system's local zone, or the log's own UTC offset, as its lines write it
// (`--time-zone utc|local|log`, remembered; default local). Every place that shows a time
// names the zone ("clock time (UTC+12:00)", "2009-03-01 18:52:07 UTC+12:00").
//
// GUI thread only. The application shows one zone at a time (as QLocale::setDefault holds one
// locale): ZoneSetting::instance() holds it and emits changed() when it changes, so that the
// time axes (time_axis.h) retitle and relabel themselves.
//
// "log" needs a source whose times carry an offset: an access log's `[01/Mar/2009:18:52:07
// +1200]` or ISO `…+12:00` (the offset of its first line, core/io/hit_file_probe.h). A source
// without one (a trace CSV, statsd, the simulator) shows UTC then, and the zone's note says
// why.
//
// Example: resolveZone(ZoneChoice::Log, 43200).format(1235890327) == "2009-03-01 18:52:07"
//          resolveZone(ZoneChoice::Log, 43200).name == "UTC+12:00"
#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimeZone>
#include <optional>

#include "core/base/types.h"

namespace hitcounter::ui {

enum class ZoneChoice { Utc, Local, Log };
// "utc", "local", "log"; nullopt for anything else.
std::optional<ZoneChoice> zoneChoiceFromName(const QString& name);
QString zoneChoiceName(ZoneChoice choice);

struct DisplayZone {
    ZoneChoice choice = ZoneChoice::Local;
    QTimeZone zone = QTimeZone::systemTimeZone();
    QString name;  // "UTC", "UTC+12:00", or the local zone's id ("Europe/Berlin")
    QString note;  // why the zone is not the one chosen; empty if it is

    // `t` (unix seconds) in this zone.
    QDateTime at(Timestamp t) const;
    // `t` written with a QDateTime pattern, default "yyyy-MM-dd hh:mm:ss".
    QString format(Timestamp t,
                   const QString& pattern = QStringLiteral("yyyy-MM-dd hh:mm:ss")) const;
    // The zone's offset at `t` as "UTC", "UTC+12:00", "UTC-07:00".
    QString offsetName(Timestamp t) const;
    // What the screen states: "UTC", "log: UTC+12:00", "local: Europe/Berlin (UTC+01:00)".
    QString label(Timestamp t) const;
    // For an axis title and the status bar: "UTC", "UTC+12:00", "local, UTC+01:00".
    QString shortLabel(Timestamp t) const;
    bool operator==(const DisplayZone& other) const {
        return choice == other.choice && zone == other.zone && note == other.note;
    }
};

// The zone to show for `choice`; `logOffsetSeconds`: the UTC offset the source's times are
// written with (nullopt: the source names none).
DisplayZone resolveZone(ZoneChoice choice, std::optional<int> logOffsetSeconds);

class ZoneSetting : public QObject {
    Q_OBJECT
public:
    static ZoneSetting& instance();
    const DisplayZone& zone() const { return m_zone; }
    // Emits changed() if the zone differs.
    void setZone(const DisplayZone& zone);

Q_SIGNALS:
    void changed();

private:
    ZoneSetting() = default;
    DisplayZone m_zone = resolveZone(ZoneChoice::Local, std::nullopt);
};

// The zone shown now (ZoneSetting::instance().zone()).
const DisplayZone& shownZone();

}  // namespace hitcounter::ui
