// Axis tickers that print numbers as people read them.
//
// GUI thread only (QCustomPlot tickers).
//  - BytesLogTicker: a log axis of bytes labelled "1 kB", "10 MB" instead of 10^x, with
//    labels only at powers of ten that are at least 2 decades apart when the range is wide,
//    so no two labels overlap; an empty range (no data yet) shows one label.
//  - plainNumberAxis(): a linear axis with plain numbers ("20,000", "1.5 M") instead of
//    exponents.
#pragma once

#include "ui/qcp.h"

namespace hitcounter::ui {

class BytesLogTicker : public QCPAxisTickerLog {
public:
    BytesLogTicker();

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
};

// A linear ticker whose labels are plain numbers with separators and compact units from a
// million ("4.93 M"), never exponents.
class PlainNumberTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
};

}  // namespace hitcounter::ui
