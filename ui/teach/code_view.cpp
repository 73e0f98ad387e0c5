#include "ui/teach/code_view.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

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

void CodeView::setCode(teach::Code code) {
    m_code = code;
    updateGeometry();
    update();
}

std::size_t CodeView::lineCount() const {
    return m_code == teach::Code::RunningTotal ? teach::kRunningPseudocode.size()
                                               : kPseudocode.size();
}

QString CodeView::lineAt(std::size_t i) const {
    const std::string_view line =
        m_code == teach::Code::RunningTotal ? teach::kRunningPseudocode[i] : kPseudocode[i];
    return QString::fromUtf8(line.data(), qsizetype(line.size()));
}

QSize CodeView::minimumSizeHint() const {
    return {320, int(kTop + lineHeight() * qreal(lineCount()) + 12)};
}

QSize CodeView::sizeHint() const {
    return {460, minimumSizeHint().height()};
}

teach::Line CodeView::lineAtIndex(std::size_t i) const {
    for (int v = 0; v <= int(teach::Line::RunExpireSubtract); ++v) {
        const auto line = teach::Line(v);
        if (teach::codeOf(line) == m_code && teach::lineIndex(line) == int(i)) {
            return line;
        }
    }
    return teach::Line::None;
}

// Hovering a line tells why it is there (issue 24).
bool CodeView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const qreal y = help->pos().y() - 4 - kTop;
        const std::string_view why =
            y < 0 ? std::string_view() : teach::lineWhy(lineAtIndex(std::size_t(y / lineHeight())));
        if (why.empty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(),
                               QString::fromUtf8(why.data(), qsizetype(why.size())), this);
        }
        return true;
    }
    return QWidget::event(event);
}

QString CodeView::whyAt(QPoint pos) const {
    const qreal y = pos.y() - 4 - kTop;
    const std::string_view why =
        y < 0 ? std::string_view() : teach::lineWhy(lineAtIndex(std::size_t(y / lineHeight())));
    return QString::fromUtf8(why.data(), qsizetype(why.size()));
}

void CodeView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    const QRectF board = QRectF(rect()).adjusted(4, 4, -4, -4);
    p.setPen(QPen(ts::colors().boardBorder, 1));
    p.setBrush(ts::colors().board);
    p.drawRoundedRect(board, 10, 10);
    p.setFont(ts::font(12, true));
    p.setPen(ts::colors().ink);
    p.drawText(board.adjusted(14, 8, -14, 0), Qt::AlignLeft | Qt::AlignTop,
               m_code == teach::Code::RunningTotal ? tr("Pseudocode: the running total")
                                                   : tr("Pseudocode of the ring"));
    // A line of the other listing highlights nothing here.
    const int current = teach::codeOf(m_line) == m_code ? teach::lineIndex(m_line) : -1;
    if (current >= 0) {
        paintBlock(p, board, current);
    }
    paintLines(p, board, current);
}

// The function the step runs (from its header, the line that does not start with a space, to
// the next header or blank line) softly, the line itself strongly, with a marker.
void CodeView::paintBlock(QPainter& p, const QRectF& board, int current) const {
    const qreal h = lineHeight();
    auto isHeader = [this](int i) {
        const QString line = lineAt(std::size_t(i));
        return !line.isEmpty() && !line.startsWith(QLatin1Char(' '));
    };
    int blockFirst = current;
    while (blockFirst > 0 && !isHeader(blockFirst)) {
        --blockFirst;
    }
    int blockLast = current;
    while (blockLast + 1 < int(lineCount()) && !isHeader(blockLast + 1) &&
           !lineAt(std::size_t(blockLast + 1)).isEmpty()) {
        ++blockLast;
    }
    p.setPen(Qt::NoPen);
    p.setBrush(ts::colors().codeBlock);
    p.drawRoundedRect(QRectF(board.left() + 8, board.top() + kTop + blockFirst * h - 2,
                             board.width() - 16, (blockLast - blockFirst + 1) * h + 4),
                      5, 5);
    p.setBrush(ts::colors().currentFill);
    p.setPen(QPen(ts::colors().current, 1.5));
    p.drawRoundedRect(
        QRectF(board.left() + 8, board.top() + kTop + current * h - 1, board.width() - 16, h + 2),
        4, 4);
    p.setPen(Qt::NoPen);
    p.setBrush(ts::colors().current);
    const qreal y = board.top() + kTop + current * h + h / 2;
    p.drawPolygon(QPolygonF{QPointF(board.left() + 13, y - 5), QPointF(board.left() + 21, y),
                            QPointF(board.left() + 13, y + 5)});
}

// Each line, its comment (after '#') in the soft ink.
void CodeView::paintLines(QPainter& p, const QRectF& board, int current) const {
    const qreal h = lineHeight();
    // 9.5 pt, smaller (down to 7 pt) where the widest line would be cut: the comments stay
    // readable in a narrow pane (1024x768).
    constexpr qreal kSize = 9.5;
    qreal widest = 1;
    for (std::size_t i = 0; i < lineCount(); ++i) {
        widest =
            std::max(widest, QFontMetricsF(ts::mono(kSize, true)).horizontalAdvance(lineAt(i)));
    }
    const qreal size = std::clamp(kSize * (board.width() - kLeft - 8) / widest, 7.0, kSize);
    for (std::size_t i = 0; i < lineCount(); ++i) {
        const QString text = lineAt(i);
        const qsizetype hash = text.indexOf(QLatin1Char('#'));
        const QRectF r(board.left() + kLeft, board.top() + kTop + qreal(i) * h, board.width(), h);
        const bool isCurrent = int(i) == current;
        p.setFont(ts::mono(size, isCurrent));
        p.setPen(ts::colors().ink);
        const QString code = hash < 0 ? text : text.left(hash);
        p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, code);
        if (hash >= 0) {
            p.setPen(ts::colors().softInk);
            p.setFont(ts::mono(size));
            const qreal x = QFontMetricsF(ts::mono(size, isCurrent)).horizontalAdvance(code);
            p.drawText(r.adjusted(x, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text.mid(hash));
        }
    }
}

}  // namespace hitcounter::ui
