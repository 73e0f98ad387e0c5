#include "ui/teach/limiter_view.h"

#include <QPainter>
#include <QPainterPath>
#include <map>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;
using teach::LimiterDecision;
using teach::LimiterLane;
using teach::Pair;

namespace {

QString titleOf(const std::string& name) {
    if (name == "fixed")
        return LimiterView::tr("Fixed window");
    if (name == "log")
        return LimiterView::tr("Sliding log");
    if (name == "counter")
        return LimiterView::tr("Sliding window counter");
    return LimiterView::tr("Token bucket");
}

// A tick spacing giving at most about eight labels over `span` seconds.
std::int64_t tickStep(std::int64_t span) {
    for (const std::int64_t step : {1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600})
        if (span / step <= 8)
            return step;
    return std::max<std::int64_t>(600, span / 8);
}

// Draws a region's label at its top left if it fits inside.
void drawFitting(QPainter& p, const QRectF& region, const QString& text) {
    const QRectF room = region.adjusted(4, 2, -4, 0);
    if (p.fontMetrics().horizontalAdvance(text) <= room.width())
        p.drawText(room, Qt::AlignLeft | Qt::AlignTop, text);
}

// `text` in `r`, its font shrunk (down to 7 pt) until it fits the width: the boards are half as
// wide when four limiters sit side by side.
void drawShrunk(QPainter& p, const QRectF& r, int flags, const QString& text, QFont font) {
    while (font.pointSizeF() > 7 && QFontMetricsF(font).horizontalAdvance(text) > r.width()) {
        font.setPointSizeF(font.pointSizeF() - 0.5);
    }
    p.setFont(font);
    p.drawText(r, flags, QFontMetrics(font).elidedText(text, Qt::ElideRight, int(r.width())));
}

std::int64_t floorTo(std::int64_t t, std::int64_t step) {
    return t >= 0 ? t / step * step : -((-t + step - 1) / step) * step;
}

QString decisionBadge(const LimiterDecision& d) {
    if (d.rejected == 0)
        return d.accepted == 1 ? LimiterView::tr("ACCEPT")
                               : LimiterView::tr("ACCEPT ×%1").arg(qulonglong(d.accepted));
    if (d.accepted == 0)
        return d.rejected == 1 ? LimiterView::tr("REJECT")
                               : LimiterView::tr("REJECT ×%1").arg(qulonglong(d.rejected));
    return LimiterView::tr("ACCEPT %1 · REJECT %2")
        .arg(qulonglong(d.accepted))
        .arg(qulonglong(d.rejected));
}

}  // namespace

LimiterView::LimiterView(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void LimiterView::setStep(const teach::LimiterTimeline& timeline, std::size_t step) {
    const auto& frames = timeline.frames();
    m_frame = frames.at(std::min(step, frames.size() - 1));
    m_decisions = timeline.decisions(step);
    m_limit = timeline.limit();
    if (m_frame.clock) {
        m_clock = *m_frame.clock;
    } else {
        // The start: centre on the first operation, so the strip does not jump at step 1.
        m_clock = timeline.operations().empty() ? 0 : timeline.operations().front().second;
    }
    update();
}

void LimiterView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    const std::size_t lanes = m_frame.lanes.size();
    if (lanes == 0)
        return;
    // Up to two boards stacked; more side by side in two columns (issue 24: all four).
    const std::size_t columns = lanes > 2 ? 2 : 1;
    const std::size_t rows = (lanes + columns - 1) / columns;
    const qreal gap = 6;
    const qreal height = (qreal(this->height()) - gap * qreal(rows - 1)) / qreal(rows);
    const qreal boardWidth = (qreal(width() - 4) - gap * qreal(columns - 1)) / qreal(columns);
    for (std::size_t i = 0; i < lanes; ++i) {
        const QRectF board(rect().left() + 2 + qreal(i % columns) * (boardWidth + gap),
                           rect().top() + qreal(i / columns) * (height + gap), boardWidth, height);
        paintLane(p, board, i);
    }
}

