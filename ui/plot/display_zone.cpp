#include "ui/plot/display_zone.h"

#include <cstdlib>

namespace hitcounter::ui {

std::optional<ZoneChoice> zoneChoiceFromName(const QString& name) {
    for (ZoneChoice choice : {ZoneChoice::Utc, ZoneChoice::Local, ZoneChoice::Log}) {
        if (zoneChoiceName(choice) == name) {
            return choice;
        }
    }
    return std::nullopt;
}

QString zoneChoiceName(ZoneChoice choice) {
    switch (choice) {
        case ZoneChoice::Utc:
            return QStringLiteral("utc");
        case ZoneChoice::Log:
            return QStringLiteral("log");
        case ZoneChoice::Local:
            break;
    }
    return QStringLiteral("local");
}

QDateTime DisplayZone::at(Timestamp t) const {
    return QDateTime::fromSecsSinceEpoch(qint64(t), zone);
}

QString DisplayZone::format(Timestamp t, const QString& pattern) const {
    return at(t).toString(pattern);
}

QString DisplayZone::offsetName(Timestamp t) const {
    const int offset = zone.offsetFromUtc(at(t));
    if (offset == 0) {
        return QStringLiteral("UTC");
    }
    const int minutes = std::abs(offset) / 60;
    return QStringLiteral("UTC%1%2:%3")
        .arg(offset < 0 ? QLatin1Char('-') : QLatin1Char('+'))
        .arg(minutes / 60, 2, 10, QLatin1Char('0'))
        .arg(minutes % 60, 2, 10, QLatin1Char('0'));
}

QString DisplayZone::label(Timestamp t) const {
    switch (choice) {
        case ZoneChoice::Utc:
            return QStringLiteral("UTC");
        case ZoneChoice::Log:
            return QObject::tr("log: %1").arg(offsetName(t));
        case ZoneChoice::Local:
            break;
    }
    return QObject::tr("local: %1 (%2)").arg(name, offsetName(t));
}

QString DisplayZone::shortLabel(Timestamp t) const {
    return choice == ZoneChoice::Local ? QObject::tr("local, %1").arg(offsetName(t))
                                       : offsetName(t);
}

DisplayZone resolveZone(ZoneChoice choice, std::optional<int> logOffsetSeconds) {
    DisplayZone shown;
    shown.choice = choice;
    switch (choice) {
        case ZoneChoice::Utc:
            shown.zone = QTimeZone::utc();
            shown.name = QStringLiteral("UTC");
            break;
        case ZoneChoice::Local:
            shown.zone = QTimeZone::systemTimeZone();
            shown.name = QString::fromUtf8(shown.zone.id());
            if (shown.name.isEmpty()) {
                shown.name = QObject::tr("system zone");
            }
            break;
        case ZoneChoice::Log:
            if (logOffsetSeconds) {
                shown.zone =
                    *logOffsetSeconds == 0 ? QTimeZone::utc() : QTimeZone(*logOffsetSeconds);
            } else {
                shown.zone = QTimeZone::utc();
                shown.note = QObject::tr(
                    "the source's times name no UTC offset (a trace CSV, statsd, the "
                    "simulator): shown in UTC");
            }
            shown.name = shown.offsetName(0);
            break;
    }
    return shown;
}

ZoneSetting& ZoneSetting::instance() {
    static ZoneSetting setting;
    return setting;
}

void ZoneSetting::setZone(const DisplayZone& zone) {
    if (zone == m_zone) {
        return;
    }
    m_zone = zone;
    Q_EMIT changed();
}

const DisplayZone& shownZone() {
    return ZoneSetting::instance().zone();
}

}  // namespace hitcounter::ui
