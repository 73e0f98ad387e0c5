#include "ui/time_axis.h"

#include <algorithm>
#include <cmath>

namespace hitcounter::ui {

namespace {
// Ticks at round trace times in every pass (10, 20, ... 60, 10, 20 for a 60 s trace), not at
// round counter times (whose labels would run 30, 20, 10, 60).
class WrappedTicker : public QCPAxisTicker {
public:
    explicit WrappedTicker(TraceWrap wrap) : m_wrap(wrap) {}

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
        const double first = double(m_wrap.first);
        const double span = double(std::max<Timestamp>(1, m_wrap.span));
        double step = tickStep;
        if (step > span / 2) {  // at least two ticks per pass: the largest 1, 2, 5 x 10^k
            const double decade = std::pow(10.0, std::floor(std::log10(std::max(1.0, span / 2))));
            step = span / 2 >= 5 * decade   ? 5 * decade
                   : span / 2 >= 2 * decade ? 2 * decade
                                            : decade;
        }
        QVector<double> ticks;
        for (double t = std::ceil(range.lower / step) * step; t < first && t <= range.upper;
             t += step) {
            ticks.push_back(t);  // before the trace: plain times
        }
        const double firstPass = std::max(0.0, std::floor((range.lower - first) / span));
        const double lastPass = std::floor((range.upper - first) / span);
        for (double pass = firstPass; pass <= lastPass && ticks.size() < 1000; ++pass) {
            for (double t = std::ceil(first / step) * step; t < first + span; t += step) {
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

    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override {
        return QCPAxisTicker::getTickLabel(wrapTraceTime(tick, m_wrap), locale, formatChar,
                                           precision);
    }

private:
    TraceWrap m_wrap;
};

class WrappedDateTimeTicker : public QCPAxisTickerDateTime {
public:
    explicit WrappedDateTimeTicker(TraceWrap wrap) : m_wrap(wrap) {}

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override {
        return QCPAxisTickerDateTime::getTickLabel(wrapTraceTime(tick, m_wrap), locale, formatChar,
                                                   precision);
    }

private:
    TraceWrap m_wrap;
};
// Plain trace seconds with their unit: "200 s".
class SecondsTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override {
        return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision) +
               QStringLiteral(" s");
    }
};
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
    if (mode == TimeAxisMode::Clock) {
        auto ticker = wrap ? QSharedPointer<QCPAxisTickerDateTime>(new WrappedDateTimeTicker(*wrap))
                           : QSharedPointer<QCPAxisTickerDateTime>::create();
        ticker->setDateTimeFormat(QStringLiteral("hh:mm:ss"));
        ticker->setDateTimeSpec(Qt::LocalTime);
        ticker->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
        axis.setTicker(ticker);
        axis.setLabel(QObject::tr("clock time (hh:mm:ss)"));
    } else {
        axis.setTicker(wrap ? QSharedPointer<QCPAxisTicker>(new WrappedTicker(*wrap))
                            : QSharedPointer<QCPAxisTicker>::create());
        axis.setLabel(QObject::tr("trace time (s)"));
    }
}

void setUntitledTimeAxis(QCPAxis& axis, TimeAxisMode mode) {
    setTimeAxis(axis, mode);
    if (mode == TimeAxisMode::Trace) {
        axis.setTicker(QSharedPointer<SecondsTicker>::create());
    }
    axis.setLabel(QString());
}

}  // namespace hitcounter::ui