void LimiterView::paintLane(QPainter& p, const QRectF& board, std::size_t lane) {
    const LimiterLane& l = m_frame.lanes[lane];
    p.setPen(QPen(ts::colors().boardBorder, 1));
    p.setBrush(ts::colors().board);
    p.drawRoundedRect(board, 10, 10);

    const QRectF inner = board.adjusted(14, 8, -14, -8);
    p.setFont(ts::font(10, true));
    const QString badge = l.decision ? decisionBadge(*l.decision) : QString();
    const qreal badgeWidth = l.decision ? p.fontMetrics().horizontalAdvance(badge) + 16 : 0;
    // The title, the badge and the totals share the top line; on a narrow board (1024x768) the
    // totals shorten to ticks and crosses, then the title is elided, so nothing overlaps.
    const QFont titleFont = ts::font(12, true);
    const QFont totalsFont = ts::font(9.5);
    QString title = titleOf(l.name);
    QString totals =
        tr("accepted %1 · rejected %2").arg(qulonglong(l.accepted)).arg(qulonglong(l.rejected));
    const auto fits = [&] {
        return QFontMetricsF(titleFont).horizontalAdvance(title) + 14 + badgeWidth + 14 +
                   QFontMetricsF(totalsFont).horizontalAdvance(totals) <=
               inner.width();
    };
    if (!fits()) {
        totals = tr("✓ %1 · ✗ %2").arg(qulonglong(l.accepted)).arg(qulonglong(l.rejected));
    }
    if (!fits()) {
        title = QFontMetricsF(titleFont).elidedText(
            title, Qt::ElideRight,
            inner.width() - 28 - badgeWidth - QFontMetricsF(totalsFont).horizontalAdvance(totals));
    }
    p.setFont(titleFont);
    p.setPen(ts::colors().ink);
    p.drawText(inner, Qt::AlignLeft | Qt::AlignTop, title);
    const qreal titleWidth = p.fontMetrics().horizontalAdvance(title);
    p.setFont(totalsFont);
    p.setPen(ts::colors().softInk);
    p.drawText(inner, Qt::AlignRight | Qt::AlignTop, totals);
    const qreal totalsWidth = p.fontMetrics().horizontalAdvance(totals);
    // The name and L per W between the title and the badge, only when they fit there.
    p.setFont(ts::font(9.5));
    const QString about = tr("\"%1\" · L = %2 per W = %3 s")
                              .arg(QString::fromStdString(l.name))
                              .arg(qulonglong(m_limit.limit))
                              .arg(m_limit.per.count());
    if (titleWidth + 8 + p.fontMetrics().horizontalAdvance(about) + 14 + badgeWidth + 14 +
            totalsWidth <=
        inner.width()) {
        p.drawText(inner.adjusted(titleWidth + 8, 3, 0, 0), Qt::AlignLeft | Qt::AlignTop, about);
    }
    if (l.decision) {
        p.setFont(ts::font(10, true));
        const QRectF badgeRect(inner.right() - totalsWidth - 14 - badgeWidth, inner.top(),
                               badgeWidth, 20);
        const bool accepted = l.decision->accepted > 0;
        const QColor colour = accepted ? ts::colors().inWindowEdge : ts::colors().removed;
        p.setPen(Qt::NoPen);
        p.setBrush(colour);
        p.drawRoundedRect(badgeRect, 9, 9);
        p.setPen(ts::colors().badgeInk);
        p.drawText(badgeRect, Qt::AlignCenter, badge);
    }

    // Reason at the bottom, the strip and the state between.
    p.setFont(ts::font(9.5));
    const qreal reasonHeight = p.fontMetrics().lineSpacing() * 2 + 4;
    const QRectF reason(inner.left(), inner.bottom() - reasonHeight, inner.width(), reasonHeight);
    p.setPen(ts::colors().ink);
    p.drawText(reason, Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap,
               l.reason.empty() ? tr("No request this step.") : QString::fromStdString(l.reason));
    const QRectF body(inner.left(), inner.top() + 28, inner.width(),
                      reason.top() - inner.top() - 34);
    const qreal stateWidth =
        std::min<qreal>(300, body.width() * (body.width() < 600 ? 0.46 : 0.36));
    paintStrip(p, QRectF(body.left(), body.top(), body.width() - stateWidth - 14, body.height()),
               lane);
    paintState(p, QRectF(body.right() - stateWidth, body.top(), stateWidth, body.height()), lane);
}

