#include "ui/teach/ring_view.h"

#include <QPainter>
#include <QPainterPath>
#include <QScopeGuard>
#include <QtMath>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;
using teach::Frame;
using teach::Operation;
using teach::RingSlot;

namespace {

constexpr qreal kCloseUpHeight = 108;

// What the current paintEvent drew (GUI thread only), for RingView::captions()/overflows().
QStringList* g_captions = nullptr;
QStringList* g_overflows = nullptr;

// Draws `text` in `r` with `font` shrunk until it fits the width (seconds up to 10^12 have 13
// digits); `shorter` replaces a text too wide even at 5 pt; counts an overflow when that is
// too wide as well.
void fitText(QPainter& p, const QRectF& r, int flags, QString text, QFont font,
             const QString& shorter = {}) {
    qreal size = font.pointSizeF();
    if (!shorter.isEmpty()) {
        QFont smallest = font;
        smallest.setPointSizeF(5);
        if (QFontMetricsF(smallest).horizontalAdvance(text) > r.width()) {
            text = shorter;
        }
    }
    for (;;) {
        font.setPointSizeF(size);
        if (QFontMetricsF(font).horizontalAdvance(text) <= r.width() || size <= 5) {
            break;
        }
        size = std::max(5.0, size * 0.9);
    }
    if (QFontMetricsF(font).horizontalAdvance(text) > r.width() && g_overflows) {
        g_overflows->append(text);
    }
    if (g_captions) {
        g_captions->append(text);
    }
    p.setFont(font);
    p.drawText(r, flags, text);
}

// A slot is green when this step's window counts its second (for a getHits into the past its
// own window, not the head's), grey when it holds a second the window leaves out.
bool countedIn(const Frame& f, const RingSlot& s) {
    return s.used && f.counts(s.second);
}

QColor fillFor(const RingSlot& s, bool counted) {
    if (!s.used) {
        return ts::colors().empty;
    }
    return counted ? ts::colors().inWindow : ts::colors().stale;
}

QColor edgeFor(const RingSlot& s, bool counted) {
    if (!s.used) {
        return ts::colors().emptyEdge;
    }
    return counted ? ts::colors().inWindowEdge : ts::colors().staleInk;
}

QString numberText(qint64 v) {
    return QString::number(v);
}

// The text of one slot inside `box`: an optional crossed-out old (second, count), the second
// and the count. `scale` shrinks the fonts for small boxes.
void drawSlotText(QPainter& p, const QRectF& box, const RingSlot& s, bool counted,
                  const std::optional<teach::Pair>& resetFrom, qreal scale) {
    const QColor inkColor = s.used && !counted ? ts::colors().staleInk : ts::colors().ink;
    qreal y = box.center().y();
    const qreal secondHeight = 19 * scale;
    const qreal countHeight = 15 * scale;
    const qreal resetHeight = resetFrom ? 15 * scale : 0;
    y -= (secondHeight + countHeight + resetHeight) / 2;
    if (resetFrom) {
        p.setPen(ts::colors().removed);
        const QString old = numberText(resetFrom->second) + QStringLiteral(" ×") +
                            numberText(qint64(resetFrom->count));
        const QRectF r(box.left(), y, box.width(), resetHeight);
        fitText(p, r, Qt::AlignCenter, old, ts::font(8.5 * scale));
        const qreal half = p.fontMetrics().horizontalAdvance(old) / 2.0 + 2;
        p.setPen(QPen(ts::colors().removed, 1.6));
        p.drawLine(QPointF(r.center().x() - half, r.center().y()),
                   QPointF(r.center().x() + half, r.center().y()));
        y += resetHeight;
    }
    if (!s.used) {
        p.setPen(ts::colors().emptyEdge);
        p.setFont(ts::font(11 * scale));
        p.drawText(QRectF(box.left(), y, box.width(), secondHeight + countHeight), Qt::AlignCenter,
                   QStringLiteral("–"));
        return;
    }
    p.setPen(inkColor);
    fitText(p, QRectF(box.left(), y, box.width(), secondHeight), Qt::AlignCenter,
            numberText(s.second), ts::font(12 * scale, true));
    p.setPen(counted ? ts::colors().inWindowInk : ts::colors().staleInk);
    fitText(p, QRectF(box.left(), y + secondHeight, box.width(), countHeight), Qt::AlignCenter,
            QStringLiteral("×") + numberText(qint64(s.count)), ts::font(9.5 * scale));
}

QPointF polar(const QPointF& centre, qreal radius, qreal qtDegrees) {
    const qreal a = qDegreesToRadians(qtDegrees);
    return centre + QPointF(radius * qCos(a), -radius * qSin(a));
}

void drawLegend(QPainter& p, const QRectF& area, const QString& currentText) {
    struct Item {
        QColor fill;
        QColor edge;
        QString text;
    };
    const Item items[] = {
        {ts::colors().inWindow, ts::colors().inWindowEdge, QObject::tr("in the window")},
        {ts::colors().stale, ts::colors().staleInk, QObject::tr("stale")},
        {ts::colors().empty, ts::colors().emptyEdge, QObject::tr("never written")},
        {ts::colors().board, ts::colors().current, currentText}};
    constexpr int kItems = 4;
    // The width of items [from, to) in one row at the painter's font.
    const auto rowWidth = [&](int from, int to) {
        qreal total = 0;
        for (int i = from; i < to; ++i) {
            total += 18 + p.fontMetrics().horizontalAdvance(items[i].text) + 16;
        }
        return total;
    };
    // One row, shrinking the text to 7.5 pt; then two rows of two (a narrow ring: the Code tab
    // at 1024x768), shrinking to 6 pt.
    int rows = 1;
    bool fits = false;
    for (rows = 1; rows <= 2 && !fits; ++rows) {
        for (qreal size = 9; size >= (rows == 1 ? 7.5 : 6) && !fits; size -= 0.5) {
            p.setFont(ts::font(size));
            fits = rows == 1 ? rowWidth(0, kItems) <= area.width()
                             : std::max(rowWidth(0, 2), rowWidth(2, kItems)) <= area.width();
        }
    }
    --rows;
    if (!fits && g_overflows) {
        g_overflows->append(QStringLiteral("legend"));
    }
    const qreal rowHeight = area.height() / rows;
    for (int row = 0; row < rows; ++row) {
        const int from = row * kItems / rows;
        const int to = (row + 1) * kItems / rows;
        const QRectF line(area.left(), area.top() + row * rowHeight, area.width(), rowHeight);
        qreal x = line.center().x() - rowWidth(from, to) / 2;
        for (int i = from; i < to; ++i) {
            const Item& item = items[i];
            const qreal swatchSize = std::min<qreal>(12, rowHeight - 2);
            const QRectF swatch(x, line.center().y() - swatchSize / 2, swatchSize, swatchSize);
            p.setPen(QPen(item.edge, item.edge == ts::colors().current ? 2.5 : 1));
            p.setBrush(item.fill);
            p.drawRoundedRect(swatch, 2, 2);
            p.setPen(ts::colors().softInk);
            const qreal w = p.fontMetrics().horizontalAdvance(item.text);
            p.drawText(QRectF(x + 18, line.top(), w + 4, line.height()), Qt::AlignVCenter,
                       item.text);
            if (g_captions) {
                g_captions->append(item.text);
            }
            x += 18 + w + 16;
        }
    }
}

void drawCentre(QPainter& p, const QPointF& c, qreal radius, const Frame& f, std::int64_t w) {
    p.setPen(Qt::NoPen);
    p.setBrush(ts::colors().board);
    p.drawEllipse(c, radius, radius);
    const qreal lineWidth = radius * 1.7;
    auto line = [&](qreal dy, qreal height, const QFont& font, const QColor& color,
                    const QString& text, const QString& shorter = {}) {
        p.setPen(color);
        fitText(p, QRectF(c.x() - lineWidth / 2, c.y() + dy, lineWidth, height), Qt::AlignCenter,
                text, font, shorter);
    };
    const qreal big = std::clamp(radius / 6.5, 12.0, 30.0);
    if (!f.op) {
        line(-big * 1.6, big * 2, ts::font(big, true), ts::colors().ink,
             QObject::tr("W = %1").arg(w));
        line(big * 0.5, big * 1.5, ts::font(big * 0.55), ts::colors().softInk,
             QObject::tr("%1 empty slots").arg(w));
        return;
    }
    const Operation& op = *f.op;
    const bool isHit = op.kind == Operation::Kind::Hit;
    QString title = isHit ? QStringLiteral("hit(%1)").arg(op.second)
                          : QStringLiteral("getHits(%1)").arg(op.second);
    if (isHit && op.repeat > 1) {
        title += QStringLiteral(" ×%1").arg(op.repeat);
    }
    const qreal small = big * 0.55;
    if (isHit) {
        line(-big * 2.4, big * 1.8, ts::font(big, true), ts::colors().ink, title);
        line(-big * 0.7, small * 1.8, ts::font(small), ts::colors().softInk,
             QObject::tr("slot = %1 mod %2 = %3").arg(op.second).arg(w).arg(*f.slot));
        const qreal statusY = big * 0.5;
        if (f.dropped) {
            line(statusY, small * 1.8, ts::font(small, true), ts::colors().removed,
                 QObject::tr("too late: dropped"));
        } else if (f.resetFrom) {
            line(statusY, small * 1.8, ts::font(small, true), ts::colors().removed,
                 QObject::tr("stale (%1, %2) → (%3, 0)")
                     .arg(f.resetFrom->second)
                     .arg(qulonglong(f.resetFrom->count))
                     .arg(op.second));
        }
        if (!f.dropped && !f.partial) {  // a sub-step before the add has not added yet
            line(statusY + (f.resetFrom ? small * 1.8 : 0), small * 1.8, ts::font(small, true),
                 ts::colors().inWindowEdge, QObject::tr("count +%1").arg(op.repeat));
        }
        line(statusY + small * 3.8, small * 1.6, ts::font(small * 0.85), ts::colors().softInk,
             QObject::tr("window %1").arg(QString::fromStdString(f.windowText())),
             QString::fromStdString(f.windowText()));
    } else {
        line(-big * 2.3, big * 1.6, ts::font(big * 0.8, true), ts::colors().ink, title);
        if (f.answer) {
            line(-big * 0.8, big * 2.2, ts::font(big * 1.6, true), ts::colors().inWindowEdge,
                 QStringLiteral("= %1").arg(qulonglong(*f.answer)));
        } else {  // a sub-step: the sum so far
            line(-big * 0.6, big * 1.8, ts::font(big * 0.9, true), ts::colors().inWindowEdge,
                 QObject::tr("total = %1").arg(qulonglong(f.partialTotal.value_or(0))));
        }
        line(big * 1.5, small * 1.8, ts::font(small), ts::colors().softInk,
             QObject::tr("window %1").arg(QString::fromStdString(f.windowText())),
             QString::fromStdString(f.windowText()));
        const Timestamp open = f.windowLow.value_or(op.second - w);
        if (f.partial && f.slot && std::int64_t(*f.slot) != op.second % w) {
            line(big * 1.5 + small * 1.9, small * 1.5, ts::font(small * 0.85), ts::colors().softInk,
                 QObject::tr("outlined: slot %1, the one this line compares").arg(*f.slot),
                 QObject::tr("outlined: the slot compared"));
        } else if (open == op.second - w) {
            // Slot t mod W is shared by t and the boundary second t - W, which is just outside.
            line(big * 1.5 + small * 1.9, small * 1.5, ts::font(small * 0.85), ts::colors().softInk,
                 QObject::tr("outlined: slot %1 = %2 mod %3,").arg(*f.slot).arg(op.second).arg(w),
                 QObject::tr("outlined: slot %1 = t mod W,").arg(*f.slot));
            line(big * 1.5 + small * 3.4, small * 1.5, ts::font(small * 0.85), ts::colors().softInk,
                 QObject::tr("shared by the boundary %1 (out)").arg(open),
                 QObject::tr("shared by t − W (out)"));
        } else {
            // A query into the past: its open end is head - W, not t - W (issue 24, wrong 2).
            line(big * 1.5 + small * 1.9, small * 1.5, ts::font(small * 0.85), ts::colors().softInk,
                 QObject::tr("outlined: slot %1 = %2 mod %3;").arg(*f.slot).arg(op.second).arg(w),
                 QObject::tr("outlined: slot %1 = t mod W;").arg(*f.slot));
            line(big * 1.5 + small * 3.4, small * 1.5, ts::font(small * 0.85), ts::colors().softInk,
                 QObject::tr("open end: head − W = %1 (out)").arg(open),
                 QObject::tr("open end head − W (out)"));
        }
    }
}

}  // namespace

