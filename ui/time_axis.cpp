#include "ui/time_axis.h"

#include <cmath>

namespace hitcounter::ui {

namespace {
class WrappedTicker : public QCPAxisTicker {
public:
    explicit WrappedTicker(TraceWrap wrap) : m_wrap(wrap) {}

protected:
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

}  // namespace hitcounter::ui
