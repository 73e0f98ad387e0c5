#include "ui/sources/time_target.h"

#include <QObject>
#include <QRegularExpression>
#include <QTimeZone>
#include <cstdlib>
#include <optional>

namespace hitcounter::ui {

namespace {

// Far beyond any trace (about 31,000 years), so that sums cannot overflow.
constexpr qint64 kMaxSeconds = qint64{1} << 40;

constexpr qint64 kNotADuration = -1;

// "15m", "1h30m", "90" (seconds; a bare number only alone) in seconds; kNotADuration if not
// (no std::optional: GCC 12 warns it may be read uninitialized).
qint64 durationOf(const QString& text) {
    static const QRegularExpression part(QStringLiteral("(\\d{1,12})\\s*([smhd]?)\\s*"));
    qint64 seconds = 0;
    qsizetype at = 0;
    while (at < text.size()) {
        const QRegularExpressionMatch match =
            part.match(text, at, QRegularExpression::NormalMatch,
                       QRegularExpression::AnchorAtOffsetMatchOption);
        if (!match.hasMatch()) {
            return kNotADuration;
        }
        const QString unit = match.captured(2);
        if (unit.isEmpty() && (at > 0 || match.capturedEnd() < text.size())) {
            return kNotADuration;  // "1h30": minutes or seconds? say which
        }
        const qint64 scale = unit == QLatin1String("d")   ? 86400
                             : unit == QLatin1String("h") ? 3600
                             : unit == QLatin1String("m") ? 60
                                                          : 1;
        seconds += match.captured(1).toLongLong() * scale;
        if (seconds > kMaxSeconds) {
            return kNotADuration;
        }
        at = match.capturedEnd();
    }
    return at > 0 ? seconds : kNotADuration;
}

std::optional<QTime> clockTimeOf(const QString& text) {
    for (const QString& pattern : {QStringLiteral("H:mm:ss"), QStringLiteral("H:mm")}) {
        const QTime time = QTime::fromString(text, pattern);
        if (time.isValid()) {
            return time;
        }
    }
    return std::nullopt;
}

}  // namespace

std::variant<Timestamp, QString> readTimeTarget(const QString& typed, Timestamp now,
                                                bool clockTimes, const DisplayZone& zone) {
    const QString text = typed.trimmed();
    const QString expected =
        clockTimes ? QObject::tr("type a time such as 06:55, 2009-04-22 06:55:30, -15m or +30s")
                   : QObject::tr(
                         "type a trace time in seconds (1200) or a step such as -5m "
                         "or +30s");
    const auto problem = [&] {
        return QObject::tr("cannot go to '%1': %2").arg(text.left(40), expected);
    };
    if (text.startsWith(QLatin1Char('+')) || text.startsWith(QLatin1Char('-'))) {
        const qint64 step = durationOf(text.mid(1).trimmed());
        if (step == kNotADuration) {
            return problem();
        }
        return text.startsWith(QLatin1Char('+')) ? now + step : now - step;
    }
    static const QRegularExpression seconds(QStringLiteral("^\\d{1,12}$"));
    if (seconds.match(text).hasMatch()) {
        return Timestamp(text.toLongLong());
    }
    if (!clockTimes) {
        return problem();
    }
    if (const auto time = clockTimeOf(text)) {
        return Timestamp(QDateTime(zone.at(now).date(), *time, zone.zone).toSecsSinceEpoch());
    }
    static const QRegularExpression dated(QStringLiteral(
        "^(\\d{4}-\\d{2}-\\d{2})[ T](\\d{1,2}:\\d{2}(?::\\d{2})?)\\s*(Z|[+-]\\d{2}:?\\d{2})?$"));
    const QRegularExpressionMatch match = dated.match(text);
    if (!match.hasMatch()) {
        return problem();
    }
    const QDate date = QDate::fromString(match.captured(1), QStringLiteral("yyyy-MM-dd"));
    const auto time = clockTimeOf(match.captured(2));
    if (!date.isValid() || !time) {
        return problem();
    }
    QTimeZone in = zone.zone;
    if (const QString offset = match.captured(3); !offset.isEmpty()) {
        QString digits = offset.mid(1);
        digits.remove(QLatin1Char(':'));
        const int east = offset == QLatin1String("Z")
                             ? 0
                             : (digits.left(2).toInt() * 3600 + digits.mid(2).toInt() * 60) *
                                   (offset.startsWith(QLatin1Char('-')) ? -1 : 1);
        if (std::abs(east) > 14 * 3600) {
            return problem();  // no zone is that far from UTC
        }
        in = QTimeZone(east);
    }
    return Timestamp(QDateTime(date, *time, in).toSecsSinceEpoch());
}

}  // namespace hitcounter::ui
