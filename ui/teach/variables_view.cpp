#include "ui/teach/variables_view.h"

#include <QPainter>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;

namespace {

constexpr qreal kBoxPad = 10;
constexpr qreal kCell = 46;
constexpr qreal kGap = 3;

}  // namespace

VariablesView::VariablesView(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void VariablesView::setVariables(std::vector<teach::Variable> variables, std::size_t window,
                                 std::optional<std::size_t> focus, QString caption) {
    m_variables = std::move(variables);
    m_window = window;
    m_focus = focus;
    m_caption = std::move(caption);
    update();
}

// A ring-long list around the call's slot; any other list from its front.
std::vector<std::size_t> VariablesView::indicesFor(const teach::Variable& v, int cells) const {
    std::vector<std::size_t> out;
    const std::size_t have = v.items.size();
    const std::size_t n = std::min(have, std::size_t(std::max(1, cells)));
    std::size_t first = 0;
    if (m_focus && v.length == m_window && have == v.length && n < have) {
        first = (*m_focus + have - n / 2) % have;
    }
    for (std::size_t k = 0; k < n; ++k) {
        out.push_back((first + k) % std::max<std::size_t>(1, have));
    }
    return out;
}

void VariablesView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().window());
    const QRectF board = QRectF(rect()).adjusted(2, 2, -2, -2);
    p.setPen(QPen(ts::colors().boardBorder, 1));
    p.setBrush(ts::colors().board);
    p.drawRoundedRect(board, 10, 10);
    p.setPen(ts::colors().ink);
    p.setFont(ts::font(10.5, true));
    const QRectF title(board.left() + kBoxPad, board.top() + 6, board.width() - 2 * kBoxPad, 18);
    p.drawText(title, Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(p.font()).elidedText(m_caption, Qt::ElideRight, int(title.width())));
    m_shown.assign(m_variables.size(), {});
    qreal y = title.bottom() + 6;
    if (m_variables.empty()) {
        p.setPen(ts::colors().softInk);
        p.setFont(ts::font(10));
        p.drawText(
            QRectF(board.left() + kBoxPad, y, board.width() - 2 * kBoxPad, board.bottom() - y - 6),
            Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
            tr("After a check that differs, your counter's fields after each call of the "
               "smallest failing sequence appear here, beside the reference ring."));
        return;
    }
    const int cells = int((board.width() - 2 * kBoxPad) / (kCell + kGap));
    for (std::size_t f = 0; f < m_variables.size(); ++f) {
        const teach::Variable& v = m_variables[f];
        if (y + 18 > board.bottom()) {
            break;
        }
        p.setFont(ts::mono(9, true));
        p.setPen(ts::colors().ink);
        const QString name = QString::fromStdString(v.name);
        if (!v.isList) {
            p.drawText(QRectF(board.left() + kBoxPad, y, board.width() - 2 * kBoxPad, 16),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       p.fontMetrics().elidedText(
                           name + QStringLiteral(" = ") + QString::fromStdString(v.text),
                           Qt::ElideRight, int(board.width() - 2 * kBoxPad)));
            y += 20;
            continue;
        }
        p.drawText(QRectF(board.left() + kBoxPad, y, board.width() - 2 * kBoxPad, 16),
                   Qt::AlignLeft | Qt::AlignVCenter, tr("%1 (length %2)").arg(name).arg(v.length));
        y += 17;
        if (y + 34 > board.bottom() + 2) {
            break;
        }
        const std::vector<std::size_t> shown = indicesFor(v, cells);
        m_shown[f] = shown;
        qreal x = board.left() + kBoxPad;
        for (std::size_t i : shown) {
            const QRectF cell(x, y + 11, kCell, 22);
            const bool focus = m_focus && v.length == m_window && i == *m_focus;
            p.setFont(ts::font(7.5));
            p.setPen(focus ? ts::colors().current : ts::colors().softInk);
            p.drawText(QRectF(x, y, kCell, 11), Qt::AlignCenter, QString::number(i));
            p.setPen(focus ? QPen(ts::colors().current, 2.2) : QPen(ts::colors().emptyEdge, 1));
            p.setBrush(ts::colors().empty);
            p.drawRoundedRect(cell, 4, 4);
            p.setPen(ts::colors().ink);
            p.setFont(ts::mono(8.5));
            const QString text = QString::fromStdString(v.items[i]);
            p.drawText(cell.adjusted(2, 0, -2, 0), Qt::AlignCenter,
                       p.fontMetrics().elidedText(text, Qt::ElideRight, int(cell.width() - 4)));
            x += kCell + kGap;
        }
        if (v.length > shown.size()) {
            p.setFont(ts::font(8));
            p.setPen(ts::colors().softInk);
            p.drawText(QRectF(board.left() + kBoxPad, y + 34, board.width() - 2 * kBoxPad, 12),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       tr("%1 of %2 shown").arg(shown.size()).arg(v.length));
            y += 12;
        }
        y += 40;
    }
}

}  // namespace hitcounter::ui