// The strip's time axis: seconds lo..hi over `plot`, the axis line at axisY.
struct LimiterView::StripScale {
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    qreal axisY = 0;
    QRectF plot;
    qreal x(qreal t) const { return plot.left() + (t - qreal(lo)) / qreal(hi - lo) * plot.width(); }
    // The seconds [from, to) as a band over the whole plot height, clipped to the plot.
    QRectF span(qreal from, qreal to) const {
        const qreal left = std::max(plot.left(), x(from));
        const qreal right = std::min(plot.right(), x(to));
        return QRectF(left, plot.top(), std::max<qreal>(0, right - left), plot.height());
    }
};

void LimiterView::paintStrip(QPainter& p, const QRectF& area, std::size_t lane) {
    const std::int64_t w = m_limit.per.count();
    // One window back from the clock, plus a margin: what the algorithms look at.
    const std::int64_t pad = std::max<std::int64_t>(3, w / 10);
    StripScale scale;
    scale.lo = m_clock - w - pad;
    scale.hi = m_clock + pad;
    scale.axisY = area.bottom() - 18;
    scale.plot = QRectF(area.left(), area.top(), area.width(), scale.axisY - area.top());

    p.save();
    p.setClipRect(area.adjusted(-2, -2, 2, 2));
    paintWindows(p, scale, lane);
    paintAxis(p, scale);
    paintRequests(p, scale, lane);
    paintClock(p, scale);
    p.restore();
}

// What the algorithm looks at: the fixed windows and their boundaries (and, for the sliding
// counter, the weighed part of the previous one), or the log's sliding window (t - W, t].
void LimiterView::paintWindows(QPainter& p, const StripScale& s, std::size_t lane) {
    const LimiterLane& l = m_frame.lanes[lane];
    const std::int64_t w = m_limit.per.count();
    p.setPen(Qt::NoPen);
    p.setFont(ts::font(8.5));
    if (l.name == "fixed" || l.name == "counter") {
        const std::int64_t start = floorTo(m_clock, w);
        if (l.name == "counter") {
            p.setBrush(ts::colors().inWindowSoft);
            const QRectF previous = s.span(qreal(start - w), qreal(start));
            p.drawRect(previous);
            // The part of the previous window still inside (t - W, t] is what gets weighed.
            p.setBrush(ts::colors().inWindow);
            p.drawRect(s.span(qreal(m_clock - w) + 0.5, qreal(start)));
            p.setPen(ts::colors().inWindowInk);
            drawFitting(p, previous, tr("previous window"));
            p.setPen(Qt::NoPen);
        }
        p.setBrush(ts::colors().inWindow);
        const QRectF current = s.span(qreal(start), qreal(start + w));
        p.drawRect(current);
        p.setPen(ts::colors().inWindowInk);
        drawFitting(p, current, tr("[%1, %2)").arg(start).arg(start + w));
        p.setPen(QPen(ts::colors().inWindowEdge, 1.2, Qt::DashLine));
        for (std::int64_t b = floorTo(s.lo, w); b <= s.hi; b += w) {
            if (b >= s.lo)
                p.drawLine(QPointF(s.x(qreal(b)), s.plot.top()), QPointF(s.x(qreal(b)), s.axisY));
        }
    } else if (l.name == "log") {
        p.setBrush(ts::colors().inWindow);
        // (t - W, t] holds the seconds t - W + 1 ... t: shade from the middle of t - W.
        const QRectF window = s.span(qreal(m_clock - w) + 0.5, qreal(m_clock) + 0.5);
        p.drawRect(window);
        p.setPen(ts::colors().inWindowInk);
        drawFitting(p, window, tr("(%1, %2]").arg(m_clock - w).arg(m_clock));
    }
}

