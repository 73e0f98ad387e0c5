#include "ui/teach/code_editor.h"

#include <QKeyEvent>
#include <QPainter>
#include <QTextBlock>

#include "ui/teach/teach_style.h"

namespace hitcounter::ui {

namespace ts = teachstyle;

// The gutter: a child widget that asks the editor to paint it.
class LineNumberGutter : public QWidget {
public:
    explicit LineNumberGutter(CodeEditor* editor) : QWidget(editor), m_editor(editor) {}
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event); }

private:
    CodeEditor* m_editor;
};

CodeEditor::CodeEditor(QWidget* parent)
    : QPlainTextEdit(parent), m_gutter(new LineNumberGutter(this)) {
    setFont(ts::mono(10));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(QFontMetricsF(font()).horizontalAdvance(QLatin1Char(' ')) * 4);
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
        if (dy != 0) {
            m_gutter->scroll(0, dy);
        } else {
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
        }
    });
    connect(this, &QPlainTextEdit::textChanged, this, [this] {
        if (m_errorLine > 0) {
            markErrorLine(0);  // an edit answers the error; the next check tells again
        }
    });
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int CodeEditor::gutterWidth() const {
    int digits = 2;
    for (int n = std::max(1, blockCount()); n >= 100; n /= 10) {
        ++digits;
    }
    return 12 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * digits;
}

void CodeEditor::resizeEvent(QResizeEvent* event) {
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

void CodeEditor::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Tab && event->modifiers() == Qt::NoModifier) {
        insertPlainText(QStringLiteral("    "));
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void CodeEditor::markErrorLine(int line) {
    m_errorLine = line;
    refreshSelections();
    if (line > 0) {
        const QTextBlock block = document()->findBlockByNumber(line - 1);
        if (block.isValid()) {
            setTextCursor(QTextCursor(block));
            ensureCursorVisible();
        }
    }
    m_gutter->update();
}

void CodeEditor::refreshSelections() {
    QList<QTextEdit::ExtraSelection> selections;
    if (m_errorLine > 0) {
        const QTextBlock block = document()->findBlockByNumber(m_errorLine - 1);
        if (block.isValid()) {
            QTextEdit::ExtraSelection error;
            error.format.setBackground(ts::colors().removedFill);
            error.format.setProperty(QTextFormat::FullWidthSelection, true);
            error.cursor = QTextCursor(block);
            selections.append(error);
        }
    }
    setExtraSelections(selections);
}

void CodeEditor::paintGutter(QPaintEvent* event) {
    QPainter p(m_gutter);
    p.fillRect(event->rect(), ts::colors().board);
    p.setFont(font());
    QTextBlock block = firstVisibleBlock();
    int number = block.blockNumber() + 1;
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        if (block.isVisible() && top + height >= event->rect().top()) {
            const bool error = number == m_errorLine;
            p.setPen(error ? ts::colors().removed : ts::colors().softInk);
            QFont f = font();
            f.setBold(error);
            p.setFont(f);
            p.drawText(QRect(0, top, m_gutter->width() - 6, height),
                       Qt::AlignRight | Qt::AlignVCenter, QString::number(number));
        }
        block = block.next();
        top += height;
        ++number;
    }
}

}  // namespace hitcounter::ui
