#include "ui/time_axis.h"

namespace hitcounter::ui {

void setTimeAxis(QCPAxis& axis, TimeAxisMode mode) {
    if (mode == TimeAxisMode::Clock) {
        auto ticker = QSharedPointer<QCPAxisTickerDateTime>::create();
        ticker->setDateTimeFormat(QStringLiteral("hh:mm:ss"));
        ticker->setDateTimeSpec(Qt::LocalTime);
        ticker->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
        axis.setTicker(ticker);
        axis.setLabel(QObject::tr("clock time (hh:mm:ss)"));
    } else {
        axis.setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis.setLabel(QObject::tr("trace time (s)"));
    }
}

}  // namespace hitcounter::ui