void LimiterView::paintAxis(QPainter& p, const StripScale& s) {
    p.setPen(QPen(ts::colors().softInk, 1));
    p.drawLine(QPointF(s.plot.left(), s.axisY), QPointF(s.plot.right(), s.axisY));
    const std::int64_t step = tickStep(s.hi - s.lo);
    p.setFont(ts::font(8.5));
    for (std::int64_t t = floorTo(s.lo, step); t <= s.hi; t += step) {
        if (t < s.lo)
            continue;
        const qreal tx = s.x(qreal(t));
        p.drawLine(QPointF(tx, s.axisY), QPointF(tx, s.axisY + 4));
        p.drawText(QRectF(tx - 30, s.axisY + 4, 60, 14), Qt::AlignHCenter | Qt::AlignTop,
                   QString::number(t));
    }
}

namespace {

// One request's mark: a green dot (accepted) or a red cross, circled in orange for this step.
void paintMark(QPainter& p, const QPointF& centre, qreal radius, bool accepted, bool now) {
    if (accepted) {
        p.setPen(QPen(ts::colors().inWindowEdge.darker(120), 1));
        p.setBrush(ts::colors().inWindowEdge);
        p.drawEllipse(centre, radius, radius);
    } else {
        p.setPen(QPen(ts::colors().removed, 2.2));
        p.drawLine(centre + QPointF(-radius, -radius), centre + QPointF(radius, radius));
        p.drawLine(centre + QPointF(-radius, radius), centre + QPointF(radius, -radius));
    }
    if (now) {
        p.setPen(QPen(ts::colors().current, 2));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(centre, radius + 2.5, radius + 2.5);
    }
}

}  // namespace

// Requests: per second, earlier steps' marks first, then this step's (outlined).
void LimiterView::paintRequests(QPainter& p, const StripScale& s, std::size_t lane) {
    const LimiterLane& l = m_frame.lanes[lane];
    struct Column {
        Count accepted = 0, rejected = 0, nowAccepted = 0, nowRejected = 0;
    };
    std::map<Timestamp, Column> columns;
    const auto& decisions = m_decisions[lane];
    for (std::size_t k = 0; k < decisions.size(); ++k) {
        const LimiterDecision& d = decisions[k];
        if (d.second < s.lo || d.second > s.hi)
            continue;
        Column& c = columns[d.second];
        const bool now = l.decision && k + 1 == decisions.size();
        (now ? c.nowAccepted : c.accepted) += d.accepted;
        (now ? c.nowRejected : c.rejected) += d.rejected;
    }
    const qreal radius = 5;
    const qreal pitch = 12;
    const int room = std::max(1, int((s.plot.height() - 34) / pitch));
    qreal previousX = -1e9;
    int previousTop = 0;
    for (const auto& [second, c] : columns) {
        const qreal cx = s.x(qreal(second));
        // Neighbouring seconds closer than a mark stack on from where the last column ended,
        // a staircase, so a burst over consecutive seconds stays readable.
        int drawn = cx - previousX < 2 * radius + 2 && previousTop < room ? previousTop : 0;
        const int base = drawn;
        const Count total = c.accepted + c.rejected + c.nowAccepted + c.nowRejected;
        auto mark = [&](bool accepted, bool now) {
            if (drawn >= room)
                return;
            const QPointF centre(cx, s.axisY - 9 - drawn * pitch);
            if (drawn + 1 == room && Count(room - base) < total) {
                p.setPen(ts::colors().ink);
                p.setFont(ts::font(7.5, true));
                p.drawText(QRectF(centre.x() - 16, centre.y() - 7, 32, 14), Qt::AlignCenter,
                           QStringLiteral("+%1").arg(qulonglong(total) - qulonglong(drawn - base)));
            } else {
                paintMark(p, centre, radius, accepted, now);
            }
            ++drawn;
        };
        for (Count i = 0; i < c.accepted; ++i)
            mark(true, false);
        for (Count i = 0; i < c.rejected; ++i)
            mark(false, false);
        for (Count i = 0; i < c.nowAccepted; ++i)
            mark(true, true);
        for (Count i = 0; i < c.nowRejected; ++i)
            mark(false, true);
        previousX = cx;
        previousTop = drawn;
    }
}

