#include "ui/teach/step_chart.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;

namespace {

QFont captionFont() {
    return ts::font(9.5);
}
QFont smallFont() {
    return ts::font(8.5);
}

constexpr int kChartPad = 8;

// A round step for the y axis: 1, 2, 5 times a power of ten, about four ticks.
double niceStep(double max) {
    const double raw = std::max(max / 4.0, 1.0);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * power >= raw) {
            return m * power;
        }
    }
    return 10 * power;
}

QString valueText(double v, const QString& unit) {
    return unit.isEmpty() ? QString::number(qint64(v))
                          : QStringLiteral("%1 %2").arg(qint64(v)).arg(unit);
}

}  // namespace

StepChart::StepChart(QWidget* parent) : QWidget(parent), m_axis(tr("step")) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void StepChart::fill(const teach::Timeline& timeline, teach::LessonChart kind) {
    m_kind = kind;
    m_series.clear();
    m_stepCaptions.clear();
    m_step = 0;
    m_axis = tr("step");
    m_labels.clear();
    m_stairs = true;
    const auto& frames = timeline.frames();
    if (kind == teach::LessonChart::Bytes) {
        m_title = tr("Bytes held after each step (measured on the real counters)");
        m_unit = QStringLiteral("B");
        m_series = {{tr("ring O(W)"), &ts::TeachPalette::inWindowEdge, {}},
                    {tr("deque O(distinct seconds)"), &ts::TeachPalette::otherSeries, {}},
                    {tr("vector O(calls)"), &ts::TeachPalette::removed, {}}};
        for (const teach::Frame& f : frames) {
            m_series[0].values.push_back(double(f.ringBytes));
            m_series[1].values.push_back(double(f.dequeBytes));
            m_series[2].values.push_back(double(f.naiveBytes));
            m_stepCaptions.push_back(
                tr("Bytes, step %1: ring %2 B · deque %3 B (%4) · vector %5 B (%6)")
                    .arg(f.step)
                    .arg(f.ringBytes)
                    .arg(f.dequeBytes)
                    .arg(f.deque.size() == 1 ? tr("1 pair") : tr("%1 pairs").arg(f.deque.size()))
                    .arg(f.naiveBytes)
                    .arg(f.naive.size() == 1 ? tr("1 call") : tr("%1 calls").arg(f.naive.size())));
        }
    } else if (kind == teach::LessonChart::SlotVisits) {
        m_title = tr("Slot visits so far: textbook scan vs running total");
        m_unit.clear();
        m_series = {{tr("textbook scan: W per getHits"), &ts::TeachPalette::removed, {}},
                    {tr("running total: written + expired"), &ts::TeachPalette::inWindowEdge, {}}};
        for (const teach::Frame& f : frames) {
            m_series[0].values.push_back(double(f.scanVisitsSoFar));
            m_series[1].values.push_back(double(f.runningVisitsSoFar));
            m_stepCaptions.push_back(
                f.op ? tr("Slot visits, step %1: scan %2, running total %3 · so far %4 vs %5")
                           .arg(f.step)
                           .arg(f.scanVisits)
                           .arg(f.runningVisits)
                           .arg(f.scanVisitsSoFar)
                           .arg(f.runningVisitsSoFar)
                     : tr("Slot visits so far: none yet"));
        }
    } else {
        m_title.clear();
    }
    setToolTip(m_title);
    update();
}

void StepChart::fillPoints(Points chart) {
    m_kind = teach::LessonChart::None;
    m_title = std::move(chart.title);
    m_unit = std::move(chart.unit);
    m_axis = std::move(chart.axis);
    m_labels = std::move(chart.labels);
    m_series = std::move(chart.series);
    m_stepCaptions = std::move(chart.captions);
    m_stairs = false;
    m_step = std::max(0, int(m_stepCaptions.size()) - 1);
    setToolTip(m_title);
    update();
}

void StepChart::setStep(int step) {
    m_step = std::clamp(step, 0, std::max(0, int(m_stepCaptions.size()) - 1));
    update();
}

