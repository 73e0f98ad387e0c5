#include "ui/plot/time_axis.h"

#include <QDateTime>
#include <QLocale>
#include <algorithm>
#include <cmath>

#include "ui/plot/display_zone.h"

namespace hitcounter::ui {

namespace {

constexpr double kDay = 86400;
// Clock steps people count in: seconds, minutes, hours, days, weeks.
constexpr double kCalendarSteps[] = {
    1,        2,        5,         10,        15,        30,         60,        120,   300,
    600,      900,      1800,      3600,      7200,      10800,      21600,     43200, kDay,
    2 * kDay, 7 * kDay, 14 * kDay, 30 * kDay, 91 * kDay, 182 * kDay, 365 * kDay};

enum class Title { Full, Short, None };
const char* const kTitleProperty = "hitcounterTimeTitle";  // the Title, while in clock mode
const char* const kClockProperty = "hitcounterClockAxis";

// The smallest step of 1, 2 or 5 x 10^n whole seconds that is at least `raw`.
double decimalStep(double raw) {
    if (raw <= 1) {
        return 1;
    }
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    const double mantissa = raw / decade;
    return decade * (mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10);
}

// The smallest calendar step that is at least `raw`.
double calendarStep(double raw) {
    for (double step : kCalendarSteps) {
        if (step >= raw) {
            return step;
        }
    }
    return std::ceil(raw / (365 * kDay)) * 365 * kDay;
}

// The largest step that still puts two ticks in a pass of `span` seconds.
double stepWithinPass(double step, double span, bool calendar) {
    if (step <= span / 2) {
        return step;
    }
    double best = 1;
    if (calendar) {
        for (double s : kCalendarSteps) {
            if (s <= span / 2) {
                best = s;
            }
        }
        return best;
    }
    const double decade = std::pow(10.0, std::floor(std::log10(std::max(1.0, span / 2))));
    return span / 2 >= 5 * decade ? 5 * decade : span / 2 >= 2 * decade ? 2 * decade : decade;
}

// "clock time (UTC+12:00)"; a narrow plot's axis names only the zone: "local, UTC+01:00".
QString clockTitle(Title title) {
    const QString zone = shownZone().shortLabel(QDateTime::currentSecsSinceEpoch());
    return title == Title::Short ? zone : QObject::tr("clock time (%1)").arg(zone);
}

// The ticks and labels of every time axis (see the header).
class TimeTicker : public QCPAxisTicker {
public:
    TimeTicker(TimeAxisMode mode, std::optional<TraceWrap> wrap, bool unit, double minimumStep)
        : m_clock(mode == TimeAxisMode::Clock),
          m_wrap(wrap),
          m_unit(unit),
          m_minimumStep(minimumStep) {}

    std::optional<TraceWrap> wrap() const { return m_wrap; }

protected:
    double getTickStep(const QCPRange& range) override {
        const double raw = std::max(m_minimumStep, range.size() / std::max(1, tickCount()));
        return m_clock ? calendarStep(raw) : decimalStep(raw);
    }

    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        // Round times of the zone shown: its offset shifts the grid (13:00 local, not UTC).
        const double offset = m_clock ? double(shownZone().zone.offsetFromUtc(
                                            shownZone().at(Timestamp(std::llround(range.lower)))))
                                      : 0.0;
        const auto firstTickFrom = [&](double from, double step) {
            return std::ceil((from + offset) / step) * step - offset;
        };
        QVector<double> ticks;
        m_step = tickStep;
        m_rangeSize = range.size();
        if (!m_wrap) {
            for (double t = firstTickFrom(range.lower, tickStep);
                 t <= range.upper && ticks.size() < 10000; t += tickStep) {
                ticks.push_back(t);
            }
            return ticks;
        }
        const double first = double(m_wrap->first);
        const double span = double(std::max<Timestamp>(1, m_wrap->span));
        const double step = stepWithinPass(tickStep, span, m_clock);
        m_step = step;
        m_rangeSize = std::min(range.size(), span);
        for (double t = firstTickFrom(range.lower, step); t < first && t <= range.upper;
             t += step) {
            ticks.push_back(t);  // before the trace: plain times
        }
        const double firstPass = std::max(0.0, std::floor((range.lower - first) / span));
        const double lastPass = std::floor((range.upper - first) / span);
        for (double pass = firstPass; pass <= lastPass && ticks.size() < 1000; ++pass) {
            for (double t = firstTickFrom(first, step); t < first + span; t += step) {
                const double at = t + pass * span;
                if (at >= range.lower && at <= range.upper) {
                    ticks.push_back(at);
                }
            }
        }
        // A short trace under a long axis (3 s under a 5 min window) has many passes: keep
        // every n-th tick, so that no more than twice the tick count stand on the axis.
        const qsizetype most = 2 * std::max(1, tickCount());
        if (ticks.size() > most) {
            const qsizetype every = (ticks.size() + most - 1) / most;
            QVector<double> thinned;
            for (qsizetype i = 0; i < ticks.size(); i += every) {
                thinned.push_back(ticks[i]);
            }
            ticks = thinned;
        }
        return ticks;
    }

