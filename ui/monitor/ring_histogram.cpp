#include "ui/monitor/ring_histogram.h"

#include <algorithm>

#include <QHelpEvent>
#include <QToolTip>

#include "ui/common/theme.h"
#include "ui/plot/axis_tickers.h"
#include "ui/plot/display_zone.h"
#include "ui/plot/plot_layout.h"
#include "ui/plot/time_axis.h"

namespace hitcounter::ui {

namespace {
constexpr int kLegendInset = 8;     // px between the legend and the rect's border (QCP's default)
constexpr int kMostCountTicks = 5;  // labels on the count axis, at most (QCP's default)
}  // namespace

RingHistogram::RingHistogram(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("ringHistogram"));
    setToolTip(
        tr("The ring buffer's slots. Hover a bar for its slot, second and count.\n"
           "Blue: inside the window; red: the current second; grey: stale, reset when "
           "the ring comes round."));
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, tr("Ring buffer"), QFont(font().family(), 11, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);

    m_stale = new QCPBars(xAxis, yAxis);
    m_stale->setName(tr("stale slot"));
    m_live = new QCPBars(xAxis, yAxis);
    m_live->setName(tr("in window"));
    m_headBar = new QCPBars(xAxis, yAxis);
    m_headBar->setName(tr("current second"));
    for (QCPBars* bars : {m_stale, m_live, m_headBar}) {
        bars->setWidthType(QCPBars::wtPlotCoords);
        // A hair over one slot: bars rounded to whole pixels left a white 1 px gap where two
        // slots' edges rounded apart (slot 150 at 1280x720).
        bars->setWidth(1.05);
    }
    xAxis->setLabel(tr("slot (second mod W)"));
    yAxis->setLabel(tr("hits in slot"));
    yAxis->setTicker(QSharedPointer<PlainNumberTicker>::create(PlainNumberTicker::Values::Whole));
    legend->setVisible(true);
    legend->setFont(QFont(font().family(), 9));
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(0);
    legend->setIconSize(16, 10);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    connect(this, &QCustomPlot::afterLayout, this, &RingHistogram::placeLegend);
    // A short ring (1024x768 under a window manager) gets fewer count labels, never
    // overlapping ones.
    connect(this, &QCustomPlot::afterLayout, this, [this] {
        if (fitTickCount(*yAxis, kMostCountTicks)) {
            relayout(*this);
        }
    });
    setMouseTracking(true);
    connect(this, &QCustomPlot::mouseMove, this, &RingHistogram::showTooltip);
}

void RingHistogram::placeLegend() {
    // Inside the bars' rect, top right, where it fits in one line; else (a narrow window) in a
    // row of its own under the title: in the rect it would run over the y axis' labels. A row
    // narrower than one line of entries wraps them two per line.
    // (itemCount() counts the grid's cells, empty ones of a wrapped legend too.)
    int oneLine = legend->margins().left() + legend->margins().right();
    int entries = 0;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (const QCPAbstractLegendItem* entry = legend->item(i)) {
            oneLine += entry->minimumOuterSizeHint().width();
            ++entries;
        }
    }
    oneLine += legend->columnSpacing() * std::max(0, entries - 1);
    const bool fits = oneLine + 2 * kLegendInset <= axisRect()->rect().width();
    const int wrap = fits || oneLine <= plotLayout()->outerRect().width() ? 0 : 2;
    const bool inside = legend->layout() == axisRect()->insetLayout();
    if (fits == inside && wrap == legend->wrap()) {
        return;
    }
    if (wrap != legend->wrap()) {
        legend->setWrap(wrap);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);  // rearranges the entries
    }
    if (fits && !inside) {
        plotLayout()->take(legend);
        plotLayout()->simplify();
        axisRect()->insetLayout()->addElement(legend, Qt::AlignTop | Qt::AlignRight);
    } else if (!fits && inside) {
        axisRect()->insetLayout()->take(legend);
        plotLayout()->insertRow(1);
        plotLayout()->addElement(1, 0, legend);
        plotLayout()->setRowStretchFactor(1, 0.001);  // its own height, the rest to the bars
    }
    relayout(*this);
}

bool RingHistogram::legendInRow() const {
    return legend->layout() == plotLayout();
}

void RingHistogram::applyTheme(const Theme& theme) {
    stylePlot(*this, theme);
    m_live->setPen(Qt::NoPen);
    m_live->setBrush(theme.accent);
    m_stale->setPen(Qt::NoPen);
    m_stale->setBrush(theme.stale);
    m_headBar->setPen(Qt::NoPen);
    m_headBar->setBrush(theme.highlight);
    replot(rpQueuedReplot);
}

void RingHistogram::setBucketSeconds(int seconds) {
    m_bucketSeconds = std::max(1, seconds);
}

