#include "ui/teach/sequence_view.h"

#include <QPainter>
#include <QVariantAnimation>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;
using teach::Pair;

namespace {

QString pairText(const Pair& p) {
    return QStringLiteral("(%1, %2)").arg(p.second).arg(qulonglong(p.count));
}

}  // namespace

SequenceView::SequenceView(Kind kind, QWidget* parent)
    : QWidget(parent), m_kind(kind), m_animation(new QVariantAnimation(this)) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_animation->setStartValue(0.0);
    m_animation->setEndValue(1.0);
    m_animation->setDuration(kAnimationMs);
    m_animation->setEasingCurve(QEasingCurve::InOutCubic);
    connect(m_animation, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
        m_progress = v.toReal();
        update();
    });
}

void SequenceView::setFrame(const teach::Frame& frame, bool animate) {
    const bool deque = m_kind == Kind::Deque;
    m_items = deque ? frame.deque : frame.naive.toVector();
    m_popped = deque ? frame.popped : std::vector<Pair>{};
    m_touched = deque ? frame.dequeTouched : std::nullopt;
    m_added = deque ? 0 : frame.naiveAdded;
    m_windowLow = frame.windowLow;
    m_windowHigh = frame.windowHigh;
    m_bytes = deque ? frame.dequeBytes : frame.naiveBytes;
    m_animation->stop();
    const bool moves = deque ? !m_popped.empty() : m_added > 0;
    if (animate && moves) {
        m_progress = 0.0;
        m_animation->start();
    } else {
        m_progress = 1.0;
    }
    update();
}

void SequenceView::finishAnimation() {
    m_animation->stop();
    m_progress = 1.0;
    update();
}

SequenceView::CellSize SequenceView::pickCellSize(const QRectF& area, int count,
                                                  int* perRow) const {
    static constexpr CellSize kDequeSizes[] = {{74, 50, true}, {58, 42, true}, {44, 34, true}};
    static constexpr CellSize kVectorSizes[] = {
        {50, 40, true}, {38, 30, true}, {26, 24, true}, {11, 11, false}};
    const CellSize* sizes = m_kind == Kind::Deque ? kDequeSizes : kVectorSizes;
    const int n = m_kind == Kind::Deque ? 3 : 4;
    for (int i = 0; i < n; ++i) {
        const CellSize s = sizes[i];
        const int columns = std::max(1, int(area.width() / (s.width + 4)));
        const int rows = std::max(1, int(area.height() / (s.height + 4)));
        *perRow = columns;
        if (columns * rows >= count || i == n - 1) {
            return s;
        }
    }
    return sizes[n - 1];
}

void SequenceView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    const QRectF board = QRectF(rect()).adjusted(4, 4, -4, -4);
    p.setPen(QPen(ts::colors().boardBorder, 1));
    p.setBrush(ts::colors().board);
    p.drawRoundedRect(board, 10, 10);
    paintHeader(p, board);
    const qreal footer = m_kind == Kind::Deque ? 22 : 4;
    p.save();
    p.setClipRect(board.adjusted(2, 2, -2, -2));
    paintItems(p, board.adjusted(14, 44, -14, -8 - footer));
    p.restore();
    if (m_kind == Kind::Deque) {
        paintPopped(
            p, QRectF(board.left() + 14, board.bottom() - 6 - footer, board.width() - 28, footer));
    }
}

// The title, the size and bytes on the right, and the line under the title.
void SequenceView::paintHeader(QPainter& p, const QRectF& board) const {
    const bool deque = m_kind == Kind::Deque;
    const QRectF title = board.adjusted(14, 8, -14, 0);
    const int n = int(m_items.size());
    const QString size = deque ? (n == 1 ? tr("1 pair") : tr("%1 pairs").arg(n))
                               : (n == 1 ? tr("1 call") : tr("%1 calls").arg(n));
    const QString info = tr("%1 · %2 bytes").arg(size).arg(qulonglong(m_bytes));
    p.setFont(ts::font(10));
    p.setPen(ts::colors().softInk);
    p.drawText(title, Qt::AlignRight | Qt::AlignTop, info);
    const qreal infoWidth = p.fontMetrics().horizontalAdvance(info) + 12;
    p.setFont(ts::font(12, true));
    p.setPen(ts::colors().ink);
    p.drawText(title, Qt::AlignLeft | Qt::AlignTop,
               p.fontMetrics().elidedText(
                   deque ? tr("Deque of (second, count)") : tr("Naive vector of calls"),
                   Qt::ElideRight, int(title.width() - infoWidth)));
    p.setFont(ts::font(8.5));
    p.setPen(ts::colors().softInk);
    p.drawText(QRectF(title.left(), title.top() + 20, title.width(), 14), Qt::AlignLeft,
               deque ? tr("front (oldest) →") : tr("one entry per hit() call, never removed"));
}