    QVector<QString> createLabelVector(const QVector<double>& ticks, const QLocale& locale, QChar,
                                       int) override {
        QString pattern;
        if (m_clock) {
            const bool dated = m_rangeSize >= kDay;
            pattern = m_step >= kDay ? QStringLiteral("yyyy-MM-dd")
                      : m_step >= 60
                          ? (dated ? QStringLiteral("MM-dd hh:mm") : QStringLiteral("hh:mm"))
                      : dated ? QStringLiteral("MM-dd hh:mm:ss")
                              : QStringLiteral("hh:mm:ss");
        }
        QVector<QString> labels;
        labels.reserve(ticks.size());
        for (double tick : ticks) {
            const double t = m_wrap ? wrapTraceTime(tick, *m_wrap) : tick;
            const qint64 second = qint64(std::llround(t));
            if (m_clock) {
                labels.push_back(shownZone().format(second, pattern));
            } else {
                labels.push_back(locale.toString(second) +
                                 (m_unit ? QStringLiteral(" s") : QString()));
            }
        }
        return labels;
    }

private:
    bool m_clock;
    std::optional<TraceWrap> m_wrap;
    bool m_unit;
    double m_minimumStep;
    double m_step = 1;
    double m_rangeSize = 0;
};

// Retitles and replots a clock axis when the zone shown changes; one per axis.
class ZoneFollower : public QObject {
public:
    explicit ZoneFollower(QCPAxis& axis) : QObject(&axis) {
        setObjectName(QStringLiteral("zoneFollower"));
        connect(&ZoneSetting::instance(), &ZoneSetting::changed, this, [&axis] {
            if (!axis.property(kClockProperty).toBool()) {
                return;
            }
            const auto title = Title(axis.property(kTitleProperty).toInt());
            if (title != Title::None) {
                axis.setLabel(clockTitle(title));
            }
            axis.parentPlot()->replot(QCustomPlot::rpQueuedReplot);
        });
    }
};

void applyTimeAxis(QCPAxis& axis, TimeAxisMode mode, std::optional<TraceWrap> wrap, Title title,
                   double minimumStep) {
    const bool clock = mode == TimeAxisMode::Clock;
    const int tickCount = axis.ticker() ? axis.ticker()->tickCount() : 5;
    auto ticker =
        QSharedPointer<TimeTicker>::create(mode, wrap, !clock && title == Title::None, minimumStep);
    ticker->setTickCount(tickCount);
    axis.setTicker(ticker);
    axis.setProperty(kClockProperty, clock);
    axis.setProperty(kTitleProperty, int(title));
    if (axis.findChild<QObject*>(QStringLiteral("zoneFollower"), Qt::FindDirectChildrenOnly) ==
        nullptr) {
        new ZoneFollower(axis);
    }
    switch (title) {
        case Title::None:
            axis.setLabel(QString());
            break;
        case Title::Full:
        case Title::Short:
            axis.setLabel(clock ? clockTitle(title) : QObject::tr("trace time (s)"));
            break;
    }
}

}  // namespace

double wrapTraceTime(double t, const TraceWrap& wrap) {
    const double first = double(wrap.first);
    const double span = double(std::max<Timestamp>(1, wrap.span));
    // Half a second of slack: the followed range ends at the head + 1.5.
    if (t < first + span + 0.5) {
        return t;
    }
    return first + std::fmod(t - first, span);
}

void setTimeAxis(QCPAxis& axis, TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    applyTimeAxis(axis, mode, wrap, Title::Full, 1);
}

void setUntitledTimeAxis(QCPAxis& axis, TimeAxisMode mode, std::optional<TraceWrap> wrap) {
    applyTimeAxis(axis, mode, wrap, Title::None, 1);
}

void setShortTimeAxis(QCPAxis& axis, TimeAxisMode mode, std::optional<TraceWrap> wrap,
                      double minimumStep) {
    applyTimeAxis(axis, mode, wrap, Title::Short, minimumStep);
}

bool isClockAxis(const QCPAxis& axis) {
    return axis.property(kClockProperty).toBool();
}

bool isTimeAxis(const QCPAxis& axis) {
    return !axis.ticker().dynamicCast<TimeTicker>().isNull();
}

QString axisTimeText(const QCPAxis& axis, double t) {
    const auto ticker = axis.ticker().dynamicCast<TimeTicker>();
    const std::optional<TraceWrap> wrap = ticker ? ticker->wrap() : std::nullopt;
    const qint64 second = qint64(std::llround(wrap ? wrapTraceTime(t, *wrap) : t));
    if (isClockAxis(axis)) {
        const DisplayZone& zone = shownZone();
        return zone.format(second) + QLatin1Char(' ') + zone.offsetName(second);
    }
    return QObject::tr("t = %1 s").arg(QLocale().toString(second));
}

}  // namespace hitcounter::ui