QString StepChart::caption() const {
    if (m_step < 0 || m_step >= int(m_stepCaptions.size())) {
        return {};
    }
    return m_stepCaptions[std::size_t(m_step)];
}

double StepChart::maxValue() const {
    double max = 1;
    for (const Series& s : m_series) {
        for (double v : s.values) {
            max = std::max(max, v);
        }
    }
    return max;
}

QRectF StepChart::plotRect() const {
    const QFontMetrics caption(captionFont());
    const QFontMetrics small(smallFont());
    const double top = kChartPad + caption.height() + 6;
    const double step = niceStep(maxValue());
    // Room for the widest label the top of the axis can get (see paintEvent's headroom).
    const double yMax = std::ceil(maxValue() * 2 / step) * step;
    const int labelWidth = small.horizontalAdvance(valueText(yMax, m_unit));
    const double left = kChartPad + labelWidth + 6;
    const double bottom = height() - kChartPad - small.height() - 4;
    return QRectF(left, top, width() - kChartPad - 4 - left, bottom - top);
}

bool StepChart::textFits() const {
    const double room = width() - 2 * kChartPad;
    const QFontMetrics small(smallFont());
    double legend = 0;
    for (const Series& s : m_series) {
        legend += 18 + small.horizontalAdvance(s.name) + 14;
    }
    return QFontMetrics(captionFont()).horizontalAdvance(caption()) <= room &&
           legend + 8 <= plotRect().width() && plotRect().height() >= 40 &&
           plotRect().width() >= 100;
}

// The value scale: yMax at the top of the plot, ticks every `tick`, step i at x(i).
struct StepChart::Scale {
    QRectF plot;
    double yMax = 1;
    double tick = 1;
    double dx = 1;
    QPointF at(int i, double v) const {
        return QPointF(plot.left() + i * dx, plot.bottom() - v / yMax * plot.height());
    }
};

void StepChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF all = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    p.setPen(ts::colors().boardBorder);
    p.setBrush(ts::colors().board);
    p.drawRoundedRect(all, 10, 10);
    if (m_series.empty()) {
        return;
    }
    // The caption says what is plotted and this step's numbers; the legend names the lines.
    const QFontMetrics captionMetrics(captionFont());
    p.setFont(captionFont());
    p.setPen(ts::colors().ink);
    p.drawText(QPointF(kChartPad, kChartPad + captionMetrics.ascent()),
               captionMetrics.elidedText(caption(), Qt::ElideRight, width() - 2 * kChartPad));
    p.setFont(smallFont());
    const Scale scale = makeScale();
    paintAxes(p, scale);
    // The current step.
    p.setPen(QPen(ts::colors().current, 2, Qt::DashLine));
    p.drawLine(scale.at(m_step, 0), scale.at(m_step, scale.yMax));
    paintSeries(p, scale);
    paintLegend(p, scale.plot);
}

StepChart::Scale StepChart::makeScale() const {
    Scale s;
    s.plot = plotRect();
    s.tick = niceStep(maxValue());
    // Headroom above the highest value for the legend, so it never hides a line.
    const double legendHeight = QFontMetrics(smallFont()).height() + 6;
    const double need = s.plot.height() > legendHeight + 10
                            ? maxValue() * s.plot.height() / (s.plot.height() - legendHeight)
                            : maxValue();
    s.yMax = std::ceil(maxValue() / s.tick) * s.tick;
    for (int i = 0; i < 100 && s.yMax < need; ++i) {
        s.yMax += s.tick;
    }
    const int steps = int(m_series.front().values.size());
    s.dx = steps > 1 ? s.plot.width() / (steps - 1) : s.plot.width();
    return s;
}

