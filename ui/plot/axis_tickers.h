// Axis tickers that print numbers as people read them.
//
// GUI thread only (QCustomPlot tickers).
//  - BytesLogTicker: a log axis of bytes labelled "1 kB", "10 MB" instead of 10^x, with
//    labels only at powers of ten that are at least 2 decades apart when the range is wide,
//    so no two labels overlap; an empty range (no data yet) shows one label.
//  - PlainLogTicker: a log axis of counts labelled "1,000", "1 M" instead of 10^x.
//  - PlainNumberTicker: a linear axis with plain numbers ("20,000", "1.5 M", "0.25") instead
//    of exponents.
#pragma once

#include "ui/plot/qcp.h"

namespace hitcounter::ui {

class BytesLogTicker : public QCPAxisTickerLog {
public:
    BytesLogTicker();

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
};

// A linear ticker whose labels are plain numbers with separators, never exponents, fractions
// with the decimals they need ("1.25", "0.5", not "1.250000"), and from a million the whole
// axis in the largest tick's unit ("0.5 M", "1 M", "1.5 M"). Values::Whole (an axis of counts)
// never ticks between two whole numbers: a range of 0 to 3 hits is labelled 0, 1, 2, 3.
class PlainNumberTicker : public QCPAxisTicker {
public:
    enum class Values { Any, Whole };
    explicit PlainNumberTicker(Values values = Values::Any) : m_values(values) {}

protected:
    double getTickStep(const QCPRange& range) override;
    QVector<QString> createLabelVector(const QVector<double>& ticks, const QLocale& locale,
                                       QChar formatChar, int precision) override;

private:
    Values m_values;
};

// A log axis (log y of counts) labelled "1", "100", "10,000", "1 M" at its powers of ten, not
// 10^x.
class PlainLogTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
};

}  // namespace hitcounter::ui
