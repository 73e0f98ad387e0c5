#include "ui/monitor/clock_skew_banner.h"

#include <QDateTime>
#include <QStringList>

#include "ui/common/theme.h"

namespace hitcounter::ui {

QString durationText(Timestamp seconds) {
    struct Unit {
        Timestamp seconds;
        const char* one;
        const char* many;
    };
    static const Unit kUnits[] = {{365 * 86400 + 86400 / 4, "year", "years"},
                                  {30 * 86400 + 86400 / 2, "month", "months"},
                                  {86400, "day", "days"},
                                  {3600, "h", "h"},
                                  {60, "min", "min"},
                                  {1, "s", "s"}};
    QStringList parts;
    Timestamp left = seconds < 0 ? -seconds : seconds;
    for (const Unit& unit : kUnits) {
        const Timestamp n = left / unit.seconds;
        if (n > 0 || (parts.isEmpty() && unit.seconds == 1)) {
            parts << QStringLiteral("%1 %2").arg(n).arg(
                QLatin1String(n == 1 ? unit.one : unit.many));
            left -= n * unit.seconds;
        } else if (!parts.isEmpty()) {
            break;  // "3 days 4 h", never "3 days 0 h 12 min"
        }
        if (parts.size() == 2) {
            break;
        }
    }
    return parts.join(QLatin1Char(' '));
}

QString clockSkewText(const QString& source, Timestamp newest, Timestamp now,
                      Timestamp windowSeconds) {
    const Timestamp behind = now - newest;
    if (behind < windowSeconds && -behind <= ClockSkewBanner::kAheadSeconds) {
        return {};
    }
    const auto date = [](Timestamp t) {
        return QDateTime::fromSecsSinceEpoch(t).toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"));
    };
    const QString times =
        ClockSkewBanner::tr("its time %1, the clock's %2").arg(date(newest), date(now));
    if (behind >= windowSeconds) {
        return ClockSkewBanner::tr(
                   "The newest line of %1 is %2 behind the clock (%3): its hits are older "
                   "than the %4 s window and count as too late. An old log, or a clock or "
                   "time zone that is off?")
            .arg(source, durationText(behind), times)
            .arg(windowSeconds);
    }
    return ClockSkewBanner::tr(
               "The newest line of %1 is %2 ahead of the clock (%3): its hits are counted at "
               "their own time, ahead of now. A clock or time zone that is off?")
        .arg(source, durationText(-behind), times);
}

ClockSkewBanner::ClockSkewBanner(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("clockSkewBanner"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    applyTheme(false);
    hide();
}

void ClockSkewBanner::observe(const QString& source, std::optional<Timestamp> newest, Timestamp now,
                              Timestamp windowSeconds) {
    const QString text = newest ? clockSkewText(source, *newest, now, windowSeconds) : QString();
    if (text != this->text()) {
        setText(text);
    }
    setVisible(!text.isEmpty());
}

void ClockSkewBanner::applyTheme(bool dark) {
    setStyleSheet(noticeStyleSheet(dark));
}

}  // namespace hitcounter::ui