void LimiterView::paintClock(QPainter& p, const StripScale& s) {
    const qreal clockX = s.x(qreal(m_clock));
    p.setPen(QPen(ts::colors().current, 2));
    p.drawLine(QPointF(clockX, s.plot.top()), QPointF(clockX, s.axisY));
    p.setFont(ts::font(8.5, true));
    p.setPen(ts::colors().currentInk);
    p.drawText(QRectF(clockX - 84, s.plot.top() + 16, 80, 14), Qt::AlignRight | Qt::AlignTop,
               m_frame.clock ? tr("t = %1").arg(m_clock) : tr("start"));
}

namespace {

// min(L, 10) cells filled to `filled` (a fraction for the bucket's partial token); returns the
// bottom of the cells.
qreal paintCells(QPainter& p, double filled, const QRectF& r, Count limit) {
    const int n = int(std::min<Count>(limit, 10));
    const qreal size = std::min<qreal>(34, (r.width() - 6 * (n - 1)) / n);
    for (int i = 0; i < n; ++i) {
        const QRectF cell(r.left() + i * (size + 6), r.top(), size, size);
        p.setPen(QPen(ts::colors().emptyEdge, 1.2));
        p.setBrush(ts::colors().empty);
        p.drawRoundedRect(cell, 5, 5);
        const double part = std::clamp(filled - i, 0.0, 1.0);
        if (part > 0) {
            p.setPen(Qt::NoPen);
            p.setBrush(ts::colors().inWindow);
            const QRectF fill(cell.left(), cell.bottom() - cell.height() * part, cell.width(),
                              cell.height() * part);
            p.drawRoundedRect(fill, 5, 5);
            p.setPen(QPen(ts::colors().inWindowEdge, 1.2));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(cell, 5, 5);
        }
    }
    return r.top() + size;
}

// A gauge: the cells, a bold line under them and a soft detail line under that.
void paintGauge(QPainter& p, const QRectF& content, double filled, Count limit, const QString& line,
                const QString& detail) {
    const qreal bottom = paintCells(p, filled, content, limit);
    p.setPen(ts::colors().ink);
    drawShrunk(p, QRectF(content.left(), bottom + 6, content.width(), 20), Qt::AlignLeft, line,
               ts::font(11, true));
    p.setFont(ts::font(9));
    p.setPen(ts::colors().softInk);
    p.drawText(QRectF(content.left(), bottom + 28, content.width(), content.bottom() - bottom - 28),
               Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, detail);
}

}  // namespace