void RingHistogram::updateFrom(const EngineSnapshot& snapshot) {
    m_slots = groupSlots(snapshot.slots, m_bucketSeconds, snapshot.head);
    const int n = static_cast<int>(m_slots.size());
    // Each slot goes into exactly one of the three series (empty slots into none), so that
    // no bar is drawn twice.
    QVector<double> liveKeys, live, staleKeys, stale, headKeys, head;
    int staleCount = 0;
    double top = 1.0;
    for (int i = 0; i < n; ++i) {
        const BucketSlot& s = m_slots[static_cast<std::size_t>(i)];
        const double c = static_cast<double>(s.count);
        top = std::max(top, c);
        if (s.isHead) {
            headKeys.push_back(i);
            head.push_back(c);
        } else if (s.inWindow) {
            liveKeys.push_back(i);
            live.push_back(c);
        } else if (s.written) {
            staleKeys.push_back(i);
            stale.push_back(c);
            ++staleCount;
        }
    }
    m_live->setData(liveKeys, live, true);
    m_stale->setData(staleKeys, stale, true);
    m_headBar->setData(headKeys, head, true);
    xAxis->setRange(-0.5, n - 0.5);
    // Slots are whole numbers: with few of them (wide buckets) one tick per slot, never 2.5.
    if (n <= 24) {
        if (!m_slotTicker) {
            m_slotTicker = QSharedPointer<QCPAxisTickerFixed>::create();
            m_slotTicker->setTickStep(1.0);
            m_slotTicker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
        }
        if (xAxis->ticker() != m_slotTicker) {
            xAxis->setTicker(m_slotTicker);
        }
    } else if (xAxis->ticker() == m_slotTicker) {
        xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    m_headBar->setName(m_bucketSeconds == 1 ? tr("current second")
                                            : tr("current bucket (%1 s)").arg(m_bucketSeconds));
    yAxis->setRange(0, top * 1.3);
    if (m_bucketSeconds == 1) {
        xAxis->setLabel(tr("slot (second mod %1)").arg(n));
    } else {
        xAxis->setLabel(tr("slot (floor(second / %1) mod %2)").arg(m_bucketSeconds).arg(n));
        yAxis->setLabel(tr("hits in bucket"));
    }
    if (m_bucketSeconds == 1) {
        yAxis->setLabel(tr("hits in slot"));
    }
    const qint64 headSlot =
        snapshot.empty ? -1 : qint64(floorMod(snapshot.head / m_bucketSeconds, n));
    const QString headText = headSlot < 0 ? QStringLiteral("–") : QString::number(headSlot);
    // A narrow plot (1024 px screens) gets a shorter form rather than a title cut at both
    // ends: the first that fits, the last one always.
    const QStringList titles{
        tr("Ring buffer: %1 slots × %2 s, head slot %3, %4 stale"),
        tr("Ring: %1 × %2 s, head %3, %4 stale"),
        tr("Ring %1×%2 s · head %3 · %4 stale"),
        tr("Ring · head %3 · %4 stale"),
    };
    const QFontMetrics metrics(m_title->font());
    QString title;
    for (const QString& form : titles) {
        title = QString(form)
                    .replace(QStringLiteral("%1"), QString::number(n))
                    .replace(QStringLiteral("%2"), QString::number(m_bucketSeconds))
                    .replace(QStringLiteral("%3"), headText)
                    .replace(QStringLiteral("%4"), QString::number(staleCount));
        if (metrics.horizontalAdvance(title) + 16 <= width()) {
            break;
        }
    }
    m_title->setText(title);
    replot(rpQueuedReplot);
}

QString RingHistogram::describeSlot(int index) const {
    if (index < 0 || index >= static_cast<int>(m_slots.size())) {
        return {};
    }
    const BucketSlot& s = m_slots[static_cast<std::size_t>(index)];
    if (!s.written) {
        return tr("slot %1: never written").arg(index);
    }
    const QString state = s.isHead
                              ? (m_bucketSeconds == 1 ? tr("current second") : tr("current bucket"))
                          : s.inWindow ? tr("in window")
                                       : tr("stale, reset on reuse");
    // Dates and clock times in the zone shown (time_axis.h's rule for dates), trace seconds
    // for traces.
    const DisplayZone& zone = shownZone();
    const auto isDate = [](qint64 second) { return second >= kFirstDateSecond; };
    const auto when = [&](qint64 second) {
        return isDate(second) ? zone.format(second, QStringLiteral("hh:mm:ss"))
                              : tr("%1 s").arg(second);
    };
    const qint64 from = qint64(s.bucket) * m_bucketSeconds;
    const qint64 bucket = qint64(s.bucket);
    const QString seconds =
        m_bucketSeconds == 1
            ? (isDate(bucket) ? tr("%1 %2 (second %3)")
                                    .arg(zone.format(bucket), zone.offsetName(bucket))
                                    .arg(bucket)
                              : tr("second %1").arg(bucket))
        : isDate(from)
            ? tr("%1 to %2 %3").arg(when(from), when(from + m_bucketSeconds), zone.offsetName(from))
            : tr("%1 to %2").arg(when(from), when(from + m_bucketSeconds));
    return tr("slot %1\n%2\n%L3 hits\n%4").arg(index).arg(seconds).arg(s.count).arg(state);
}

bool RingHistogram::event(QEvent* event) {
    // The generic tooltip only where no slot is under the mouse: over a slot its own text
    // stays (QWidget would replace it with the generic one after the tooltip delay).
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = static_cast<int>(std::lround(xAxis->pixelToCoord(help->pos().x())));
        const QString text = describeSlot(index);
        if (!text.isEmpty() && axisRect()->rect().contains(help->pos())) {
            QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
    }
    return QCustomPlot::event(event);
}

void RingHistogram::showTooltip(QMouseEvent* event) {
    const int index = static_cast<int>(std::lround(xAxis->pixelToCoord(event->pos().x())));
    const QString text = describeSlot(index);
    if (text.isEmpty() || !axisRect()->rect().contains(event->pos())) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void RingHistogram::showFrame(const FrameContext& context) {
    updateFrom(context.frame.snapshot);
}

}  // namespace hitcounter::ui