RingView::RingView(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void RingView::setFrame(const Frame& frame, std::int64_t window) {
    m_frame = frame;
    m_window = window;
    update();
}

namespace {

// Where the ring is drawn: its centre, radii and the angle of each slot.
struct RingGeometry {
    QPointF c;
    qreal outer = 0;
    qreal inner = 0;
    qreal step = 0;  // degrees per slot
    qreal gap = 0;   // degrees between wedges
    bool closeUp = false;
    std::int64_t w = 0;
    qreal centreAngle(std::int64_t i) const { return 90.0 - qreal(i) * step; }
    // Slot i's wedge, its outer edge pushed out by `bump`, at least `minSpan` degrees wide.
    QPainterPath wedge(std::int64_t i, qreal bump, qreal minSpan = 0) const {
        const qreal o = outer + bump;
        const QRectF outerRect(c.x() - o, c.y() - o, 2 * o, 2 * o);
        const QRectF innerRect(c.x() - inner, c.y() - inner, 2 * inner, 2 * inner);
        const qreal a = centreAngle(i);
        const qreal span = std::max(step - gap, minSpan);
        QPainterPath path;
        path.arcMoveTo(outerRect, a + span / 2);
        path.arcTo(outerRect, a + span / 2, -span);
        path.arcTo(innerRect, a - span / 2, span);
        path.closeSubpath();
        return path;
    }
};

// Every slot's wedge, its text (when the ring is labelled) and its index.
void paintSlots(QPainter& p, const RingGeometry& g, const Frame& f) {
    for (std::int64_t i = 0; i < g.w; ++i) {
        const RingSlot& s = f.ring[std::size_t(i)];
        const bool counted = countedIn(f, s);
        const bool isCurrent = f.slot && std::int64_t(*f.slot) == i;
        const qreal bump = isCurrent ? 6 : 0;
        const qreal a = g.centreAngle(i);
        p.setBrush(isCurrent && !s.used ? ts::colors().currentFill : fillFor(s, counted));
        p.setPen(QPen(edgeFor(s, counted), g.closeUp ? 0.4 : 1.2));
        p.drawPath(g.wedge(i, bump));
        if (!g.closeUp) {
            const QPointF mid = polar(g.c, (g.outer + g.inner) / 2, a);
            const qreal boxSide =
                std::min(g.outer - g.inner, 2 * M_PI * (g.outer + g.inner) / 2 / qreal(g.w)) * 0.95;
            const qreal scale = std::clamp(boxSide / 72.0, 0.75, 1.35);
            drawSlotText(p, QRectF(mid.x() - boxSide / 2, mid.y() - boxSide / 2, boxSide, boxSide),
                         s, counted, isCurrent ? f.resetFrom : std::nullopt, scale);
        }
        const bool labelIndex = g.w <= 60 || i % (g.w <= 150 ? 10 : 25) == 0;
        if (labelIndex) {
            p.setFont(ts::font(8.5));
            p.setPen(ts::colors().softInk);
            const QPointF at = polar(g.c, g.outer + bump + 12, a);
            p.drawText(QRectF(at.x() - 16, at.y() - 8, 32, 16), Qt::AlignCenter,
                       QString::number(i));
        }
    }
}

// The current slot's outline on top of its neighbours, and a marker pointing at it.
void paintCurrentSlot(QPainter& p, const RingGeometry& g, std::size_t slot) {
    const auto i = std::int64_t(slot);
    const qreal a = g.centreAngle(i);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(ts::colors().current, 3.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.drawPath(g.wedge(i, 6, 1.2));
    const QPointF tip = polar(g.c, g.inner - 4, a);
    const QPointF base1 = polar(g.c, g.inner - 20, a + 4);
    const QPointF base2 = polar(g.c, g.inner - 20, a - 4);
    p.setPen(Qt::NoPen);
    p.setBrush(ts::colors().current);
    p.drawPolygon(QPolygonF{tip, base1, base2});
}

// The close-up strip under a ring too fine to label: the slots around the current one (or
// slot 0 at the start), and the dashed arc on the ring that it magnifies.
void paintCloseUp(QPainter& p, const RingGeometry& g, const Frame& f, const QRectF& strip) {
    const std::int64_t w = g.w;
    const std::int64_t centreSlot = f.slot ? std::int64_t(*f.slot) : 0;
    const int boxes = std::clamp(int(strip.width() / 62), 5, 13) | 1;
    const qreal boxWidth = strip.width() / boxes;
    const std::int64_t first = centreSlot - boxes / 2;
    // "slot 299" over each box where the widest fits at 7.5 pt, else the numbers alone (the
    // Code tab at 1024x768).
    const bool named =
        QFontMetricsF(ts::font(7.5)).horizontalAdvance(RingView::tr("slot %1").arg(w - 1)) <=
        boxWidth - 2;
    for (int k = 0; k < boxes; ++k) {
        const std::int64_t i = ((first + k) % w + w) % w;
        const RingSlot& s = f.ring[std::size_t(i)];
        const bool counted = countedIn(f, s);
        const bool isCurrent = i == centreSlot && f.slot;
        const QRectF box(strip.left() + k * boxWidth + 3, strip.top() + 16, boxWidth - 6,
                         strip.height() - 16);
        p.setPen(isCurrent ? ts::colors().current : ts::colors().softInk);
        const QRectF labelBox(box.left() - 2, strip.top(), box.width() + 4, 14);
        fitText(p, labelBox, Qt::AlignCenter,
                named ? RingView::tr("slot %1").arg(i) : QString::number(i), ts::font(8.5));
        p.setBrush(isCurrent && !s.used ? ts::colors().currentFill : fillFor(s, counted));
        p.setPen(isCurrent ? QPen(ts::colors().current, 3) : QPen(edgeFor(s, counted), 1.2));
        p.drawRoundedRect(box, 6, 6);
        drawSlotText(p, box, s, counted, isCurrent ? f.resetFrom : std::nullopt,
                     std::clamp(box.height() / 80.0, 0.8, 1.1));
    }
    const qreal a0 = g.centreAngle(first) + g.step / 2;
    const qreal spanAll = -g.step * boxes;
    const qreal r = g.outer + 30;
    QPainterPath arc;
    arc.arcMoveTo(QRectF(g.c.x() - r, g.c.y() - r, 2 * r, 2 * r), a0);
    arc.arcTo(QRectF(g.c.x() - r, g.c.y() - r, 2 * r, 2 * r), a0, spanAll);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(ts::colors().current, 2, Qt::DashLine));
    p.drawPath(arc);
}

}  // namespace

void RingView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    const QRectF boardRect = QRectF(rect()).adjusted(4, 4, -4, -4);
    p.setPen(QPen(ts::colors().boardBorder, 1));
    p.setBrush(ts::colors().board);
    p.drawRoundedRect(boardRect, 10, 10);

    const auto w = m_window;
    const Frame& f = m_frame;
    m_captions.clear();
    m_overflows.clear();
    m_counted.clear();
    for (std::size_t i = 0; i < f.ring.size(); ++i) {
        if (countedIn(f, f.ring[i])) {
            m_counted.push_back(i);
        }
    }
    g_captions = &m_captions;
    g_overflows = &m_overflows;
    const auto forget = qScopeGuard([] {
        g_captions = nullptr;
        g_overflows = nullptr;
    });
    if (f.ring.empty()) {
        return;
    }
    const QFont titleFont = ts::font(12, true);
    const QFont bytesFont = ts::font(10);
    const QString titleText = tr("Ring buffer: %1 slots").arg(w);
    const QString bytesText = tr("%1 bytes, fixed").arg(qulonglong(f.ringBytes));
    QRectF titleRect = boardRect.adjusted(16, 10, -16, 0);
    // A narrow board (the Code tab at 1024x768) puts the bytes under the title, not over it.
    const bool bytesBelow = QFontMetricsF(titleFont).horizontalAdvance(titleText) +
                                QFontMetricsF(bytesFont).horizontalAdvance(bytesText) + 12 >
                            titleRect.width();
    p.setPen(ts::colors().ink);
    fitText(p, titleRect, Qt::AlignLeft | Qt::AlignTop, titleText, titleFont);
    p.setFont(bytesFont);
    p.setPen(ts::colors().softInk);
    if (bytesBelow) {
        titleRect.setTop(titleRect.top() + QFontMetricsF(titleFont).height());
    }
    p.drawText(titleRect, (bytesBelow ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop, bytesText);
    const qreal headerExtra = bytesBelow ? QFontMetricsF(bytesFont).height() : 0;

    RingGeometry g;
    g.w = w;
    g.closeUp = w > kLabelledSlots;
    const QRectF area =
        boardRect.adjusted(12, 36 + headerExtra, -12, -34 - (g.closeUp ? kCloseUpHeight : 0));
    const bool asks = f.op && f.op->kind == Operation::Kind::GetHits;
    drawLegend(p, QRectF(boardRect.left(), boardRect.bottom() - 30, boardRect.width(), 24),
               asks ? tr("slot t mod W (and t − W)") : tr("this step's slot"));

    const qreal labelMargin = g.closeUp ? 34 : 22;
    g.outer = std::max(40.0, std::min(area.width(), area.height()) / 2 - labelMargin);
    // Compact (a chart lesson at 1280x720): a wider centre for its text, thinner wedges.
    g.inner = g.outer * (g.closeUp ? 0.80 : m_compact ? 0.66 : 0.56);
    g.c = area.center();
    g.step = 360.0 / qreal(w);
    g.gap = g.closeUp ? 0.0 : 1.4;

    // A pane too short for the dial (the Code tab at 1280x720) shows the close-up of the
    // slots alone: the dial at its smallest ran over the title and the close-up.
    const bool dialFits = std::min(area.width(), area.height()) / 2 - labelMargin >= 40.0;
    if (dialFits || !g.closeUp) {
        paintSlots(p, g, f);
        if (f.slot) {
            paintCurrentSlot(p, g, *f.slot);
        }
        drawCentre(p, g.c, g.inner - 24, f, w);
    }
    if (g.closeUp) {
        paintCloseUp(p, g, f,
                     QRectF(boardRect.left() + 12, area.bottom() + 8, boardRect.width() - 24,
                            kCloseUpHeight - 14));
    }
}

}  // namespace hitcounter::ui