void LimiterView::paintState(QPainter& p, const QRectF& area, std::size_t lane) {
    const LimiterLane& l = m_frame.lanes[lane];
    const std::int64_t w = m_limit.per.count();
    const Count limit = m_limit.limit;
    p.save();
    p.setPen(QPen(ts::colors().emptyEdge, 1));
    p.setBrush(ts::colors().empty);
    p.drawRoundedRect(area, 6, 6);
    const QRectF inner = area.adjusted(10, 6, -10, -6);
    p.setFont(ts::font(9, true));
    p.setPen(ts::colors().softInk);
    const QRectF content = inner.adjusted(0, 20, 0, 0);
    if (l.name == "fixed") {
        p.drawText(inner, Qt::AlignLeft | Qt::AlignTop, tr("count in this window"));
        paintGauge(
            p, content, double(l.current), limit,
            tr("%1 of %2 used").arg(qulonglong(l.current)).arg(qulonglong(limit)),
            tr("window %1 = [%2, %3)").arg(l.window).arg(l.window * w).arg(l.window * w + w));
    } else if (l.name == "counter") {
        p.drawText(inner, Qt::AlignLeft | Qt::AlignTop, tr("weighted count"));
        paintGauge(p, content, double(l.weighted) / double(w), limit,
                   tr("%1 × %2 + %3 × %4 = %5")
                       .arg(qulonglong(l.previous))
                       .arg(w - m_clock % w)
                       .arg(qulonglong(l.current))
                       .arg(w)
                       .arg(qulonglong(l.weighted)),
                   tr("%1; accept while < L × W = %2")
                       .arg(tr("prev × (W − t mod W) + curr × W"))
                       .arg(qulonglong(limit) * w));
    } else if (l.name == "bucket") {
        p.drawText(inner, Qt::AlignLeft | Qt::AlignTop,
                   tr("tokens (1 per %1 s)").arg(double(w) / double(limit), 0, 'g', 3));
        const double tokens = double(l.tokenUnits) / double(w);
        QStringList left;  // the write-up's table: what each request left, the latest last
        for (std::size_t k = l.tokensLeft.size() > 6 ? l.tokensLeft.size() - 6 : 0;
             k < l.tokensLeft.size(); ++k) {
            left << QString::fromStdString(teach::tokensText(l.tokensLeft[k], w));
        }
        paintGauge(p, content, tokens, limit,
                   tr("%1 of %2 tokens")
                       .arg(QString::fromStdString(teach::tokensText(l.tokenUnits, w)))
                       .arg(qulonglong(limit)),
                   left.isEmpty()
                       ? tr("exactly %1/%2 of a token").arg(qulonglong(l.tokenUnits)).arg(w)
                       : tr("left after each request: %1").arg(left.join(QStringLiteral("  "))));
    } else {
        drawShrunk(p, inner, Qt::AlignLeft | Qt::AlignTop, tr("log of accepted seconds"), p.font());
        paintLog(p, content, l, limit);
    }
    p.restore();
}

namespace {

// One run of the log (second, count) in a cell; an expired one greyed and crossed out.
void paintRun(QPainter& p, const QRectF& at, const Pair& r, bool expired) {
    p.setPen(QPen(expired ? ts::colors().staleInk : ts::colors().inWindowEdge, 1.1));
    p.setBrush(expired ? ts::colors().stale : ts::colors().inWindow);
    p.drawRoundedRect(at, 5, 5);
    p.setPen(expired ? ts::colors().staleInk : ts::colors().ink);
    p.setFont(ts::font(10, true));
    p.drawText(at.adjusted(0, 2, 0, -at.height() * 0.45), Qt::AlignCenter,
               QString::number(r.second));
    p.setFont(ts::font(8.5));
    p.drawText(at.adjusted(0, at.height() * 0.5, 0, 0), Qt::AlignCenter,
               QStringLiteral("×%1").arg(qulonglong(r.count)));
    if (expired) {
        p.setPen(QPen(ts::colors().removed, 2.2));
        p.drawLine(at.topLeft() + QPointF(6, 6), at.bottomRight() - QPointF(6, 6));
    }
}

}  // namespace

// The log: one cell per run (second, count), then the runs that just expired, and the sum.
void LimiterView::paintLog(QPainter& p, const QRectF& content, const LimiterLane& l, Count limit) {
    qreal cx = content.left();
    qreal cy = content.top();
    auto run = [&](const Pair& r, bool expired) {
        if (cx + 54 > content.right()) {
            cx = content.left();
            cy += 44;
        }
        const QRectF at(cx, cy, 54, 38);
        if (at.bottom() > content.bottom())
            return;
        paintRun(p, at, r, expired);
        cx += 60;
    };
    Count held = 0;
    for (const Pair& r : l.log) {
        run(r, false);
        held += r.count;
    }
    for (const Pair& r : l.expired)
        run(r, true);
    p.setPen(ts::colors().ink);
    const QRectF summary(content.left(), content.bottom() - 20, content.width(), 20);
    drawShrunk(p, summary, Qt::AlignLeft | Qt::AlignBottom,
               l.log.empty() && l.expired.empty()
                   ? tr("empty: 0 of %1").arg(qulonglong(limit))
                   : tr("%1 of %2 in the window").arg(qulonglong(held)).arg(qulonglong(limit)),
               ts::font(11, true));
}

}  // namespace hitcounter::ui
