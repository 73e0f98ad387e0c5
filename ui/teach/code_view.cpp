#include "ui/teach/code_view.h"

#include <QPainter>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;
using teach::kPseudocode;
using teach::Line;

namespace {

constexpr qreal kTop = 30;
constexpr qreal kLeft = 30;

qreal lineHeight() {
    return QFontMetricsF(ts::mono(9.5)).height() + 1;
}

}  // namespace

CodeView::CodeView(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void CodeView::setLine(Line line) {
    m_line = line;
    update();
}

QSize CodeView::minimumSizeHint() const {
    return {320, int(kTop + lineHeight() * qreal(kPseudocode.size()) + 12)};
}

QSize CodeView::sizeHint() const {
    return {460, minimumSizeHint().height()};
}

void CodeView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    const QRectF board = QRectF(rect()).adjusted(4, 4, -4, -4);
    p.setPen(QPen(ts::boardBorder(), 1));
    p.setBrush(ts::board());
    p.drawRoundedRect(board, 10, 10);
    p.setFont(ts::font(12, true));
    p.setPen(ts::ink());
    p.drawText(board.adjusted(14, 8, -14, 0), Qt::AlignLeft | Qt::AlignTop,
               tr("Pseudocode of the ring"));

    const qreal h = lineHeight();
    const int current = int(m_line);
    const int getStart = int(Line::GetHeader);
    const bool inHit = current >= 0 && current < getStart;
    const int blockFirst = inHit ? 0 : getStart;
    const int blockLast = inHit ? getStart - 2 : int(kPseudocode.size()) - 1;
    if (current >= 0) {
        p.setPen(Qt::NoPen);
        p.setBrush(ts::codeBlock());
        p.drawRoundedRect(QRectF(board.left() + 8, board.top() + kTop + blockFirst * h - 2,
                                 board.width() - 16, (blockLast - blockFirst + 1) * h + 4),
                          5, 5);
        p.setBrush(ts::currentFill());
        p.setPen(QPen(ts::current(), 1.5));
        p.drawRoundedRect(QRectF(board.left() + 8, board.top() + kTop + current * h - 1,
                                 board.width() - 16, h + 2),
                          4, 4);
        p.setPen(Qt::NoPen);
        p.setBrush(ts::current());
        const qreal y = board.top() + kTop + current * h + h / 2;
        p.drawPolygon(QPolygonF{QPointF(board.left() + 13, y - 5), QPointF(board.left() + 21, y),
                                QPointF(board.left() + 13, y + 5)});
    }
    for (std::size_t i = 0; i < kPseudocode.size(); ++i) {
        const QString text =
            QString::fromUtf8(kPseudocode[i].data(), qsizetype(kPseudocode[i].size()));
        const qsizetype hash = text.indexOf(QLatin1Char('#'));
        const QRectF r(board.left() + kLeft, board.top() + kTop + qreal(i) * h, board.width(), h);
        const bool isCurrent = int(i) == current;
        p.setFont(ts::mono(9.5, isCurrent));
        p.setPen(ts::ink());
        const QString code = hash < 0 ? text : text.left(hash);
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, code);
        if (hash >= 0) {
            p.setPen(ts::softInk());
            p.setFont(ts::mono(9.5));
            const qreal x = QFontMetricsF(ts::mono(9.5, isCurrent)).horizontalAdvance(code);
            p.drawText(r.adjusted(x, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text.mid(hash));
        }
    }
}

}  // namespace hitcounter::ui
