// CodeEditor: a plain-text editor for the learner's JavaScript with line numbers in a gutter
// (the Code tab, issue 24).
//
// GUI thread only. Tab inserts four spaces; markErrorLine() tints a line and its number in the
// error red (0 clears it) and moves the cursor there, so "line 6: SyntaxError" is found at
// once. Colours come from the teaching palette when painted (light or dark).
#pragma once

#include <QPlainTextEdit>

namespace hitcounter::ui {

class CodeEditor : public QPlainTextEdit {
    Q_OBJECT

public:
    explicit CodeEditor(QWidget* parent = nullptr);

    void markErrorLine(int line);  // 1-based; 0 for none
    int errorLine() const { return m_errorLine; }
    int gutterWidth() const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    friend class LineNumberGutter;
    void paintGutter(QPaintEvent* event);
    void refreshSelections();

    QWidget* m_gutter;
    int m_errorLine = 0;
};

}  // namespace hitcounter::ui