// The grid with its y labels, and "step N" under the plot at a readable spacing.
void StepChart::paintAxes(QPainter& p, const Scale& s) const {
    const QFontMetrics small(smallFont());
    const QRectF& plot = s.plot;
    for (double v = 0; v <= s.yMax + 0.5; v += s.tick) {
        const double gy = plot.bottom() - v / s.yMax * plot.height();
        p.setPen(QPen(ts::colors().boardBorder, 1));
        p.drawLine(QPointF(plot.left(), gy), QPointF(plot.right(), gy));
        p.setPen(ts::colors().softInk);
        const QString label = valueText(v, m_unit);
        p.drawText(QPointF(plot.left() - 6 - small.horizontalAdvance(label),
                           gy + small.ascent() / 2.0 - 1),
                   label);
    }
    const int steps = int(m_series.front().values.size());
    const int every = std::max(1, int(std::ceil(small.horizontalAdvance(QStringLiteral("00")) *
                                                2.0 / std::max(s.dx, 1.0))));
    p.setPen(ts::colors().softInk);
    const QString& axis = m_axis;
    const double axisLeft = plot.right() - small.horizontalAdvance(axis);
    for (int i = 0; i < steps; i += every) {
        const QString label =
            i < int(m_labels.size()) ? m_labels[std::size_t(i)] : QString::number(i);
        if (plot.left() + i * s.dx + small.horizontalAdvance(label) / 2.0 + 4 > axisLeft) {
            break;  // the axis name sits there
        }
        p.drawText(QPointF(plot.left() + i * s.dx - small.horizontalAdvance(label) / 2.0,
                           plot.bottom() + 4 + small.ascent()),
                   label);
    }
    p.drawText(QPointF(axisLeft, plot.bottom() + 4 + small.ascent()), axis);
}

// The series: a step line, solid so far, faint ahead, with a dot at the current step.
void StepChart::paintSeries(QPainter& p, const Scale& scale) const {
    const int steps = int(m_series.front().values.size());
    for (const Series& s : m_series) {
        for (int part = 0; part < 2; ++part) {
            QPainterPath path;
            const int from = part == 0 ? 0 : m_step;
            const int to = part == 0 ? m_step : steps - 1;
            if (to <= from && !(part == 0 && steps == 1)) {
                continue;
            }
            path.moveTo(scale.at(from, s.values[std::size_t(from)]));
            for (int i = from + 1; i <= to; ++i) {
                if (m_stairs) {
                    path.lineTo(scale.at(i, s.values[std::size_t(i - 1)]));
                }
                path.lineTo(scale.at(i, s.values[std::size_t(i)]));
            }
            QColor c = ts::colors().*s.color;
            if (part == 1) {
                c.setAlpha(70);
            }
            p.setPen(QPen(c, part == 0 ? 2.5 : 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawPath(path);
        }
        p.setPen(Qt::NoPen);
        p.setBrush(ts::colors().*s.color);
        p.drawEllipse(scale.at(m_step, s.values[std::size_t(m_step)]), 4, 4);
    }
}

// The legend, top left inside the plot (the lines start low there), on the board colour.
void StepChart::paintLegend(QPainter& p, const QRectF& plot) const {
    const QFontMetrics small(smallFont());
    double legendWidth = 0;
    for (const Series& s : m_series) {
        legendWidth += 18 + small.horizontalAdvance(s.name) + 14;
    }
    const QRectF legend(plot.left() + 4, plot.top() + 1, legendWidth - 6, small.height() + 4);
    QColor back = ts::colors().board;
    back.setAlpha(225);
    p.setPen(Qt::NoPen);
    p.setBrush(back);
    p.drawRoundedRect(legend, 4, 4);
    double x = legend.left() + 4;
    const double mid = legend.center().y();
    for (const Series& s : m_series) {
        p.setPen(QPen(ts::colors().*s.color, 3));
        p.drawLine(QPointF(x, mid), QPointF(x + 14, mid));
        p.setPen(ts::colors().ink);
        p.drawText(QPointF(x + 18, mid + small.ascent() / 2.0 - 1), s.name);
        x += 18 + small.horizontalAdvance(s.name) + 14;
    }
}

}  // namespace hitcounter::ui