// One entry: green inside the window, grey once its second left it, outlined when this step
// made it; "second" over "×count" when the cell has room.
void SequenceView::paintCell(QPainter& p, const QRectF& r, const CellSize& cell,
                             const teach::Pair& item, bool highlighted, bool dim,
                             qreal opacity) const {
    p.setOpacity(opacity);
    p.setBrush(dim ? ts::colors().stale : ts::colors().inWindow);
    p.setPen(highlighted ? QPen(ts::colors().current, 2.6)
                         : QPen(dim ? ts::colors().staleInk : ts::colors().inWindowEdge, 1.1));
    p.drawRoundedRect(r, 5, 5);
    if (cell.text) {
        const bool twoLines = m_kind == Kind::Deque || cell.height >= 36;
        p.setPen(dim ? ts::colors().staleInk : ts::colors().ink);
        p.setFont(ts::font(cell.height >= 40 ? 11 : 8.5, true));
        const QRectF top =
            twoLines ? QRectF(r.left(), r.top() + 2, r.width(), r.height() * 0.55) : r;
        p.drawText(top, Qt::AlignCenter, QString::number(item.second));
        if (twoLines) {
            p.setFont(ts::font(cell.height >= 40 ? 9 : 7.5));
            p.setPen(dim ? ts::colors().staleInk : ts::colors().inWindowInk);
            p.drawText(QRectF(r.left(), r.top() + r.height() * 0.5, r.width(), r.height() * 0.45),
                       Qt::AlignCenter, QStringLiteral("×%1").arg(qulonglong(item.count)));
        }
    }
    p.setOpacity(1.0);
}

// The entries in rows (the popped ones sliding out of the front while fading), "+N" when
// they do not all fit, "empty" when there are none.
void SequenceView::paintItems(QPainter& p, const QRectF& area) const {
    const bool deque = m_kind == Kind::Deque;
    int perRow = 1;
    const int count = int(m_items.size());
    const CellSize cell = pickCellSize(area, count, &perRow);
    const int rows = std::max(1, int(area.height() / (cell.height + 4)));
    const int capacity = perRow * rows;
    const bool overflow = count > capacity;
    const int shown = overflow ? capacity - 1 : count;
    const qreal stepX = cell.width + 4;
    const qreal stepY = cell.height + 4;
    auto cellRect = [&](qreal position) {
        const int row = std::max(0, int(position) / perRow);
        const qreal column = position - row * perRow;
        return QRectF(area.left() + column * stepX, area.top() + row * stepY, cell.width,
                      cell.height);
    };
    // Counted by this step's window (for a getHits into the past its own, issue 24 wrong 1).
    const auto counted = [this](Timestamp second) {
        return m_windowLow && m_windowHigh && second > *m_windowLow && second <= *m_windowHigh;
    };
    m_greyed.clear();
    for (const Pair& item : m_items) {
        m_greyed.push_back(!counted(item.second));
    }
    const qreal shift = deque ? qreal(m_popped.size()) * (1.0 - m_progress) : 0.0;
    if (deque) {
        for (std::size_t k = 0; k < m_popped.size(); ++k) {
            // Slides left out of the front while fading; the clip hides what leaves the board.
            const qreal position = qreal(k) - qreal(m_popped.size()) * m_progress;
            const QRectF r = cellRect(0).translated(position * stepX - m_progress * 20, 0);
            paintCell(p, r, cell, m_popped[k], false, true, 1.0 - m_progress);
            p.setOpacity(1.0 - m_progress);
            p.setPen(QPen(ts::colors().removed, 2.4));
            p.drawLine(r.topLeft() + QPointF(6, 6), r.bottomRight() - QPointF(6, 6));
            p.setOpacity(1.0);
        }
    }
    for (int i = 0; i < shown; ++i) {
        const Pair& item = m_items[std::size_t(i)];
        const bool isNew = !deque && std::size_t(i) >= m_items.size() - m_added;
        const bool highlighted = deque ? m_touched && *m_touched == std::size_t(i) : isNew;
        const bool dim = !counted(item.second);
        paintCell(p, cellRect(qreal(i) + shift), cell, item, highlighted, dim,
                  isNew ? m_progress : 1.0);
    }
    if (overflow) {
        const QRectF r = cellRect(qreal(shown));
        p.setPen(ts::colors().softInk);
        p.setFont(ts::font(8.5, true));
        p.drawText(r.adjusted(-20, 0, 20, 0), Qt::AlignCenter,
                   QStringLiteral("+%1").arg(count - shown));
    }
    if (count == 0 && (m_popped.empty() || m_progress >= 1.0)) {
        p.setPen(ts::colors().softInk);
        p.setFont(ts::font(10));
        p.drawText(area, Qt::AlignLeft | Qt::AlignTop, tr("empty"));
    }
}

// The deque's tray under its entries: the pairs this step popped, crossed out.
void SequenceView::paintPopped(QPainter& p, const QRectF& tray) const {
    p.setFont(ts::font(9));
    if (m_popped.empty()) {
        p.setPen(ts::colors().softInk);
        p.drawText(tray, Qt::AlignLeft | Qt::AlignVCenter, tr("nothing popped this step"));
        return;
    }
    QString list;
    for (const Pair& item : m_popped) {
        list += (list.isEmpty() ? QString() : QStringLiteral("  ")) + pairText(item);
    }
    QFont struck = ts::font(9, true);
    struck.setStrikeOut(true);
    p.setPen(ts::colors().removed);
    const QString label = tr("popped from the front: ");
    p.drawText(tray, Qt::AlignLeft | Qt::AlignVCenter, label);
    const qreal labelWidth = p.fontMetrics().horizontalAdvance(label);
    p.setFont(struck);
    p.drawText(tray.adjusted(labelWidth, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
               p.fontMetrics().elidedText(list, Qt::ElideRight, int(tray.width() - labelWidth)));
}

}  // namespace hitcounter::ui
