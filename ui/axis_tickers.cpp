#include "ui/axis_tickers.h"

#include <algorithm>
#include <cmath>

#include "ui/number_text.h"
#include "ui/plot_layout.h"

namespace hitcounter::ui {

namespace {
// Plain numbers: separators, compact units from a million, and the fewest decimals that
// write the tick exactly (at most `precision`).
QString plainTickLabel(double tick, int precision) {
    if (std::abs(tick) >= 1e6) {
        return humanNumber(tick, 2);
    }
    int decimals = 0;
    while (decimals < precision && std::abs(tick * std::pow(10.0, decimals) -
                                            std::round(tick * std::pow(10.0, decimals))) > 1e-6) {
        ++decimals;
    }
    // The user's locale (the axis' own is C, without group separators): "600,000".
    return QLocale().toString(tick, 'f', decimals);
}
}  // namespace

BytesLogTicker::BytesLogTicker() {
    setLogBase(10);
    setSubTickCount(0);
}

QString BytesLogTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return formatBytes(std::size_t(std::llround(std::max(0.0, tick))));
}

QVector<double> BytesLogTicker::createTickVector(double, const QCPRange& range) {
    QVector<double> ticks;
    if (range.lower <= 0 || range.upper <= range.lower) {
        return ticks;
    }
    const int low = int(std::ceil(std::log10(range.lower) - 1e-9));
    const int high = int(std::floor(std::log10(range.upper) + 1e-9));
    const int decades = std::max(0, high - low);
    // At most about 5 labels: every 1, 2 or 3 decades.
    const int step = decades <= 5 ? 1 : decades <= 10 ? 2 : 3;
    for (int e = low; e <= high; e += step) {
        ticks.push_back(std::pow(10.0, e));
    }
    return ticks;
}

double PlainNumberTicker::getTickStep(const QCPRange& range) {
    const double step = QCPAxisTicker::getTickStep(range);
    return m_values == Values::Whole ? std::max(1.0, step) : step;
}

QString PlainNumberTicker::getTickLabel(double tick, const QLocale&, QChar, int precision) {
    return plainTickLabel(tick, precision);
}

QString PlainLogTicker::getTickLabel(double tick, const QLocale&, QChar, int precision) {
    return plainTickLabel(tick, precision);
}

}  // namespace hitcounter::ui
