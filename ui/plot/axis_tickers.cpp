#include "ui/plot/axis_tickers.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "ui/common/number_text.h"
#include "ui/plot/plot_layout.h"

namespace hitcounter::ui {

namespace {
// `value` / `scale` as people write it (no trailing zeros, at most `most` decimals, the
// user's locale: "600,000", not the axis' C locale), and `unit` after it.
QString scaledLabel(double value, double scale, const QString& unit, int most) {
    return humanNumber(value / scale, most) + unit;
}

// The unit (scale and suffix) people would write `value` in: none under a million, then
// M, G, T.
std::pair<double, QString> unitOf(double value) {
    const double magnitude = std::abs(value);
    if (magnitude >= 1e12) {
        return {1e12, QStringLiteral(" T")};
    }
    if (magnitude >= 1e9) {
        return {1e9, QStringLiteral(" G")};
    }
    if (magnitude >= 1e6) {
        return {1e6, QStringLiteral(" M")};
    }
    return {1.0, QString()};
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
    if (m_values == Values::Any) {
        return step;
    }
    // Whole numbers only: at least 1, and 1, 2 or 5 x 10^n (QCustomPlot may choose 2.5, whose
    // multiples 2.5, 7.5 are not whole).
    if (step <= 1) {
        return 1;
    }
    const double decade = std::pow(10.0, std::floor(std::log10(step)));
    const double mantissa = step / decade;
    return decade * (mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10);
}

// One style for the whole axis: the unit of its largest tick ("0.75 M", "1 M", "1.25 M", not
// "750,000" beside "1.00 M").
QVector<QString> PlainNumberTicker::createLabelVector(const QVector<double>& ticks, const QLocale&,
                                                      QChar, int precision) {
    double largest = 0;
    for (double tick : ticks) {
        largest = std::max(largest, std::abs(tick));
    }
    const auto [scale, unit] = unitOf(largest);
    QVector<QString> labels;
    for (double tick : ticks) {
        labels.push_back(tick == 0 ? QStringLiteral("0")
                                   : scaledLabel(tick, scale, unit, precision));
    }
    return labels;
}

// Each power of ten in its own unit: "100", "10,000", "1 M", "100 M".
QString PlainLogTicker::getTickLabel(double tick, const QLocale&, QChar, int precision) {
    const auto [scale, unit] = unitOf(tick);
    return scaledLabel(tick, scale, unit, precision);
}

}  // namespace hitcounter::ui
